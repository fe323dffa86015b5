/**
 * A short secret the run learns after a message was made: flowrun's messages
 * (a check's, a step's, a log line's `error`) mask the values they quote when
 * they are made, and the reports then keep them as flowrun's words, masked by
 * long secrets only (see `own_fields.ts`). A short secret learnt later (a
 * token a later step captures, then another flow) was not known when a value
 * it stands in was quoted: kept as words, it would be written in clear. So a
 * flow's result notes how many secrets the run knew when its steps began
 * (`noteToldSince`), and its messages are masked at every output also by each
 * short secret learnt since, as a value. A flowrun word equal to such a secret
 * is masked too: the value cannot be told from the word any more, and a
 * secret must never get through.
 *
 * @module
 */
import { Redactor } from "./redactor.ts";

/** The redactor's `size` when each flow's steps began. */
const marks = new WeakMap<object, number>();

/**
 * Notes that the messages of `flow` were made once its redactor held
 * `mark` values (its `size`).
 *
 * @example
 * ```ts
 * import { noteToldSince, toldSince } from "./said_since.ts";
 * const flow = { name: "f" };
 * noteToldSince(flow, 3);
 * if (toldSince(flow) !== 3 || toldSince({}) !== undefined) throw new Error();
 * ```
 */
export function noteToldSince(flow: object, mark: number): void {
  marks.set(flow, mark);
}

/**
 * The mark noted for `flow`, if any.
 *
 * @example
 * ```ts
 * import { toldSince } from "./said_since.ts";
 * if (toldSince({}) !== undefined) throw new Error();
 * ```
 */
export function toldSince(flow: object): number | undefined {
  return marks.get(flow);
}

/**
 * How the messages of a result noted at `mark` are masked now (for
 * `Redactor.redactValue`): long secrets anywhere, and each short secret
 * given to `redactor` since, as a value; `undefined` when none was (the
 * messages are then masked by long secrets only, as every own field).
 *
 * @example
 * ```ts
 * import { saidSince } from "./said_since.ts";
 * import { Redactor } from "./redactor.ts";
 * const r = new Redactor();
 * r.add("status");
 * const mark = r.size; // a flow's steps begin
 * r.add("holds"); // learnt by a step after a message quoted it
 * const said = saidSince(r, mark)!;
 * if (said('status: equals "holds" holds') !== 'status: equals "***" ***') throw new Error();
 * const step = { name: "s", failure_kind: "assertion", message: 'equals "holds"' };
 * if (r.redactValue(step, said).message !== 'equals "***"') throw new Error();
 * if (r.redactValue(step).message !== step.message || saidSince(r, r.size)) throw new Error();
 * ```
 */
export function saidSince(
  redactor: Pick<Redactor, "shortAdded" | "redactOutput">,
  mark: number | undefined,
): ((text: string) => string) | undefined {
  const added = redactor.shortAdded;
  if (mark === undefined || added.length === 0 || added[added.length - 1][0] < mark) {
    return undefined;
  }
  const late = new Redactor();
  for (let i = added.length - 1; i >= 0 && added[i][0] >= mark; i--) {
    late.add(added[i][1], added[i][2]);
  }
  if (late.size === 0) return undefined;
  return (text) => late.redact(redactor.redactOutput(text));
}
