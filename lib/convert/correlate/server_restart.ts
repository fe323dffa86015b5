/**
 * The step after a write the server answered and then went away: a print server (CUPS) answers
 * "Change Settings" with "Please stand by while the server restarts" and `Connection: close`,
 * where every other answer of it keeps the connection alive, and restarts. The browser's next
 * page came a moment later and found it back; a replay sends at once and is refused the
 * connection, and every step after it is skipped. The evidence is the server's own word, not the
 * page's: it closed the connection after that write, where its other answers on the origin said
 * `keep-alive`. A server that closes every connection (PHP's built-in one) says nothing by it,
 * nor does a recording that left the header out. Such a step is sent again on a network error,
 * a bounded number of times.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { responseHeaders } from "../handed.ts";
import type { Step } from "../model.ts";
import { ymap } from "../yaml_out.ts";
import type { Correlator } from "./state.ts";

/** How many times the step is sent again: 200 ms, doubled each time, 12.6 s in all. */
const RETRIES = 6;

/**
 * The tokens of the answer's `Connection` header, in small letters: a recorder may join two
 * header lines into one value (`close\nclose`), and a header may list several (`keep-alive, …`).
 */
function connection(r: HarRecord): string[] {
  return responseHeaders(r).filter((h) => h.name.toLowerCase() === "connection")
    .flatMap((h) => h.value.toLowerCase().split(/[\n,]/)).map((t) => t.trim());
}

/**
 * Gives `step` a retry on a network error when the step before it was a write whose answer
 * closed its connection while the origin's other answers did not (see the module); a step with
 * options already keeps them.
 *
 * @example
 * ```ts
 * import { retryAfterRestart } from "./server_restart.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const r = (method: string, value: string) => ({ method, url: new URL("http://p.test/admin"),
 *   status: 200, raw: { response: { headers: [{ name: "Connection", value }] } } });
 * const steps = [r("GET", "Keep-Alive"), r("POST", "close")];
 * // deno-lint-ignore no-explicit-any
 * for (const s of steps) c.steps.push({ method: s.method, records: [s], first: s, last: s } as any);
 * const next = r("GET", "Keep-Alive");
 * // deno-lint-ignore no-explicit-any
 * const step = { method: "GET", first: next, records: [next] } as any;
 * retryAfterRestart(c, step);
 * if (step.options === undefined) throw new Error();
 * ```
 */
export function retryAfterRestart(c: Correlator, step: Step): void {
  const before = c.steps.at(-1);
  if (step.options !== undefined || before === undefined) return;
  if (["GET", "HEAD", "OPTIONS"].includes(before.method)) return;
  const origin = before.last.url.origin;
  if (!connection(before.last).includes("close") || step.first.url.origin !== origin) return;
  // The other answers said they keep the connection, none closed it: a header a recorder left
  // out (chrome-har keeps some answers' headers only) is no evidence either way.
  const others = c.steps.slice(0, -1).map((s) => connection(s.last))
    .filter((_, i) => c.steps[i].last.url.origin === origin);
  if (!others.some((t) => t.includes("keep-alive")) || others.some((t) => t.includes("close"))) {
    return;
  }
  step.options = ymap([[
    "retry",
    ymap([["count", RETRIES], ["on", ["network"]], ["delay", "200ms"]]),
  ]]);
}
