/**
 * The load stage: takes flow files (paths to files or folders, or one
 * flow's text), gives checked flows ready to run, or every problem that
 * keeps them from running, each with its file, line, column and a hint.
 * Nothing is sent before loading succeeds.
 *
 * - A set of flows (`suite.ts`) is a pipeline of stages in `set_*.ts`:
 *   discover and shard → setup/teardown → read → load (or read back from
 *   the cache, `flow_cache.ts`) → filter by name and tags → data rows →
 *   keep, or hold as bytes until the flow runs → includes → compile schemas
 *   (`schema_compile.ts`, `schema_problem.ts`), cap problems, warn.
 * - One flow file (`load_flow.ts`): YAML read within limits (`yaml.ts`,
 *   `fast_yaml.ts` for the common case, `yaml_limits.ts`, the full parser
 *   on demand through `engines.ts`), then each section of the flow format
 *   read by its own reader (vars, steps, request, checks, captures,
 *   options, …) against what the flow declares (`context.ts`).
 * - The sections of a step, one reader each: `steps.ts` (which keys a step
 *   has) → `request.ts` (method, url, query; `headers.ts` for headers and
 *   cookies, `map_expression.ts` for either written as one expression,
 *   `body.ts` for the body), `captures.ts` (`capture_source.ts` for
 *   one source, `capture_header.ts` for a header's part), `checks.ts` for `assert` and `loop.until` (`status_check.ts`,
 *   `named_checks.ts`, `schema_document.ts`, `check_list.ts` →
 *   `path_check.ts`; every operator's expected value through `expected.ts`),
 *   `conditions.ts` (`if`), `loop.ts`, `options.ts` (`retry.ts`,
 *   `client_options.ts`), `include.ts` (`with`, `response`), `foreach.ts`
 *   (`foreach`, `as`, `max_iterations`), `tags.ts`, `vars.ts`,
 *   `flow_retries.ts` (a flow's `retries`), `auth.ts` (`auth:` of a flow or
 *   a step, and of an `--auth-file`, read by `auth_file.ts`; `bearer` by
 *   `auth_bearer.ts`; an OAuth2 endpoint's URL by `auth_endpoint.ts`); a map or
 *   list var's bounds and shape in `structured.ts`. Then
 *   `references.ts` orders the steps and checks every `${…}`, one check per
 *   kind of reference in `ref_checks.ts`. A new flow key is one reader here.
 * - Shared by the readers: `context.ts` (the state of one file's loading;
 *   a mistake inside an anchor is one problem by `anchor_problems.ts`),
 *   `describe.ts` (how messages name values), `spelling.ts` (token rules;
 *   the name rule is `model/names.ts`), `key_hints.ts` (hints for keys
 *   from other tools, and the keys of a step an indent hint lines up with),
 *   `quote_hint.ts` (a value YAML reads as another type than the text
 *   written: "quote it"), `foreign_hints.ts` (`{{name}}` hints once the
 *   steps' captures are known), `scalars.ts` (integers, durations), `value.ts` (a
 *   YAML value as a template, map keys too), `not_allowed.ts` (a `${…}`
 *   where a value is read as the flow loads), `entry.ts`,
 *   `load_options.ts`, `nodes.ts`.
 * - Check files a group names (`checks: ../checks/article.yaml`): read and
 *   parsed once per set by `check_files.ts`, read per use by `check_file.ts`
 *   in a loading of their own, so problems keep the file's positions; a
 *   file either cannot read gets its problem from `unreadable.ts`.
 * - Includes (`expand_includes.ts`), data rows (`data.ts`,
 *   `data_file.ts`; a file's `${…}` checked by `row_refs.ts`; inline
 *   rows and the vars they may read ordered by `row_vars.ts`),
 *   `--var-file`/`--env-file` (`var_files.ts`).
 *
 * Other stages may import a file of this folder directly, so that what is
 * imported on demand stays so: this face imports every part eagerly.
 *
 * Size: no exceptions; every function here is under 60 lines and
 * cyclomatic complexity 15, every file under 400 lines
 * (`deno run -A scripts/size_report.ts lib/load/`).
 *
 * @example
 * ```ts
 * import { loadFlow } from "./mod.ts";
 * const { flow, problems } = loadFlow("name: a\nsteps:\n  - name: s\n    request: {url: http://x.test}\n", "a.yaml");
 * if (!flow || problems.length !== 0) throw new Error();
 * const bad = loadFlow("name: a\nstep: []\n", "a.yaml");
 * if (bad.problems[0].code !== "unknown-key") throw new Error();
 * ```
 *
 * @module
 */
export {
  type DeferredLoadResult,
  loadFlows,
  loadFlowsDeferred,
  type LoadFlowsOptions,
  type LoadFlowsResult,
} from "./suite.ts";
export { loadFlow, type LoadOptions, type LoadResult, MAX_PROBLEMS_PER_FILE } from "./load_flow.ts";
export { MAX_PROBLEMS_TOTAL } from "./set_finish.ts";
export { selectSteps } from "./set_steps.ts";
export type { FlowCache } from "./flow_cache.ts";
export { prepareSchemas, SCHEMA_COMPILE_LIMIT_MS } from "./schema_compile.ts";
export { MAX_SCHEMA_DEPTH } from "./schema_problem.ts";
export { parseEnvFile, parseVarsFile } from "./var_files.ts";
export { METHOD, RESERVED } from "./spelling.ts";
// The types the stage's API names, so its documentation is whole (deno doc --lint).
export type { DataRow, DeferredFlow, Flow, Step } from "../model/flow.ts";
export type { Problem } from "../model/errors.ts";
export type { ByteSpill } from "../model/spill.ts";
export type { Shard } from "../select/shard.ts";
export type { TagTest } from "../select/tags.ts";
