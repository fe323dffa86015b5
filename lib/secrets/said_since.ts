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
 * A flow run on a worker thread counts in the worker's redactor, which the
 * main thread's does not share (each learns the other's secrets in its own
 * order): its result reaches main with the short secrets the worker knew
 * when its steps began (`knownAt`), and main counts every other short
 * secret it holds, then or later, as learnt since.
 *
 * @module
 */
import { Redactor } from "./redactor.ts";

/**
 * When a flow's steps began: the redactor's `size` then, or (a flow run on
 * another thread, whose redactor counted apart) the short secrets known then.
 */
export type ToldMark = number | { readonly known: readonly string[] };

/** Each flow's mark. */
const marks = new WeakMap<object, ToldMark>();

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
export function noteToldSince(flow: object, mark: ToldMark): void {
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
export function toldSince(flow: object): ToldMark | undefined {
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
 * // Marked on another thread: every short secret but those it knew is learnt since.
 * const other = saidSince(r, { known: ["status"] })!;
 * if (other('status: equals "holds"') !== 'status: equals "***"') throw new Error();
 * ```
 */
export function saidSince(
  redactor: Pick<Redactor, "shortAdded" | "redactOutput">,
  mark: ToldMark | undefined,
): ((text: string) => string) | undefined {
  const added = redactor.shortAdded;
  if (mark === undefined || added.length === 0) return undefined;
  // Most flows learn nothing after their steps began: nothing to build.
  if (typeof mark === "number" && added[added.length - 1][0] < mark) return undefined;
  const late = new Redactor();
  if (typeof mark === "number") {
    for (let i = added.length - 1; i >= 0 && added[i][0] >= mark; i--) {
      late.add(added[i][1], added[i][2]);
    }
  } else {
    const known = new Set(mark.known);
    for (const [, value, shown] of added) if (!known.has(value)) late.add(value, shown);
  }
  if (late.size === 0) return undefined;
  return (text) => late.redact(redactor.redactOutput(text));
}

/**
 * The short secrets `redactor` knew at `mark`: what a worker hands main
 * with a flow's result, for main to count the rest as learnt since.
 *
 * @example
 * ```ts
 * import { knownAt } from "./said_since.ts";
 * import { Redactor } from "./redactor.ts";
 * const r = new Redactor();
 * r.add("pass");
 * const mark = r.size;
 * r.add("k7q2zx");
 * if (knownAt(r, mark).join() !== "pass" || knownAt(r, { known: ["x"] }).join() !== "x") throw new Error();
 * ```
 */
export function knownAt(redactor: Pick<Redactor, "shortAdded">, mark: ToldMark): string[] {
  if (typeof mark !== "number") return [...mark.known];
  const known: string[] = [];
  for (const [at, value] of redactor.shortAdded) if (at < mark) known.push(value);
  return known;
}
