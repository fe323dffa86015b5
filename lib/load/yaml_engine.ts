/**
 * The full YAML parser, loaded on demand (see `../_util/on_demand.ts`). The `yaml`
 * package's entry for Node is its CommonJS build, which Deno loads file by
 * file (73 files, about 45 ms, more than a whole one-request run); its ES
 * module build, the same code the package gives browsers, loads as one
 * code-cached module graph in about 10 ms, so that is the one imported. The
 * fast path reads the flow files most suites are made of without either.
 * Code that needs the parser calls `yamlEngine.get()`, which throws
 * `ModuleNeeded` until it is loaded; `withEngines` (in `engines.ts`) loads
 * it and tries again. Importing `mod.ts` loads it up front.
 *
 * @module
 */
import type * as Yaml from "yaml";
import { type OnDemand, onDemand } from "../_util/on_demand.ts";

/**
 * The `yaml` package, loaded on demand.
 *
 * @example
 * ```ts
 * import { yamlEngine } from "./yaml_engine.ts";
 * await yamlEngine.load();
 * if (yamlEngine.get().parse("a: 1").a !== 1) throw new Error();
 * ```
 */
export const yamlEngine: OnDemand<typeof Yaml> = onDemand("The YAML parser", importYaml);

/**
 * The ES module build beside the package's entry (`dist/index.js` →
 * `browser/index.js`), or `undefined` when the entry is laid out otherwise.
 *
 * @example
 * ```ts
 * import { esmBuildOf } from "./yaml_engine.ts";
 * const entry = "file:///cache/npm/yaml/2.9.1/dist/index.js";
 * if (esmBuildOf(entry) !== "file:///cache/npm/yaml/2.9.1/browser/index.js") throw new Error();
 * if (esmBuildOf("file:///cache/npm/yaml/3.0.0/index.mjs") !== undefined) throw new Error();
 * ```
 */
export function esmBuildOf(entry: string): string | undefined {
  return /\/dist\/index\.js$/.test(entry) ? new URL("../browser/index.js", entry).href : undefined;
}

/** The ES module build when it is there and whole, else the package's own entry. */
async function importYaml(): Promise<typeof Yaml> {
  try {
    const esm = esmBuildOf(import.meta.resolve("yaml"));
    const module: typeof Yaml | undefined = esm ? await import(esm) : undefined;
    if (typeof module?.parseDocument === "function" && typeof module.Composer === "function") {
      return module;
    }
  } catch {
    // Another layout, or a binary that left the build out: the package's entry still works.
  }
  return await import("yaml");
}
