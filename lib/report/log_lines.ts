/**
 * The state of one structured log (`log.ts`): the clock, the run id, the
 * lines of the flows running now, held until each flow ends, and the write
 * in flight. With raw events (`RunOptions.rawEvents`) it also masks: a
 * flow's step lines are made again when the flow ends from the flow's
 * masked result (the one copy every output shares, `FlowMasks`), and its
 * other lines are masked value by value, so every line stays JSON.
 *
 * @module
 */
import type { FlowResult, StepResult } from "../model/result.ts";
import type { Redactor } from "../secrets/redactor.ts";

/**
 * What the log masks with: the run's redactor (its text and value passes).
 *
 * @example
 * ```ts
 * import type { LogMasking } from "./log_lines.ts";
 * const none: LogMasking = { redact: (text) => text, redactValue: (value) => value };
 * if (none.redact("a") !== "a") throw new Error();
 * ```
 */
export type LogMasking = Pick<Redactor, "redact" | "redactValue">;

/**
 * Fields of one line, in the order they are written; `undefined` values are left out.
 *
 * @example
 * ```ts
 * import type { Fields } from "./log_lines.ts";
 * const fields: Fields = { event: "run_end", ts: "", run_id: "r" };
 * if (fields.event !== "run_end") throw new Error();
 * ```
 */
export type Fields = Record<string, unknown>;

/**
 * JSON text of one line. `JSON.stringify` already escapes `\n` and `\r`, so a
 * line never breaks inside; U+2028 and U+2029 are valid raw in JSON but some
 * line splitters (Python's `str.splitlines`, older JavaScript tooling) break
 * lines on them, so they are escaped too.
 *
 * @example
 * ```ts
 * import { lineOf } from "./log_lines.ts";
 * if (lineOf({ a: "x\u2028y" }) !== '{"a":"x\\u2028y"}\n') throw new Error();
 * ```
 */
