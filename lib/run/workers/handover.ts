/**
 * How main hands a flow to a worker: the message that carries it. The
 * checked flow as JSON when it waits so, or JSON holds it exactly (parsing
 * that costs a worker a third of loading the file, and writing it costs
 * main less than that); else the bytes its file was checked from, which the
 * worker loads again, with the checked flow's `fingerprint` so the worker
 * can tell whether the files it reads again from disk (includes, data and
 * check files) still give the flow main checked.
 *
 * @module
 */
import { flowText } from "../../load/flow_cache.ts";
import { isHeld } from "../../load/set_held.ts";
import { type DeferredFlow, type Flow, isDeferred } from "../../model/flow.ts";
import { fingerprint } from "./fingerprint.ts";
import type { ToWorker } from "./messages.ts";

/**
 * The message that hands `flow`, at `index` of the run and `part` of its
 * file's flows (its data row), to a worker; `source` gives the bytes a
 * file was checked from.
 *
 * @example
 * ```ts
 * import { flowMessage } from "./handover.ts";
 * const flow = { file: "a.yaml", name: "a", vars: [], steps: [] };
 * const message = flowMessage(flow, 3, 0, () => undefined);
 * if (message.index !== 3 || typeof message.json !== "string" || message.print) throw new Error();
 * ```
 */
export function flowMessage(
  flow: Flow | DeferredFlow,
  index: number,
  part: number,
  source: ((file: string) => Uint8Array | undefined) | undefined,
): Extract<ToWorker, { kind: "flow" }> {
  const json = isHeld(flow) ? flow.handOver() : isDeferred(flow) ? undefined : flowText(flow);
  // Its bytes, not the file: the console quotes their lines and the manifest hashes them.
  const bytes = json ? undefined : source?.(flow.file);
  const print = json || isDeferred(flow) ? undefined : fingerprint(flow);
  return {
    kind: "flow",
    index,
    file: flow.file,
    part,
    ...(json ? { json } : {}),
    ...(bytes ? { source: bytes } : {}),
    ...(print !== undefined ? { print } : {}),
  };
}

/**
 * Each flow's place among its file's flows (its data rows, in order): what a
 * worker picks from the file it loads again.
 *
 * @example
 * ```ts
 * import { partsOf } from "./handover.ts";
 * const parts = partsOf([{ file: "a" }, { file: "a" }, { file: "b" }] as never[]);
 * if (parts.join() !== "0,1,0") throw new Error();
 * ```
 */
export function partsOf(flows: readonly (Flow | DeferredFlow | undefined)[]): Int32Array {
  const parts = new Int32Array(flows.length);
  for (let i = 1; i < flows.length; i++) {
    if (flows[i]?.file === flows[i - 1]?.file) parts[i] = parts[i - 1] + 1;
  }
  return parts;
}
