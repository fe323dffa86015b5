/**
 * Masking at the outputs, for a run whose events keep raw values
 * (`RunOptions.rawEvents`): each output masks what it writes when it writes
 * it, with every secret known then, and a flow's result is masked once for
 * all the outputs that read it whole (the console, the JSON, JUnit and HTML
 * reports), not once per output and never step by step while the flow runs.
 *
 * @module
 */
import type { Reporter } from "../model/events.ts";
import type { FlowResult } from "../model/result.ts";
import type { Redactor } from "../secrets/redactor.ts";
import { saidSince, toldSince } from "../secrets/said_since.ts";

/** How many flows' masked copies are kept (flows ending at once under `--jobs`). */
const KEPT = 4;

/**
 * Each ended flow's result masked once, shared by every reporter it wraps.
 *
 * @example
 * ```ts
 * import { FlowMasks } from "./flow_masks.ts";
 * import { Redactor } from "../secrets/redactor.ts";
 * const redactor = new Redactor();
 * redactor.add("tok-1234");
 * const masks = new FlowMasks(redactor);
 * const seen: string[] = [];
 * const a = masks.reporter({ onFlowEnd: (flow) => void seen.push(flow.name) });
 * const b = masks.reporter({ onFlowEnd: (flow) => void seen.push(flow.name) });
 * const flow = { file: "a.yaml", name: "got tok-1234", status: "passed" as const, started_at: "", duration_ms: 1, steps: [] };
 * await a.onFlowEnd?.(flow);
 * await b.onFlowEnd?.(flow);
 * if (seen.join() !== "got ***,got ***" || masks.flow(flow) !== masks.flow(flow)) throw new Error();
 * ```
 */
export class FlowMasks {
  /**
   * Masked copies by the raw result (the same object when it holds no
   * secret), with their JSON: the last few flows only, since reporters hear
   * a flow's end one after the other (a run keeps every flow's result, so
   * a copy per flow would keep every flow twice).
   */
  readonly #masked = new Map<FlowResult, { flow: FlowResult; json?: string }>();

  constructor(readonly redactor: Redactor) {}

  /**
   * `flow` masked with every secret known now; the same copy for each
   * caller, so a flow is masked once however many outputs read it.
   */
  flow(flow: FlowResult): FlowResult {
    return this.#entry(flow).flow;
  }

  /** The JSON text of {@linkcode flow}'s masked copy, made once. */
  json(flow: FlowResult): string {
    const entry = this.#entry(flow);
    return entry.json ??= JSON.stringify(entry.flow);
  }

  #entry(flow: FlowResult): { flow: FlowResult; json?: string } {
    let entry = this.#masked.get(flow);
    if (entry === undefined) {
      entry = { flow: maskedFlow(flow, this.redactor) };
      if (this.#masked.size >= KEPT) this.#masked.delete(this.#masked.keys().next().value!);
      this.#masked.set(flow, entry);
    }
    return entry;
  }

  /**
   * `reporter` hearing masked events: a request's URL, an attempt's URL and
   * error, a step's result, a flow's result (shared, see {@linkcode flow}).
   * The run's result reaches it as the run gives it: masked at the end of
   * the run with every secret the run met.
   */
  reporter(reporter: Reporter): Reporter {
    const { redactor } = this;
    const masked: Reporter = {};
    const { onRequest, onAttempt, onStepEnd, onFlowEnd } = reporter;
    if (reporter.onRunStart) masked.onRunStart = (run) => reporter.onRunStart!(run);
    if (reporter.onFlowStart) masked.onFlowStart = (ref) => reporter.onFlowStart!(ref);
    if (onRequest) {
      masked.onRequest = (ref, info) =>
        onRequest.call(reporter, ref, { ...info, url: redactor.redact(info.url) });
    }
    if (onAttempt) {
      masked.onAttempt = (ref, info) =>
        onAttempt.call(reporter, ref, {
          ...info,
          url: redactor.redact(info.url),
          // The runner masked the values it quotes; the words are flowrun's (long secrets only).
          ...(info.error === undefined ? {} : { error: redactor.redactOutput(info.error) }),
        });
    }
    if (onStepEnd) {
      masked.onStepEnd = (ref, step) => onStepEnd.call(reporter, ref, redactor.redactValue(step));
    }
    if (onFlowEnd) masked.onFlowEnd = (flow) => onFlowEnd.call(reporter, this.flow(flow));
    if (reporter.onRunEnd) masked.onRunEnd = (result) => reporter.onRunEnd!(result);
    return masked;
  }
}

/**
 * `flow` masked step by step: most flows that log in hold their token in
 * one step (a check on it, a header): that step is walked value by value,
 * the others are found clean by one pass each. Lists and objects without a
 * secret are shared with `flow`, which is never changed.
 */
function maskedFlow(flow: FlowResult, redactor: Redactor): FlowResult {
  // Its messages are masked also by the short secrets learnt since they were made.
  const said = saidSince(redactor, toldSince(flow));
  const steps = sameOrMasked(flow.steps, redactor, said);
  const attempts = flow.attempts?.map((a) => {
    const kept = sameOrMasked(a.steps, redactor, said);
    return kept === a.steps ? a : { ...a, steps: kept };
  });
  const changed = steps !== flow.steps ||
    (attempts !== undefined && attempts.some((a, i) => a !== flow.attempts![i]));
  // The rest (file, name, times, trace id) is small: one pass, without the steps.
  const { steps: _, attempts: __, ...rest } = flow;
  const shell = redactor.redactValue(rest);
  if (!changed && shell === rest) return flow;
  return { ...shell, steps, ...(attempts ? { attempts } : {}) } as FlowResult;
}

/** `list` with each item masked, or `list` itself when none held a secret. */
function sameOrMasked<T>(list: T[], redactor: Redactor, said?: (text: string) => string): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = redactor.redactValue(list[i], said);
    if (item !== list[i]) out ??= list.slice(0, i);
    out?.push(item);
  }
  return out ?? list;
}
