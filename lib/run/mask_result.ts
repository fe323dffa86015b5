/**
 * Masking what the run keeps of a flow: in place, so a flow stays the same
 * object (reporters find their spooled pieces by it), and once per secret
 * learnt: a flow masked with every secret the redactor knows is not masked
 * again. The run's result is masked at its end with every secret of the run
 * (a token a later flow met, which an earlier flow's response held too).
 *
 * @module
 */
import type { FlowResult } from "../model/result.ts";
import type { Redactor } from "../secrets/redactor.ts";
import { saidSince, toldSince } from "../secrets/said_since.ts";

/** How many secrets the redactor knew when each flow was last masked. */
const maskedWith = new WeakMap<FlowResult, number>();

/**
 * Notes that `flow` was masked with the redactor's `known` secrets.
 *
 * @example
 * ```ts
 * import { maskFlow, noteMasked } from "./mask_result.ts";
 * import { Redactor } from "../secrets/redactor.ts";
 * const r = new Redactor();
 * const flow = { file: "a.yaml", name: "tok-1234", status: "passed" as const, started_at: "", duration_ms: 1, steps: [] };
 * noteMasked(flow, r.size);
 * maskFlow(flow, r);
 * if (flow.name !== "tok-1234") throw new Error();
 * ```
 */
export function noteMasked(flow: FlowResult, known: number): void {
  maskedWith.set(flow, known);
}

/**
 * Masks `flow` in place with every secret `redactor` knows, unless it was
 * masked with all of them already: each field that holds a secret is
 * replaced (a spilled step list, read back, becomes its masked copy).
 *
 * @example
 * ```ts
 * import { maskFlow } from "./mask_result.ts";
 * import { Redactor } from "../secrets/redactor.ts";
 * const r = new Redactor();
 * r.add("tok-1234");
 * const steps: never[] = [];
 * const flow = { file: "a.yaml", name: "got tok-1234", status: "passed" as const, started_at: "", duration_ms: 1, steps };
 * maskFlow(flow, r);
 * if (flow.name !== "got ***" || flow.steps !== steps) throw new Error(flow.name);
 * ```
 */
export function maskFlow(flow: FlowResult, redactor: Redactor): void {
  const known = redactor.size;
  if (maskedWith.get(flow) === known) return;
  // Its messages also by the short secrets learnt since they were made (see said_since.ts).
  const said = saidSince(redactor, toldSince(flow));
  const masked = redactor.redactValue(flow, said) as unknown as Record<string, unknown>;
  const own = flow as unknown as Record<string, unknown>;
  if (masked !== own) {
    for (const key of Object.keys(masked)) {
      const value = masked[key];
      // Defined, not assigned: a spilled step list is a getter.
      if (own[key] !== value) {
        Object.defineProperty(own, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
  }
  maskedWith.set(flow, known);
}

/** How many flows are checked for secrets by one pass over their JSON at the end of a run. */
const BATCH = 64;

/**
 * {@linkcode maskFlow} for each of `flows`, a batch at a time: one pass over
 * a batch's JSON finds most of them clean (a run's kept flows rarely hold a
 * secret learnt after they ended), and only a batch with a hit is masked
 * flow by flow. Batches keep the text of spilled steps, read back, small.
 *
 * @example
 * ```ts
 * import { maskFlows } from "./mask_result.ts";
 * import { Redactor } from "../secrets/redactor.ts";
 * const r = new Redactor();
 * const flow = (name: string) => ({ file: "a.yaml", name, status: "passed" as const, started_at: "", duration_ms: 1, steps: [] });
 * const flows = [flow("a"), flow("b tok-1234")];
 * r.add("tok-1234");
 * maskFlows(flows, r);
 * if (flows[0].name !== "a" || flows[1].name !== "b ***") throw new Error();
 * ```
 */
export function maskFlows(flows: readonly FlowResult[], redactor: Redactor): void {
  const known = redactor.size;
  const due = flows.filter((f) => maskedWith.get(f) !== known);
  for (let at = 0; at < due.length; at += BATCH) {
    const batch = due.slice(at, at + BATCH);
    let text: string | undefined;
    try {
      text = JSON.stringify(batch);
    } catch {
      // Too large for one string: flow by flow.
    }
    if (text !== undefined && redactor.redact(text) === text) {
      for (const flow of batch) maskedWith.set(flow, known);
    } else for (const flow of batch) maskFlow(flow, redactor);
  }
}
