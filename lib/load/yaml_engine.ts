/**
 * The full YAML parser, loaded on demand. Importing the `yaml` package costs
 * about 75 ms (Deno loads its CommonJS build file by file), more than a
 * whole one-request run; the fast path reads the flow files most suites are
 * made of without it. Loading stays synchronous: code that needs the parser
 * calls {@linkcode yamlEngine}, which throws {@linkcode YamlEngineNeeded}
 * until {@linkcode loadYamlEngine} has run, and the async caller
 * (`withEngines` in `engines.ts`) loads it and tries again. Importing `mod.ts`
 * loads it up front.
 *
 * @module
 */
import type * as Yaml from "yaml";

let engine: typeof Yaml | undefined;

/**
 * Thrown by {@linkcode yamlEngine} before the parser is loaded; never a user
 * error, always caught by `withEngines`.
 *
 * @example
 * ```ts
 * import { YamlEngineNeeded } from "./yaml_engine.ts";
 * if (new YamlEngineNeeded().name !== "YamlEngineNeeded") throw new Error();
 * ```
 */
export class YamlEngineNeeded extends Error {
  constructor() {
    super("The YAML parser is not loaded: call loadYamlEngine() first (mod.ts does).");
    this.name = "YamlEngineNeeded";
  }
}

/**
 * The `yaml` package, when loaded.
 *
 * @example
 * ```ts
 * import { loadYamlEngine, yamlEngine } from "./yaml_engine.ts";
 * await loadYamlEngine();
 * if (yamlEngine().parse("a: 1").a !== 1) throw new Error();
 * ```
 */
export function yamlEngine(): typeof Yaml {
  if (!engine) throw new YamlEngineNeeded();
  return engine;
}

/**
 * Loads the `yaml` package (once).
 *
 * @example
 * ```ts
 * import { loadYamlEngine } from "./yaml_engine.ts";
 * const yaml = await loadYamlEngine();
 * if (typeof yaml.parseDocument !== "function") throw new Error();
 * ```
 */
export async function loadYamlEngine(): Promise<typeof Yaml> {
  engine ??= await import("yaml");
  return engine;
}

/**
 * Uses an already imported `yaml` package (for entry points that import it
 * statically anyway).
 *
 * @example
 * ```ts
 * import * as yaml from "yaml";
 * import { useYamlEngine, yamlEngine } from "./yaml_engine.ts";
 * useYamlEngine(yaml);
 * if (yamlEngine() !== yaml) throw new Error();
 * ```
 */
export function useYamlEngine(yaml: typeof Yaml): void {
  engine ??= yaml;
}
