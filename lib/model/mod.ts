/**
 * The model: the shapes every stage shares, and nothing that acts on them.
 * It takes nothing (it imports only `_util/`) and gives the types of a
 * loaded flow (`flow.ts`, with what a step checks and captures in
 * `checks.ts`, its `auth:` blocks in `auth.ts`, the parsed templates in `template.ts`, the compiled paths in
 * `path.ts`), the assertion operators as the flow format spells them
 * (`operators.ts`), a run's results (`result.ts`) and what a run keeps of them (`compact.ts`), the
 * run events reporters hear (`events.ts`), the `Masking` interface values
 * are shown through (`masking.ts`), the load and usage errors with their
 * positions (`errors.ts`), the documented input limits (`limits.ts`), the
 * byte spill interface (`spill.ts`), how status bounds read and hold
 * (`status_bounds.ts`), the version (`version.ts`) and the one
 * rule for names a `${…}` can reference (`names.ts`).
 *
 * Adding a flow key starts here (its loaded shape), then `load/`.
 *
 * @example
 * ```ts
 * import { type Flow, OPERATORS, PLAIN, VERSION } from "./mod.ts";
 * const flow: Flow = { file: "a.yaml", name: "a", vars: [], steps: [] };
 * if (flow.steps.length !== 0 || !OPERATORS.includes("equals") || !VERSION) throw new Error();
 * if (PLAIN.shorten("abcdef", 4) !== "abc…") throw new Error();
 * ```
 *
 * @module
 */
export * from "./auth.ts";
export * from "./checks.ts";
export * from "./errors.ts";
export * from "./events.ts";
export * from "./flow.ts";
export * from "./limits.ts";
export * from "./masking.ts";
export * from "./names.ts";
export * from "./operators.ts";
export * from "./path.ts";
export * from "./compact.ts";
export * from "./result.ts";
export * from "./spill.ts";
export * from "./status_bounds.ts";
export * from "./template.ts";
export * from "./version.ts";
