/**
 * The expression language and JSONPath: what a flow's strings and paths
 * become when it is loaded, and their values when a step runs. It takes the
 * model's types (`model/template.ts`, `model/path.ts`) and gives parsing
 * (`parse.ts`, one reader per reference head in `ref.ts`, errors in
 * `errors.ts`), evaluation against a {@linkcode Scope} (`template.ts`), and
 * JSONPath compiling (`path_compile.ts`) and selection (`path.ts`, filters
 * under the time guard in `path_filter.ts`). json-p3 is loaded on demand
 * (`path_engine.ts`): import this face only where that laziness does not
 * matter; the run imports the files it needs.
 *
 * @example
 * ```ts
 * import { compilePath, evaluate, parseTemplate, select } from "./mod.ts";
 * const scope = { env: () => undefined, vars: new Map([["id", 7]]), steps: new Map(), runId: "r" };
 * if (evaluate(parseTemplate("item-${vars.id}"), scope) !== "item-7") throw new Error();
 * if (select(compilePath("$.a[0]", "body"), { a: [5] }).value !== 5) throw new Error();
 * ```
 *
 * @module
 */
export * from "./template.ts";
export * from "./path.ts";
export { pathEngine } from "./path_engine.ts";
export { parseRef } from "./ref.ts";
