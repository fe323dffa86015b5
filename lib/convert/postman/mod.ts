/**
 * `flowrun convert postman`: a Postman collection (v2.0 or v2.1, as Postman,
 * Bruno and Newman export it), optionally an environment and globals → flow
 * files, a vars file and an env file from the environment (secrets left
 * out) and a summary. Pure: it takes text and gives the files' text;
 * `cli/convert_postman.ts` reads and writes them.
 *
 * Where things live:
 *
 * - **Read**: `input.ts` (the collection: version checks, folders walked
 *   within `limits.ts`'s bounds, inherited auth and scripts gathered per
 *   request), `fields.ts` (the fields v2.0 and v2.1 write differently),
 *   `environment.ts`, `model.ts` (the shapes), `errors.ts` (which input a
 *   problem is in; JSON errors that never quote the file).
 * - **Scripts** (`script/`): `parse.ts` (acorn, bounded), `eval.ts` (what an
 *   expression means on the response), `sym.ts` (those meanings and
 *   conditions; `flowText`, a literal as a check's operand), `pseudo.ts`
 *   (`typeof x`, `x.indexOf(v)` compared), `expect.ts` (chai chains),
 *   `response.ts` (what each `pm.response.to` word checks), `schema.ts`
 *   (JSON schemas both drafts read alike), `each.ts` (loops over a list →
 *   groups over every element), `next.ts` (`setNextRequest`),
 *   `translate.ts` (statements → checks, captures, groups, values set),
 *   `untranslated.ts` (the lines a comment shows of what was not
 *   translated, and the assertions among them).
 * - **Write**: `convert.ts` (units → flows, merging flows that share
 *   captures; the vars and env files), `flow.ts` (requests → steps; repeats
 *   as loops, skipped requests), `step_parts.ts` (headers, `assert`, what
 *   cannot be sent), `vars.ts` and `template.ts` (`{{x}}` → `${vars.x}`,
 *   `${ENV.X}` or a capture), `auth.ts` (the flow's own `auth:` blocks, or
 *   headers), `oauth2.ts` (grants that run unattended), `body.ts`,
 *   `checks_yaml.ts`, `shared_checks.ts` (a check list several steps
 *   repeat, written once as an anchor; an `auth:` all steps share, the
 *   flow's), `summary.ts`.
 *
 * @example
 * ```ts
 * import { convertPostman, formatPostmanSummary } from "./mod.ts";
 * const { files, summary } = convertPostman(JSON.stringify({
 *   info: { name: "Ping", schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json" },
 *   item: [{ name: "Ping", request: { method: "GET", url: "https://api.test/ping" } }],
 * }));
 * if (files.length !== 1 || !formatPostmanSummary(summary, "out").includes("1 request")) throw new Error();
 * ```
 *
 * @module
 */
export {
  convertPostman,
  type OutFile,
  type PostmanResult,
  type PostmanSummary,
} from "./convert.ts";
export { formatPostmanSummary } from "./summary.ts";
export { MAX_POSTMAN_BYTES } from "./limits.ts";
export { type PostmanInput, PostmanInputError } from "./errors.ts";
