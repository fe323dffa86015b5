/**
 * The load stage of a flow set: every regular flow file is loaded through
 * one `FlowFiles` (so a file several flows include is read and checked
 * once), or read back from the flow cache (`--cache-dir`) when it holds the
 * same file loaded with the same options.
 *
 * @module
 */
import { FlowFiles } from "./expand_includes.ts";
import { withEngines } from "./engines.ts";
import { cachedLoad, cacheEntry, cacheInput, cacheKey, type FlowCache } from "./flow_cache.ts";
import type { LoadOptions, LoadResult } from "./load_flow.ts";
import type { LoadFlowsOptions } from "./set_types.ts";

/**
 * Loads the regular flow files of a set. `outputs` are the names the setup
 * flows hand out: with `setupFiles` given (the CLI always gives them, maybe
 * none), `${setup.NAME}` is checked against them.
 *
 * @example
 * ```ts
 * import { SetLoader } from "./set_loader.ts";
 * const loader = new SetLoader({ setupFiles: [] }, new Set(["token"]));
 * const ok = await loader.load("a.yaml", "name: a\nsteps:\n  - name: s\n    request: {url: 'http://x.test/${setup.token}'}\n");
 * const bad = await loader.load("b.yaml", "name: b\nsteps:\n  - name: s\n    request: {url: 'http://x.test/${setup.other}'}\n");
 * if (!ok.flow || bad.problems.length !== 1 || !loader.files.result("a.yaml")) throw new Error();
 * ```
 */
export class SetLoader {
  /** Every file loaded so far, and the files they include. */
  readonly files: FlowFiles;
  /** The options each flow is loaded with (again, when a held flow is loaded before it runs). */
  readonly options: LoadOptions;
  readonly #cache: FlowCache | undefined;
  readonly #readEnv: (name: string) => string | undefined;
  /** With a cache, each load's questions to the environment, recorded for its entry. */
  readonly #asked = new Map<string, boolean>();

  /** `outputs` is undefined when a setup flow did not load: `${setup.NAME}` is then unchecked. */
  constructor(options: LoadFlowsOptions, outputs: ReadonlySet<string> | undefined) {
    this.options = options.setupFiles !== undefined && outputs
      ? { ...options, setup: outputs }
      : options;
    this.#cache = options.cache;
    const readEnv = this.#readEnv = this.options.env ?? (() => undefined);
    const asked = this.#asked;
    this.files = new FlowFiles(
      this.#cache
        ? {
          ...this.options,
          env: (name) => {
            const value = readEnv(name);
            asked.set(name, value !== undefined);
            return value;
          },
        }
        : this.options,
    );
  }

  /** Loads one flow file from its text, or reads it back from the cache. */
  async load(file: string, text: string): Promise<LoadResult> {
    const cache = this.#cache;
    const files = this.files;
    // A file already loaded (included by an earlier one) is not loaded again, so not cached.
    if (!cache || files.result(file)) return await withEngines(() => files.load(file, text));
    const input = cacheInput(file, text, this.options);
    const key = cacheKey(input);
    const allowCommands = this.options.allowCommands === true;
    const hit = cachedLoad(cache.read(key), input, this.#readEnv, allowCommands);
    if (hit) {
      files.adopt(file, hit);
      return hit;
    }
    this.#asked.clear();
    const loaded = await withEngines(() => files.load(file, text));
    if (files.standalone(file)) {
      const entry = cacheEntry(loaded, input, this.#asked);
      if (entry !== undefined) cache.write(key, entry);
    }
    return loaded;
  }
}
