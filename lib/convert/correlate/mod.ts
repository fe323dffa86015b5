/**
 * The correlating stage of `convert har`: each step's request is written as
 * a template, with the values a recording cannot replay replaced. Tokens,
 * ids and cookies a response produced become captures of that response's
 * step; secrets with no recorded source become required environment
 * variables; values the server expects fresh become generated ones. Steps are
 * built in session order, since a value's source is the first response that
 * held it.
 *
 * Takes the session's records and their groups (`polls.ts`); gives a
 * {@linkcode Correlator}: the steps, vars, environment variables, files and
 * notes that `write.ts` writes as a flow.
 *
 * The stages, each a file of functions over the one state (`state.ts`):
 * `producers` (what a response hands out) → `tokens` (produced tokens inside
 * longer text) → `logins` (records whose token a later request sends) →
 * `ids` (values the client made) → the rewrite plan of each step
 * (`rewrite_value`, `rewrite_url`, `rewrite_headers`, `credentials`,
 * `rewrite_body`, `steps`), then `notes`. `pipeline.ts` runs them.
 *
 * @example
 * ```ts
 * import { correlate } from "./mod.ts";
 * const c = correlate([], [], "a");
 * if (c.steps.length !== 0) throw new Error();
 * ```
 *
 * @module
 */
export { correlate, defaultRules, newCorrelator } from "./pipeline.ts";
export { type Correlator, NOT_A_BODY, type Rules, secretEnv, type Where } from "./state.ts";
export { producerFor, stablePath, useProducer } from "./captures.ts";
export { freshUuid } from "./ids.ts";
export { passwordFields } from "./password_fields.ts";
export { addChoiceFields } from "./choice_fields.ts";
export { textFields } from "./text_fields.ts";
export { produce } from "./producers.ts";
export { headers } from "./rewrite_headers.ts";
export { stringValue } from "./rewrite_value.ts";
export { withTokens } from "./tokens.ts";
