/**
 * A value two recordings sent differently only because it holds what each session's own answers
 * produced (a note's path `root/<id of the note just made>`): the difference is the produced
 * value's, so the value is captured as one recording captures it, never made fresh or asked for.
 *
 * @module
 */
import { valueKey } from "./json.ts";
import type { TwoRecordingsCorrelator } from "./two_recordings_judge.ts";

/** Splits text into words (letters, digits, `_`, `-`) and the separators between them, kept. */
const PIECES = /([^A-Za-z0-9_-]+)/;

/**
 * Whether `value` (the first recording's) and `other` (the second's text in its place, if any) differ only
 * in whole words that earlier answers of the first recording produced, each standing where the
 * second recording sent that value's own counterpart: evidence that the value is built of a
 * capture, whatever its shape (a path of ids can read as base64 and be made random hex).
 *
 * @example
 * ```ts
 * import { differsByProduced } from "./two_recordings_produced.ts";
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * const t = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * // No answer produced "xtd344QweyKb" here: no evidence.
 * if (differsByProduced(t, "root/xtd344QweyKb", "root/5wYWRNh2HKej")) throw new Error();
 * ```
 */
export function differsByProduced(
  t: TwoRecordingsCorrelator,
  value: string,
  other: unknown,
): boolean {
  if (typeof other !== "string") return false;
  const a = value.split(PIECES);
  const b = other.split(PIECES);
  if (a.length !== b.length) return false;
  let produced = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    // A separator that differs, or a word no answer produced: another difference.
    if (i % 2 === 1 || !t.producers.has(valueKey(a[i]))) return false;
    if (t.evidence.counterpart(a[i]) !== b[i]) return false;
    produced++;
  }
  return produced > 0;
}
