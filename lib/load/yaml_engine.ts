/**
 * The full YAML parser, loaded on demand (see `../on_demand.ts`). Importing
 * the `yaml` package costs about 75 ms (Deno loads its CommonJS build file
 * by file), more than a whole one-request run; the fast path reads the flow
 * files most suites are made of without it. Code that needs the parser calls
 * `yamlEngine.get()`, which throws `ModuleNeeded` until it is loaded;
 * `withEngines` (in `engines.ts`) loads it and tries again. Importing
 * `mod.ts` loads it up front.
 *
 * @module
 */
import type * as Yaml from "yaml";
import { type OnDemand, onDemand } from "../on_demand.ts";

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
export const yamlEngine: OnDemand<typeof Yaml> = onDemand("The YAML parser", () => import("yaml"));
