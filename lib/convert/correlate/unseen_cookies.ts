/**
 * A session cookie later requests send that no recorded answer set: chrome-har keeps one of an
 * answer's `Set-Cookie` lines at times (Icinga Web 2's login page sets `_chc` and its session
 * cookie; the recording shows `_chc` alone, and the login's token belongs to the lost session).
 *
 * The cookie appeared between two requests of its origin: the first request that sends it comes
 * right after one that did not, whose answer set other cookies or was the page the sender came
 * from (its `Referer`). That answer set it, so the run reads it from the live answer, as it does a
 * cookie the recording shows set. A cookie the origin's first request already sends, or one first
 * sent after an answer that set nothing and is not the sender's page, the browser held before the
 * recording: it keeps its handling (a variable the user sets).
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import type { Producer, Step } from "../model.ts";
import type { Correlator } from "./state.ts";

/**
 * The step whose answer set cookie `name`, read from where it first appears among `step`'s and
 * the earlier steps' requests to `host`; `undefined` when the browser held it before.
 *
 * @example
 * ```ts
 * import { unseenSetter } from "./unseen_cookies.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const rec = (cookies: string[], set: string[]) => ({
 *   url: new URL("http://a.test/login"), headers: [], mimeType: "text/html",
 *   cookies: cookies.map((name) => ({ name, value: "v" })),
 *   setCookies: set.map((name) => ({ name, value: "1" })),
 * });
 * const step = (r: unknown) => ({ first: r, last: r, records: [r] });
 * const page = step(rec([], ["_chc"]));
 * const post = step(rec(["_chc", "sid"], []));
 * const c = emptyCorrelator("a", true);
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(page as any, post as any);
 * // deno-lint-ignore no-explicit-any
 * if (unseenSetter(c, "sid", "a.test", post as any) !== page) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (unseenSetter(c, "sid", "a.test", page as any) !== undefined) throw new Error();
 * ```
 */
export function unseenSetter(
  c: Correlator,
  name: string,
  host: string,
  step: Step,
): Step | undefined {
  const mine = c.steps.filter((s) => s !== step && s.first.url.host === host);
  mine.push(step);
  const first = mine.findIndex((s) => s.records.some((r) => sends(r, name)));
  if (first <= 0) return undefined;
  const before = mine[first - 1].last;
  const sender = mine[first].records.find((r) => sends(r, name))!;
  return before.setCookies.length > 0 || pageOf(before, sender) ? mine[first - 1] : undefined;
}

/**
 * A producer of cookie `name` from `setter`'s live answer.
 *
 * @example
 * ```ts
 * import { setByAnswer } from "./unseen_cookies.ts";
 * // deno-lint-ignore no-explicit-any
 * const p = setByAnswer({ name: "s" } as any, "sid");
 * if (p.source.kind !== "cookie" || !p.secret) throw new Error();
 * ```
 */
export function setByAnswer(setter: Step, name: string): Producer {
  return { step: setter, source: { kind: "cookie", name }, secret: true };
}

/** Whether `r` sent cookie `name`. */
function sends(r: HarRecord, name: string): boolean {
  return r.cookies.some((k) => k.name === name);
}

/** Whether `page` is an HTML page `sender` came from (its `Referer`). */
function pageOf(page: HarRecord, sender: HarRecord): boolean {
  if (!/html/.test(page.mimeType ?? "")) return false;
  const referer = sender.headers.find((h) => h.name.toLowerCase() === "referer")?.value;
  return referer !== undefined && URL.canParse(referer) && new URL(referer).href === page.url.href;
}
