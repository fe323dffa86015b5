/**
 * Loading stays synchronous while the two big parsers load on demand (see
 * `../_util/on_demand.ts`): the full YAML parser (`yaml_engine.ts`) and the full
 * JSONPath engine (`../expr/path_engine.ts`). Code that meets input only one of
 * them reads throws `ModuleNeeded`; {@linkcode withEngines} loads that
 * engine and runs the load again.
 *
 * @module
 */
import { ModuleNeeded } from "../_util/on_demand.ts";

/** How many modules loading may need on demand: the bound on its reruns. */
const ENGINES = 3;

/**
 * Runs `load`; each time it needed an engine that is not loaded yet, loads
 * it and runs `load` again (loading is pure, so the last run gives what the
 * first would have with every engine loaded). At most once per engine: the
 * YAML parser, the JSONPath engine and a step kind's reader (gRPC's).
 *
 * @example
 * ```ts
 * import { withEngines } from "./engines.ts";
 * import { yamlEngine } from "./yaml_engine.ts";
 * import { compilePath, select } from "../expr/path.ts";
 * const value = await withEngines(() => yamlEngine.get().parse("[1, 2]"));
 * const ids = await withEngines(() => select(compilePath("$[*]", "body"), value).value);
 * if (JSON.stringify(ids) !== "[1,2]") throw new Error();
 * ```
 */
export async function withEngines<T>(load: () => T): Promise<T> {
  for (let tries = 0;; tries++) {
    try {
      return load();
    } catch (error) {
      if (tries === ENGINES || !(error instanceof ModuleNeeded)) throw error;
      await error.load();
    }
  }
}
