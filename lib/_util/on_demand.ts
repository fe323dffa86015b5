/**
 * A module imported only when something needs it, while the code that needs
 * it stays synchronous: {@linkcode OnDemand.get} throws
 * {@linkcode ModuleNeeded} until the module is loaded, and an async caller
 * (`withEngines` in `load/engines.ts`) catches it, loads the module and runs
 * again. The full YAML parser and the full JSONPath engine are loaded so:
 * most runs never import either.
 *
 * @module
 */

/**
 * Thrown by {@linkcode OnDemand.get} before its module is loaded; never a
 * user error. `load` imports the module.
 *
 * @example
 * ```ts
 * import { ModuleNeeded, onDemand } from "./on_demand.ts";
 * const later = onDemand("The answer", () => Promise.resolve(42));
 * try {
 *   later.get();
 * } catch (error) {
 *   if (!(error instanceof ModuleNeeded)) throw error;
 *   await error.load();
 * }
 * if (later.get() !== 42) throw new Error();
 * ```
 */
export class ModuleNeeded extends Error {
  constructor(what: string, readonly load: () => Promise<unknown>) {
    super(`${what} is not loaded: load it first (mod.ts does).`);
    this.name = "ModuleNeeded";
  }
}

/** A module loaded on demand. */
export interface OnDemand<T> {
  /** The module, or {@linkcode ModuleNeeded} thrown when it is not loaded yet. */
  get(): T;
  /** Imports the module (once). */
  load(): Promise<T>;
  /** Uses a module the caller already imported (an entry point that imports it anyway). */
  use(module: T): void;
}

/**
 * A module that `importer` imports when first needed.
 *
 * @example
 * ```ts
 * import { onDemand } from "./on_demand.ts";
 * const p3 = onDemand("json-p3", () => import("json-p3"));
 * const loaded = await p3.load();
 * if (p3.get() !== loaded || typeof loaded.jsonpath.query !== "function") throw new Error();
 * ```
 */
export function onDemand<T>(what: string, importer: () => Promise<T>): OnDemand<T> {
  let module: T | undefined;
  const self: OnDemand<T> = {
    get() {
      if (module === undefined) throw new ModuleNeeded(what, self.load);
      return module;
    },
    async load() {
      return module ??= await importer();
    },
    use(given) {
      module ??= given;
    },
  };
  return self;
}
