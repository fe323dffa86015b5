/**
 * The full JSONPath engine (json-p3), loaded on demand (see
 * `on_demand.ts`). Importing it costs about 10 ms of start-up (a 1 MiB
 * module), a tenth of a one-request run, while most paths in real suites are
 * plain member chains (`$.json.token`, `$.items[0].id`) that `path.ts`
 * compiles and evaluates itself. Code that needs the engine calls
 * `pathEngine.get()`, which throws `ModuleNeeded` until it is loaded;
 * `withEngines` (in `load/engines.ts`) loads it and tries again. Importing
 * `mod.ts` loads it up front.
 *
 * @module
 */
// @ts-types="npm:json-p3@2.3.1"
import type * as JsonP3 from "json-p3";
import { type OnDemand, onDemand } from "../_util/on_demand.ts";

/**
 * The json-p3 package, loaded on demand. Its ES module build: the package's
 * main entry is CommonJS, which Deno loads through its Node `require`
 * emulation at about 35 ms; this one loads in about 10 ms. Types are the same.
 *
 * @example
 * ```ts
 * import { pathEngine } from "./path_engine.ts";
 * await pathEngine.load();
 * if (typeof pathEngine.get().JSONPathEnvironment !== "function") throw new Error();
 * ```
 */
export const pathEngine: OnDemand<typeof JsonP3> = onDemand(
  "The JSONPath engine",
  () => import("json-p3"),
);
