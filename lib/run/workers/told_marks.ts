/**
 * A flow's mark (when its steps began, see `secrets/said_since.ts`) across
 * threads. A worker counts the secrets it learns in its own redactor, which
 * main's does not share: the count means nothing in main, which masked a
 * worker's flow by long secrets only, and a short secret the run learnt
 * after a message quoted it (a token another flow then received) was
 * written in clear. So a worker hands each flow's result over with the short
 * secrets it knew when the flow's steps began, and main counts every other
 * short secret it holds as learnt since.
 *
 * @module
 */
import type { FlowResult } from "../../model/result.ts";
import type { Redactor } from "../../secrets/redactor.ts";
import { knownAt, noteToldSince, toldSince } from "../../secrets/said_since.ts";
import type { WorkerItem } from "./messages.ts";

/**
 * The worker's item for a flow's result at `index`, with the short secrets
 * `redactor` knew when the flow's steps began.
 *
 * @example
 * ```ts
 * import { doneItem } from "./told_marks.ts";
 * import { Redactor } from "../../secrets/redactor.ts";
 * import { noteToldSince } from "../../secrets/said_since.ts";
 * const r = new Redactor();
 * r.add("pass");
 * const result = { file: "a.yaml", name: "a", status: "failed" as const, started_at: "", duration_ms: 1, steps: [] };
 * noteToldSince(result, r.size);
 * r.add("k7q2zx");
 * const item = doneItem(3, result, r);
 * if (item.kind !== "done" || item.known?.join() !== "pass") throw new Error();
 * ```
 */
export function doneItem(
  index: number,
  result: FlowResult,
  redactor: Pick<Redactor, "shortAdded">,
): WorkerItem {
  const mark = toldSince(result);
  return {
    kind: "done",
    index,
    result,
    ...(mark === undefined ? {} : { known: knownAt(redactor, mark) }),
  };
}

/**
 * The result of a worker's `done` item, its mark noted in main's terms.
 *
 * @example
 * ```ts
 * import { markedResult } from "./told_marks.ts";
 * import { toldSince } from "../../secrets/said_since.ts";
 * const result = { file: "a.yaml", name: "a", status: "passed" as const, started_at: "", duration_ms: 1, steps: [] };
 * const marked = markedResult({ kind: "done", index: 0, result, known: ["pass"] });
 * const mark = toldSince(marked);
 * if (typeof mark !== "object" || mark.known[0] !== "pass") throw new Error();
 * ```
 */
export function markedResult(item: Extract<WorkerItem, { kind: "done" }>): FlowResult {
  if (item.known) noteToldSince(item.result, { known: item.known });
  return item.result;
}
