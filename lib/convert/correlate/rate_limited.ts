/**
 * A step the server throttles and says so: its recorded answers declare a
 * rate limit in their own headers (`RateLimit-Policy: 15;w=60`,
 * `RateLimit-Limit`, `X-RateLimit-Limit`). A user's pace stayed under it; a
 * replay, or a second run within the window, may not (Unleash allows 15
 * feature searches a minute and its admin UI searches 8 times a journey).
 * Such a step is sent again on 429, 1 s first and doubled, until the waits
 * add up to the window the answer declared (60 s when it names none), at
 * most 10 times. A step whose answers declare no limit gets no retry.
 *
 * @module
 */
import { responseHeaders } from "../handed.ts";
import type { HarRecord } from "../har_model.ts";
import type { Step } from "../model.ts";
import { ymap } from "../yaml_out.ts";

/** The window assumed when an answer declares a limit but no window, in seconds. */
const DEFAULT_WINDOW_S = 60;

/**
 * Gives `step` a retry on 429 when its recorded answers declare a rate
 * limit (see the module); a step with options already keeps them.
 *
 * @example
 * ```ts
 * import { retryRateLimited } from "./rate_limited.ts";
 * const headers = [{ name: "RateLimit-Policy", value: "15;w=60" }];
 * const r = { raw: { response: { headers } } };
 * // deno-lint-ignore no-explicit-any
 * const step = { records: [r] } as any;
 * retryRateLimited(step);
 * if (step.options === undefined) throw new Error();
 * ```
 */
export function retryRateLimited(step: Step): void {
  if (step.options !== undefined) return;
  const windows = step.records.map(declaredWindow).filter((w) => w !== undefined);
  if (windows.length === 0) return;
  const window = Math.max(...windows);
  // Waits of 1, 2, 4 … s: n retries wait 2^n - 1 s in all.
  const count = Math.min(10, Math.max(1, Math.ceil(Math.log2(window + 1))));
  step.options = ymap([["retry", ymap([["count", count], ["on", [429]], ["delay", "1s"]])]]);
}

/** The window in seconds a recorded answer declares a rate limit for, or undefined. */
function declaredWindow(r: HarRecord): number | undefined {
  const headers = responseHeaders(r);
  const value = (name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value.trim();
  const policy = value("ratelimit-policy") ?? value("x-ratelimit-policy");
  const window = policy ? /;\s*w=(\d{1,6})/.exec(policy)?.[1] : undefined;
  if (window !== undefined) return Number(window);
  const limited = ["ratelimit-limit", "x-ratelimit-limit", "ratelimit"]
    .some((name) => value(name) !== undefined);
  return limited || policy !== undefined ? DEFAULT_WINDOW_S : undefined;
}
