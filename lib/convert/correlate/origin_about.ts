/**
 * How the flow's header describes a base-URL variable. Each origin the
 * requests go to is one (`BASE_URL`, `BASE_URL_2`, … in the order the steps
 * first reach it; `WS_BASE_URL…` for WebSocket servers, in `rewrite_value.ts`
 * and `websocket_step.ts`). With one origin "the API's base URL" says it all;
 * with several, every line read the same and the user had to guess from the
 * defaults which to point where (a page's commands for port 9090 and two for
 * 9091, a docs host beside `localhost`). There each says which steps it
 * serves. `convert har` and `convert curl` write the header with this one
 * function, so both name their origins in the same words.
 *
 * @module
 */
import type { Correlator } from "./state.ts";

/** Most step names a description lists before "and N more". */
const MAX_NAMED = 3;

/**
 * The header's description of variable `name` (`about` as the rules set it):
 * for a base URL among several of its kind, the steps sent to its origin.
 *
 * @example
 * ```ts
 * import { originAbout } from "./origin_about.ts";
 * import { baseRef } from "./rewrite_value.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const ref = baseRef(c, "http://a.test");
 * baseRef(c, "http://b.test");
 * // deno-lint-ignore no-explicit-any
 * c.steps.push({ name: "get_x", url: `${ref}/x` } as any);
 * const about = originAbout(c, "BASE_URL", c.env.get("BASE_URL")!);
 * if (about !== "the base URL of the steps sent to this origin: get_x") throw new Error(about);
 * ```
 */
export function originAbout(
  c: Correlator,
  name: string,
  v: { about: string; fallback?: string },
): string {
  const ref = v.fallback === undefined ? undefined : c.origins.get(v.fallback);
  if (ref === undefined) return v.about;
  const ws = /^wss?:/.test(v.fallback!);
  // The base URLs of its kind: the origins of plain requests, or of WebSocket servers.
  const kin = [...c.env].filter(([, o]) =>
    o.fallback !== undefined && c.origins.has(o.fallback) && /^wss?:/.test(o.fallback) === ws
  );
  if (kin.length < 2 || !kin.some(([n]) => n === name)) return v.about;
  // A step's URL is the reference, then its path, query or nothing (never `${vars.base_url_2}`).
  const steps = c.steps.filter((s) =>
    s.url.startsWith(ref) && /^(?:[/?#]|$)/.test(s.url.slice(ref.length))
  )
    .map((s) => s.name);
  if (steps.length === 0) return v.about;
  const named = steps.slice(0, MAX_NAMED).join(", ");
  const more = steps.length > MAX_NAMED ? ` and ${steps.length - MAX_NAMED} more` : "";
  return `the base URL of the steps sent to this origin: ${named}${more}`;
}
