/**
 * `--verify`'s second send of a step that got no answer at all: before any
 * other candidate, the step is sent once more unchanged. A server may lose
 * a request while it restarts its listener (Syncthing's GUI does when a
 * config write changes its `gui` section), and a candidate sent after it is
 * back would pass and be kept as a repair the step never needed; with no
 * candidate, the step would be said not to pass. A step that answered, even
 * with an error status, is the server's word on that request: it is not
 * sent again unchanged.
 *
 * @module
 */
import type { StepResult } from "../model/result.ts";
import type { LiveOutcome } from "./verify_live.ts";
import { runStep, type Verification } from "./verify_state.ts";
import { MAX_VERIFY_RUNS } from "./verify_report.ts";

/**
 * Why a step got no answer (the runner's message), or `undefined` when it
 * got one, was not sent, or waited out its timeout (sent again, it would
 * wait as long once more).
 *
 * @example
 * ```ts
 * import { noAnswer } from "./verify_resend.ts";
 * import type { StepResult } from "../model/result.ts";
 * const lost = { status: "error", failure_kind: "request", response: null, message: "Request failed: connection refused." } as StepResult;
 * if (noAnswer(lost) !== "Request failed: connection refused.") throw new Error();
 * const slow = { ...lost, message: "No complete response within 500 ms." } as StepResult;
 * if (noAnswer(slow) !== undefined) throw new Error();
 * ```
 */
export function noAnswer(result: StepResult): string | undefined {
  if (result.status !== "error" || result.failure_kind !== "request" || result.response) {
    return undefined;
  }
  // The runner's timeout message (lib/http/send.ts), as lib/report/latency.ts reads it.
  if (/^No complete response within /.test(result.message ?? "")) return undefined;
  return result.message ?? "no answer";
}

/**
 * Step `i` sent again as it stands, when its first send got no answer and
 * the verification's bound allows one more run; `undefined` otherwise.
 *
 * @example
 * ```ts
 * import { sendAgain } from "./verify_resend.ts";
 * import type { Verification } from "./verify_state.ts";
 * import type { LiveOutcome } from "./verify_live.ts";
 * const answered = { sent: true, captured: new Map(), result: { status: "failed", failure_kind: "assertion" } } as unknown as LiveOutcome;
 * // It answered: nothing is sent again.
 * if (await sendAgain({ runs: 0 } as Verification, 0, answered) !== undefined) throw new Error();
 * ```
 */
export async function sendAgain(
  v: Verification,
  i: number,
  first: LiveOutcome,
): Promise<LiveOutcome | undefined> {
  if (!first.sent || noAnswer(first.result) === undefined || v.runs >= MAX_VERIFY_RUNS) {
    return undefined;
  }
  return await runStep(v, i);
}
