/**
 * The full JSONPath engine (json-p3), loaded on demand. Importing it costs
 * about 10 ms of start-up (a 1 MiB module), a tenth of a one-request run,
 * while most paths in real suites are plain member chains
 * (`$.json.token`, `$.items[0].id`) that `path.ts` compiles and evaluates
 * itself. Loading stays synchronous, as with the YAML parser: code that needs
 * the engine calls {@linkcode pathEngine}, which throws
 * {@linkcode PathEngineNeeded} until {@linkcode loadPathEngine} has run, and
 * the async caller (`withEngines`) loads it and tries again. Importing
 * `mod.ts` loads it up front.
 *
 * @module
 */
// @ts-types="npm:json-p3@2.3.1"
import type * as JsonP3 from "json-p3";

let engine: typeof JsonP3 | undefined;

/**
 * Thrown by {@linkcode pathEngine} before the engine is loaded; never a user
 * error, always caught by `withEngines`.
 *
 * @example
 * ```ts
 * import { PathEngineNeeded } from "./path_engine.ts";
 * if (new PathEngineNeeded().name !== "PathEngineNeeded") throw new Error();
 * ```
 */
export class PathEngineNeeded extends Error {
  constructor() {
    super("The JSONPath engine is not loaded: call loadPathEngine() first (mod.ts does).");
    this.name = "PathEngineNeeded";
  }
}

/**
 * The json-p3 package, when loaded.
 *
 * @example
 * ```ts
 * import { loadPathEngine, pathEngine } from "./path_engine.ts";
 * await loadPathEngine();
 * if (typeof pathEngine().JSONPathEnvironment !== "function") throw new Error();
 * ```
 */
export function pathEngine(): typeof JsonP3 {
  if (!engine) throw new PathEngineNeeded();
  return engine;
}

/**
 * Loads json-p3 (once).
 *
 * @example
 * ```ts
 * import { loadPathEngine } from "./path_engine.ts";
 * const p3 = await loadPathEngine();
 * if (typeof p3.JSONPathNode !== "function") throw new Error();
 * ```
 */
export async function loadPathEngine(): Promise<typeof JsonP3> {
  // The ES module build: the package's main entry is CommonJS, which Deno loads through its Node
  // `require` emulation at about 35 ms; this one loads in about 10 ms. Types are the same.
  engine ??= await import("json-p3");
  return engine;
}

/**
 * Uses an already imported json-p3 (for entry points that import it
 * statically anyway).
 *
 * @example
 * ```ts
 * import * as p3 from "json-p3";
 * import { pathEngine, usePathEngine } from "./path_engine.ts";
 * usePathEngine(p3);
 * if (pathEngine() !== p3) throw new Error();
 * ```
 */
export function usePathEngine(p3: typeof JsonP3): void {
  engine ??= p3;
}