export function lineOf(fields: Fields): string {
  return JSON.stringify(fields).replace(
    /[\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16)}`,
  ) +
    "\n";
}

/** What names a running flow: its file, and its name (a data row's includes the row's). */
type HeldFlow = { file: string; name: string };

/** The key of a running flow's held lines. */
function heldKey(flow: HeldFlow): string {
  return `${flow.file}\0${flow.name}`;
}

/** A step's lines, held: made from the step's result as the flow's masked result has it. */
class StepLines {
  constructor(readonly step: StepResult, readonly make: (step: StepResult) => Fields[]) {}
}

/**
 * The state of one log. `masked` gives an ended flow's masked result (the
 * redactor's own copy when not given).
 *
 * @example
 * ```ts
 * import { LogLines } from "./log_lines.ts";
 * const written: string[] = [];
 * const log = new LogLines((text) => void written.push(text), () => new Date(0));
 * log.hold({ file: "a.yaml", name: "a" });
 * await log.emit({ event: "flow_start", file: "a.yaml" }, { file: "a.yaml", name: "a" });
 * if (written.length !== 0) throw new Error("held until the flow ends");
 * const flow = { file: "a.yaml", name: "a", status: "passed" as const, started_at: "", duration_ms: 1, steps: [] };
 * await log.release(flow, () => ({ event: "flow_end", file: "a.yaml" }));
 * if (written.join("") !== '{"event":"flow_start","file":"a.yaml"}\n{"event":"flow_end","file":"a.yaml"}\n') throw new Error();
 * ```
 */
export class LogLines {
  /** The run id every line carries; `null` until a run is announced. */
  runId: string | null = null;
  /**
   * Lines of the flows running now, by file and name (a data file's rows run
   * side by side under one file), written (and masked) when the flow ends.
   */
  readonly #held = new Map<string, (Fields | StepLines)[]>();
  // The last write in flight. Hooks of concurrent flows are not awaited by one
  // another, so each write waits for the previous one: lines reach the sink
  // one at a time, in the order the events happened.
  #tail: Promise<void> = Promise.resolve();

  constructor(
    readonly sink: (text: string) => void | Promise<void>,
    readonly now: () => Date,
    readonly redactor?: LogMasking,
    readonly masked?: (flow: FlowResult) => FlowResult,
  ) {}

  /** Builds the common head of a line; `ts` is taken when the event happens, not when it is written. */
  head(event: string, file?: string, step?: string, ts = this.now().toISOString()): Fields {
    return { event, ts, run_id: this.runId, file, step };
  }

  /** Starts holding the lines of a flow until it ends. */
  hold(flow: HeldFlow): void {
    this.#held.set(heldKey(flow), []);
  }

  /** Writes a line, or holds it with the lines of `flow`, when that is running. */
  emit(fields: Fields, flow?: HeldFlow): Promise<void> {
    const lines = flow ? this.#held.get(heldKey(flow)) : undefined;
    if (!lines) return this.write(lineOf(this.redactor?.redactValue(fields) ?? fields));
    lines.push(fields);
    return Promise.resolve();
  }

  /** Writes a step's lines, `make` of its result, or holds them with its running flow's lines. */
  emitStep(flow: HeldFlow, step: StepResult, make: (step: StepResult) => Fields[]): Promise<void> {
    const lines = this.#held.get(heldKey(flow));
    if (!lines) {
      return this.write(make(this.redactor?.redactValue(step) ?? step).map(lineOf).join(""));
    }
    lines.push(new StepLines(step, make));
    return Promise.resolve();
  }

  /** Writes a flow's held lines and its last line (`last` of its result), in one call of the sink. */
  release(flow: FlowResult, last: (flow: FlowResult) => Fields): Promise<void> {
    const held = this.#held.get(heldKey(flow)) ?? [];
    this.#held.delete(heldKey(flow));
    const redactor = this.redactor;
    if (!redactor) {
      const lines = held.flatMap((h) => h instanceof StepLines ? h.make(h.step) : [h]);
      return this.write([...lines, last(flow)].map(lineOf).join(""));
    }
    const masked = this.masked?.(flow) ?? redactor.redactValue(flow);
    const copies = maskedSteps(held.filter((h) => h instanceof StepLines), flow, masked);
    let k = 0;
    const lines = held.map((h) =>
      h instanceof StepLines
        ? h.make(copies[k++] ?? redactor.redactValue(h.step)).map(lineOf).join("")
        : lineOf(h)
    );
    // The other lines (requests, responses) are masked together: one pass finds most clean.
    const others = held.flatMap((h, i) => h instanceof StepLines ? [] : [lines[i]]).join("");
    if (redactor.redact(others) !== others) {
      held.forEach((h, i) => {
        if (!(h instanceof StepLines)) lines[i] = lineOf(redactor.redactValue(h));
      });
    }
    return this.write(lines.join("") + lineOf(last(masked)));
  }

  /** Queues `text` for the sink. */
  write(text: string): Promise<void> {
    const written = this.#tail.then(() => this.sink(text));
    // A failed write rejects its own hook; the lines after it are still tried.
    this.#tail = written.then(() => {}, () => {});
    return written;
  }
}

/**
 * The masked copy of each held step's result, in order: the same object in
 * `flow` (a re-run's earlier runs first, as they ran), or, for results that
 * reached the log as copies of their own (events from a worker thread), the
 * one at the same place with the same name.
 */
function maskedSteps(
  held: readonly StepLines[],
  flow: FlowResult,
  masked: FlowResult,
): (StepResult | undefined)[] {
  // A masked copy keeps every list's length and order: only values change.
  const raw = [...(flow.attempts ?? []).flatMap((a) => a.steps), ...flow.steps];
  const copy = [...(masked.attempts ?? []).flatMap((a) => a.steps), ...masked.steps];
  const at = new Map(raw.map((step, i) => [step, i]));
  return held.map((h, i) => {
    const place = at.get(h.step) ??
      (raw.length === held.length && raw[i].name === h.step.name ? i : undefined);
    return place === undefined ? undefined : copy[place];
  });
}
