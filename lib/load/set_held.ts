/**
 * Flows held as their bytes until they run (`loadFlowsDeferred`): a suite
 * of thousands of flows keeps a few hundred bytes per flow instead of its
 * parsed steps, and each is read back (or parsed again) just before it runs.
 *
 * @module
 */
import { type DeferredFlow, everyStep, type Flow } from "../model/flow.ts";
import type { ByteSpill } from "../model/spill.ts";
import type { TagTest } from "../select/tags.ts";
import { withEngines } from "./engines.ts";
import { flowText } from "./flow_cache.ts";
import { loadFlow, type LoadOptions } from "./load_flow.ts";
import { selectSteps } from "./set_steps.ts";

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/** What every held flow of a load shares, to load it again. */
export interface Reload {
  /** Where a flow's bytes go back when it is loaded again (for the manifest and quoted lines). */
  readonly held: Map<string, Uint8Array>;
  readonly options: LoadOptions;
  readonly tagTest: TagTest | undefined;
}

/**
 * Whether a checked flow can be parsed again just before it runs and be the
 * same: nothing in it is compiled or read ahead of the run, and nothing in it
 * must be known before the run starts (data rows, `insecure` warnings, `serial`).
 * (A flow with an include read another file: `FlowFiles.standalone` rules
 * it out.)
 *
 * @example
 * ```ts
 * import { deferrable } from "./set_held.ts";
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow("name: a\nsteps:\n  - name: s\n    request: {url: http://x.test}\n", "a.yaml");
 * if (!deferrable(flow!) || deferrable({ ...flow!, options: { insecure: true } })) throw new Error();
 * ```
 */
export function deferrable(flow: Flow): boolean {
  // A serial flow is started after the others: the runner must see it is one without parsing it.
  if (flow.rows || flow.dataFile || flow.options?.insecure || flow.serial) return false;
  for (const { step, checks } of everyStep([flow])) {
    if (step.options?.insecure) return false;
    if (checks.some((c) => (c.schemas?.length ?? 0) > 0)) return false;
  }
  return true;
}

/** What {@linkcode holdFlow} holds: a checked flow, the bytes it was loaded from, and where. */
export interface HoldInput {
  readonly file: string;
  readonly flow: Flow;
  readonly bytes: Uint8Array;
  /** Where the bytes (and the checked JSON) wait; without one, they wait in memory. */
  readonly spill: ByteSpill | undefined;
  readonly reload: Reload;
}

/**
 * The flow held as its bytes: with a spill, the checked flow waits behind
 * the bytes in the same piece (reading it back is cheaper than a second
 * load) and the bytes leave `reload.held` until the flow is loaded again.
 *
 * @example
 * ```ts
 * import { holdFlow } from "./set_held.ts";
 * import { loadFlow } from "./load_flow.ts";
 * const text = "name: a\nsteps:\n  - name: s\n    request: {url: http://x.test}\n";
 * const bytes = new TextEncoder().encode(text);
 * const held = new Map<string, Uint8Array>();
 * const reload = { held, options: {}, tagTest: undefined };
 * const flow = loadFlow(text, "a.yaml").flow!;
 * const deferred = holdFlow({ file: "a.yaml", flow, bytes, spill: undefined, reload });
 * if (deferred.name !== "a" || (await deferred.load()).steps[0].name !== "s") throw new Error();
 * if (held.get("a.yaml") !== bytes) throw new Error();
 * ```
 */
export function holdFlow(input: HoldInput): DeferredFlow & { bytes(): Uint8Array } {
  const { file, flow, bytes, spill, reload } = input;
  if (!spill) return new HeldFlow(file, flow.name, bytes, undefined, reload);
  const text = flowText(flow);
  const piece = text === undefined ? bytes : joinText(bytes, text);
  const split = text === undefined ? undefined : bytes.length;
  // Back in `held` when the flow is parsed again (for the manifest and quoted lines).
  reload.held.delete(file);
  return new HeldFlow(file, flow.name, spill.put(piece), split, reload);
}

/**
 * Whether a flow of a set is held (and has its bytes at hand for the manifest).
 *
 * @example
 * ```ts
 * import { isHeld } from "./set_held.ts";
 * if (isHeld({ file: "a.yaml", name: "a", steps: [], vars: [] })) throw new Error();
 * ```
 */
export function isHeld(
  flow: unknown,
): flow is { file: string; bytes(): Uint8Array; handOver(): Uint8Array | undefined } {
  return flow instanceof HeldFlow;
}

/**
 * A flow held as its bytes, in memory or in a spill, with the checked flow
 * as JSON behind them when JSON holds it exactly. A class, not closures over
 * a scope: those cost about 400 bytes a flow, kept for the whole run, and the
 * scope of the loader's loop would keep the file's text.
 */
class HeldFlow implements DeferredFlow {
  readonly file: string;
  readonly name: string;
  /** The bytes, or what reads them back (with the checked JSON from `#split` on). */
  readonly #source: Uint8Array | (() => Uint8Array);
  /** Where the checked JSON starts, when it is there. */
  readonly #split: number | undefined;
  readonly #reload: Reload;

  constructor(
    file: string,
    name: string,
    source: Uint8Array | (() => Uint8Array),
    split: number | undefined,
    reload: Reload,
  ) {
    this.file = file;
    this.name = name;
    this.#source = source;
    this.#split = split;
    this.#reload = reload;
  }

  /** The file's bytes as they were checked. */
  bytes(): Uint8Array {
    return this.#fileBytes(this.#piece());
  }

  /**
   * For a worker thread that runs the flow: the bytes held again where the
   * manifest and the console read them, as {@linkcode load} does, and the
   * checked flow as JSON when it waits as JSON (else the worker loads the
   * file again), without parsing it here.
   */
  handOver(): Uint8Array | undefined {
    const piece = this.#piece();
    this.#reload.held.set(this.file, this.#fileBytes(piece));
    return this.#split === undefined ? undefined : piece.slice(this.#split);
  }

  /** The flow as checked, read back or parsed again; its bytes are held again. */
  async load(): Promise<Flow> {
    const { held, options, tagTest } = this.#reload;
    const piece = this.#piece();
    const source = this.#fileBytes(piece);
    held.set(this.file, source);
    if (this.#split !== undefined) return JSON.parse(decoder.decode(piece.subarray(this.#split)));
    const loaded = await withEngines(() => loadFlow(decoder.decode(source), this.file, options));
    const flow = loaded.flow && (tagTest ? selectSteps(loaded.flow, tagTest) : loaded.flow);
    // Cannot happen (same bytes, same options): a bug, not a user error.
    if (!flow || loaded.problems.length > 0) {
      throw new Error(`${this.file} did not load again as it loaded when checked`);
    }
    return flow;
  }

  /** The bytes, with the checked JSON behind them when it is there. */
  #piece(): Uint8Array {
    return typeof this.#source === "function" ? this.#source() : this.#source;
  }

  /** The file's part of `piece`: a copy, not a view, which would keep the JSON alive too. */
  #fileBytes(piece: Uint8Array): Uint8Array {
    return this.#split === undefined ? piece : piece.slice(0, this.#split);
  }
}

/**
 * `bytes` and then `text` as UTF-8, in one array of exactly that size: the
 * spill holds it until its batch is written (or for good, without a
 * temporary file), so a view into a larger buffer would hold that buffer.
 */
function joinText(bytes: Uint8Array, text: string): Uint8Array {
  const tail = encoder.encode(text);
  const joined = new Uint8Array(bytes.length + tail.length);
  joined.set(bytes);
  joined.set(tail, bytes.length);
  return joined;
}
