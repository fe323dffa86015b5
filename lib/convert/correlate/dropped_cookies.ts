/**
 * Cookies whose recorded value only the answer of a request the flow drops set. EverShop's
 * server gives every request without its storefront cookie a new `sid`, its page's scripts too;
 * its admin page sets only `asid`, and the sign-in then sent both. The value the sign-in sent
 * came from a script's answer: no step's answer sets it, so a run cannot read it from one (read
 * from the page before its first sender, the first step failed: the page set no `sid`), and
 * nobody holds it to be asked for either. The request goes without it, as on a first visit, the
 * rule the cookies held for a request chrome-har recorded without follow (`../held_cookies.ts`). A
 * value a kept answer set too is that answer's (`producers.ts`).
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import type { Correlator } from "./state.ts";

/**
 * Notes in `c.droppedSetCookies` each cookie (`host\nname=value`) the answer of a record of
 * `all` not in `kept` set, and no kept answer set. Returns `c`.
 *
 * @example
 * ```ts
 * import { noteDroppedSetCookies } from "./dropped_cookies.ts";
 * import { newCorrelator } from "./mod.ts";
 * const rec = (path: string, set: string[]) => ({
 *   url: new URL(`http://a.test${path}`),
 *   setCookies: set.map((text) => ({ name: text.split("=")[0], value: text.split("=")[1] })),
 * });
 * const page = rec("/login", ["asid=A1"]);
 * const script = rec("/app.js", ["sid=S1", "asid=A1"]);
 * // deno-lint-ignore no-explicit-any
 * const c = noteDroppedSetCookies(newCorrelator("a"), [page, script] as any, [page] as any);
 * if ([...c.droppedSetCookies].join() !== "a.test\nsid=S1") throw new Error();
 * ```
 */
export function noteDroppedSetCookies<C extends Correlator>(
  c: C,
  all: readonly HarRecord[],
  kept: readonly HarRecord[],
): C {
  const flowHas = new Set(kept);
  const keptSet = new Set(kept.flatMap(setKeys));
  for (const key of all.filter((r) => !flowHas.has(r)).flatMap(setKeys)) {
    if (!keptSet.has(key)) c.droppedSetCookies.add(key);
  }
  return c;
}

/**
 * Whether the cookie `r` sent is one only a dropped answer set (`noteDroppedSetCookies`).
 *
 * @example
 * ```ts
 * import { setOnlyByDropped } from "./dropped_cookies.ts";
 * import { newCorrelator } from "./mod.ts";
 * const c = newCorrelator("a");
 * c.droppedSetCookies.add("a.test\nsid=S1");
 * // deno-lint-ignore no-explicit-any
 * const r = { url: new URL("http://a.test/api") } as any;
 * if (!setOnlyByDropped(c, r, { name: "sid", value: "S1" })) throw new Error();
 * if (setOnlyByDropped(c, r, { name: "sid", value: "S2" })) throw new Error();
 * ```
 */
export function setOnlyByDropped(
  c: Correlator,
  r: HarRecord,
  cookie: { name: string; value: string },
): boolean {
  if (c.droppedSetCookies.size === 0) return false;
  return c.droppedSetCookies.has(`${r.url.host}\n${cookie.name}=${cookie.value}`);
}

/** The cookies `r`'s answer set, each as `host\nname=value`. */
function setKeys(r: HarRecord): string[] {
  return r.setCookies.map((cookie) => `${r.url.host}\n${cookie.name}=${cookie.value}`);
}
