/**
 * How the second recording's evidence judges what the single-recording rules wrote: the
 * decision kept for each value, and what a user holds (equal in every recording by nature).
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import { valueKey } from "./json.ts";
import { snake } from "./names.ts";
import type { Evidence } from "./two_recordings.ts";

/** How each value the two recordings decided was written. */
export type Decision = "constant" | "capture" | "fresh" | "variable" | "credential";

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
  // What the template reads, whatever modifier reads it (`${raw:steps.…}`, `${host:vars.…}`).
  const read = template.replace(/\$\{(?:raw|origin|host):/g, "${");
  // Only the instance's address (a browser's Origin or Referer on the base URL), which differs
  // between two instances by their ports: the run's BASE_URL, no value of the session.
  if (onlyBaseUrls(t, read)) return template;
  if (t.evidence.isDynamic(value)) {
    decide(
      t,
      value,
      /\$\{steps\./.test(read)
        ? "capture"
        : /\$\{(RANDOM|RUN_ID|vars\.)/.test(read)
        ? "fresh"
        : "variable",
    );
  } else if (t.evidence.isConstant(value)) {
    // A value the flow makes anew (`${RUN_ID}`, `${RANDOM…}`) is fresh however equal it was;
    // only one read from the environment is what a user holds.
    if (/\$\{(RANDOM|RUN_ID)/.test(template)) decide(t, value, "fresh");
    else if (/\$\{(ENV\.|[A-Z])/.test(template)) decide(t, value, "credential");
  }
  return template;
}

/**
 * One value a run, sent at every place the recording sent `value`: a `${RANDOM.…}` written at
 * each place is fresh at each use, so an id the page made (Node-RED's tab id, and each node's
 * `z` that names it; n8n's `browser-id` header, which its login is bound to) named nothing.
 * Gives the var's reference, the same one for the same value.
 *
 * @example
 * ```ts
 * import { oneValueARun } from "./two_recordings_judge.ts";
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * const t = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * const ref = oneValueARun(t, "tab-id", "4f1c9a", "${RANDOM.HEX_6}");
 * if (ref !== oneValueARun(t, "z", "4f1c9a", "${RANDOM.HEX_6}") || t.vars.length !== 1) throw new Error();
 * ```
 */
export function oneValueARun(
  t: TwoRecordingsCorrelator,
  key: string,
  value: string,
  fresh: string,
): string {
  const known = t.generated.get(value);
  if (known) return known;
  const name = t.varNames.take(snake(key) || "value");
  t.vars.push([name, fresh]);
  const ref = t.sp.varRef(name);
  t.generated.set(value, ref);
  return ref;
}

/** Whether every reference of `read` is a base URL var (`${vars.base_url}`, `…_2`). */
function onlyBaseUrls(t: TwoRecordingsCorrelator, read: string): boolean {
  const bases = [...t.origins.values()];
  if (!bases.some((b) => read.includes(b))) return false;
  return !bases.reduce((rest, b) => rest.split(b).join(""), read).includes("${");
}
