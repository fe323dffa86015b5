/**
 * How the second recording's evidence judges what the single-recording rules wrote: the
 * decision kept for each value, and what a user holds (equal in every recording by nature).
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import { valueKey } from "./json.ts";
import type { Evidence } from "./two_recordings.ts";

/** How each value the two recordings decided was written. */
export type Decision = "constant" | "capture" | "fresh" | "variable" | "credential";

/**
 * Names of what a user holds (a password, an API key, a bearer token): equal
 * in every recording by nature, so equality says nothing about their being
 * secret; they stay variables.
 */
export const HELD_BY_USER =
  /pass|pwd|secret|private|api[-_]?key|^authorization$|^proxy-authorization$|^cookie$|credential|otp|pin$/i;

/**
 * A correlation whose rules the second recording's evidence overrules.
 *
 * @example
 * ```ts
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import type { TwoRecordingsCorrelator } from "./two_recordings_judge.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * const t: TwoRecordingsCorrelator = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * if (t.unconfirmed !== 0) throw new Error();
 * ```
 */
export interface TwoRecordingsCorrelator extends Correlator {
  readonly evidence: Evidence;
  /** Each value the evidence decided, by {@linkcode valueKey}. */
  readonly decisions: Map<string, Decision>;
  /** Differing values captured without a partner response to confirm them. */
  unconfirmed: number;
}

/**
 * Notes how the evidence decided `value`.
 *
 * @example
 * ```ts
 * import { decide } from "./two_recordings_judge.ts";
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * const t = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * decide(t, "x", "constant");
 * if (t.decisions.size !== 1) throw new Error();
 * ```
 */
export function decide(t: TwoRecordingsCorrelator, value: unknown, decision: Decision): void {
  t.decisions.set(valueKey(value), decision);
}

/**
 * Records how the single-recording rules wrote a value the evidence speaks about; gives the
 * template back.
 *
 * @example
 * ```ts
 * import { judged } from "./two_recordings_judge.ts";
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * const t = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * if (judged(t, "x", "x") !== "x") throw new Error();
 * ```
 */
export function judged(t: TwoRecordingsCorrelator, value: unknown, template: string): string {
  const k = valueKey(value);
  if (t.decisions.has(k) || template === t.sp.lit(String(value))) return template;
  if (t.evidence.isDynamic(value)) {
    decide(
      t,
      value,
      /\$\{steps\./.test(template)
        ? "capture"
        : /\$\{(RANDOM|RUN_ID|vars\.)/.test(template)
        ? "fresh"
        : "variable",
    );
  } else if (t.evidence.isConstant(value) && /\$\{(ENV\.|[A-Z])/.test(template)) {
    decide(t, value, "credential");
  }
  return template;
}
