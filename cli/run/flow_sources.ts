/**
 * The bytes of a run's flow files as they were loaded (never read again):
 * the console quotes a failing step's source line from them, the manifest
 * hashes them. A file's bytes are kept only until the last flow of it has
 * been reported, then only their SHA-256 when a manifest is written, so a
 * suite of ten thousand files does not hold them all to the end.
 *
 * @module
 */
import { type DeferredFlow, everyStep, type Flow, isDeferred } from "../../lib/model/flow.ts";
import type { FlowResult } from "../../lib/model/result.ts";
import type { ManifestFlow } from "../../lib/report/manifest.ts";
import type { Reporter } from "../../lib/report/reporter.ts";

/** Files whose lines are kept decoded: a failing flow's steps quote the same file again and again. */
const DECODED_FILES = 8;

/**
 * The bytes of a run's flow files, released as their flows are reported.
 *
 * @example
 * ```ts
 * import { FlowSources } from "./flow_sources.ts";
 * const bytes = new Map([["a.yaml", new TextEncoder().encode("name: a\nsteps: []\n")]]);
 * const flows = [{ file: "a.yaml", name: "a", vars: [], steps: [] }];
 * const sources = new FlowSources(bytes, flows, () => Promise.resolve("ab12"));
 * if (sources.sourceLine("a.yaml", 2) !== "steps: []") throw new Error();
 * await sources.reporter().onFlowEnd?.({ file: "a.yaml", name: "a", status: "passed", started_at: "", duration_ms: 0, steps: [] });
 * if (bytes.size !== 0 || sources.sourceLine("a.yaml", 2) !== undefined) throw new Error();
 * if (sources.manifestFlows(["a.yaml"])[0].file !== "a.yaml") throw new Error();
 * ```
 */
export class FlowSources {
  readonly #bytes: Map<string, Uint8Array>;
  /** Flow results still to be reported, by file (a data-driven flow gives one per row). */
  readonly #left = new Map<string, number>();
  readonly #sha256 = new Map<string, string>();
  readonly #hash?: (bytes: Uint8Array) => Promise<string>;
  readonly #lines = new Map<string, string[]>();
  /** Files some flow includes: quoted whenever that flow fails inside them, so never released. */
  readonly #included = new Set<string>();

  /**
   * `bytes` is the loader's map (emptied as files are released); `flows`
   * every flow that will be reported; `hash` given when a manifest is
   * written, to keep each released file's SHA-256.
   */
  constructor(
    bytes: Map<string, Uint8Array>,
    flows: readonly (Flow | DeferredFlow)[],
    hash?: (bytes: Uint8Array) => Promise<string>,
  ) {
    this.#bytes = bytes;
    this.#hash = hash;
    for (const flow of flows) {
      // (A deferred flow has no data rows and includes nothing.)
      const n = !isDeferred(flow) && flow.rows ? flow.rows.length : 1;
      this.#left.set(flow.file, (this.#left.get(flow.file) ?? 0) + n);
      if (isDeferred(flow)) continue;
      for (const { step } of everyStep([flow])) {
        if (step.include) this.#included.add(step.include.file);
      }
    }
  }

  /** Line `line` (from 1) of `file` as loaded, while its flows are being reported. */
  sourceLine = (file: string, line: number): string | undefined => {
    let lines = this.#lines.get(file);
    if (!lines) {
      const raw = this.#bytes.get(file);
      if (!raw) return undefined;
      lines = new TextDecoder().decode(raw).split(/\r?\n/);
      if (this.#lines.size >= DECODED_FILES) this.#lines.delete(this.#lines.keys().next().value!);
      this.#lines.set(file, lines);
    }
    return lines[line - 1];
  };

  /** Releases a file once its last flow is reported: put it after every reporter that quotes it. */
  reporter(): Reporter {
    return { onFlowEnd: (flow) => this.#ended(flow) };
  }

  async #ended(flow: FlowResult): Promise<void> {
    const left = (this.#left.get(flow.file) ?? 0) - 1;
    if (left > 0) {
      this.#left.set(flow.file, left);
      return;
    }
    this.#left.delete(flow.file);
    if (this.#included.has(flow.file)) return;
    const bytes = this.#bytes.get(flow.file);
    if (!bytes) return;
    if (this.#hash) this.#sha256.set(flow.file, await this.#hash(bytes));
    this.#bytes.delete(flow.file);
    this.#lines.delete(flow.file);
  }

  /** Each file with its bytes or, once released, its SHA-256: what the manifest hashes. */
  manifestFlows(files: readonly string[]): ManifestFlow[] {
    return files.map((file) => {
      const bytes = this.#bytes.get(file);
      return bytes ? { file, bytes } : { file, sha256: this.#sha256.get(file)! };
    });
  }
}
