/**
 * Private helpers below every stage: nothing here knows a flow. Each file is
 * one small tool, imported directly by the stages that need it (not through
 * this face, so that a run loads only what it uses):
 *
 * - `bounded_cache.ts`: a size-bounded memo of compiled things;
 * - `compare.ts`: code-point string order; `suggest.ts`: "did you mean";
 * - `duration.ts`: `250ms`/`2s` parsing and formatting;
 * - `internal_error.ts`, `json_head.ts`, `own_property.ts`, `on_demand.ts`:
 *   an internal error, a bounded JSON text, own-property access, and
 *   modules loaded on demand;
 * - the time guard: `time_guard.ts` (run work under a time limit, the
 *   budget of waiting), `helper_thread.ts` (the worker it runs on),
 *   `guard_error.ts` (its one error class);
 * - `regex.ts`: regular expressions under the time guard, `regex_shape.ts`
 *   deciding which patterns may run on the calling thread, `regex_problem.ts`
 *   wording a pattern that does not compile or runs too long, `regex_escape.ts`
 *   a literal text put inside a pattern, `regex_dialect.ts` a pattern in
 *   Python's or PCRE's dialect (`\\Z`, `(?P<name>…)`) spelled as ECMA-262;
 * - `function_source.ts`: a function's text for the helper thread under the
 *   name its callers use, whatever a bundler named it;
 * - `clip.ts`: a long text kept to its beginning, `…` after the cut;
 * - `plural.ts`: "1 flow", "2 flows", and the word alone ("was"/"were");
 *   `thousands.ts`: "10,000" without the locale functions, whose first call
 *   costs a process about 16 ms;
 * - `proxy_authorization.ts`: the Basic credentials a proxy URL's userinfo
 *   asks for, for every path that speaks to a proxy itself.
 *
 * @example
 * ```ts
 * import { compilePattern, suggest } from "./mod.ts";
 * if (suggest("equal", ["equals", "exists"]) !== "equals") throw new Error();
 * if (compilePattern("^a$").source !== "^a$") throw new Error();
 * ```
 *
 * @module
 */
export * from "./bounded_cache.ts";
export * from "./compare.ts";
export * from "./duration.ts";
export * from "./guard_error.ts";
export * from "./internal_error.ts";
export * from "./json_head.ts";
export * from "./on_demand.ts";
export * from "./own_property.ts";
export * from "./plural.ts";
export * from "./regex.ts";
export * from "./regex_dialect.ts";
export * from "./regex_escape.ts";
export * from "./regex_problem.ts";
export * from "./suggest.ts";
export * from "./thousands.ts";
export * from "./time_guard.ts";
