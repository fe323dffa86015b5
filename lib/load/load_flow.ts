/**
 * Loading: flow file text → checked {@linkcode Flow}. Every problem is
 * collected (never just the first) with its line, column and a hint, so a
 * whole flow set can be reported at once before any request is sent.
 *
 * Both spellings load into the same model and may be mixed: `capture` /
 * `assert.json` / `loop.until.json` use paths rooted at the response (`$.json`
 * is the body), `extract` / `assert.jsonpath` use paths rooted at the body.
 *
 * @module
 */
import type { Node } from "yaml";
import { isCheckFile } from "./check_file.ts";
import { captureForeignHints } from "./foreign_hints.ts";
import { isMap } from "./nodes.ts";
import type { Problem } from "../model/errors.ts";
import type { Flow, Step, StepOptions, VarDef } from "../model/flow.ts";
import type { Auth } from "../model/auth.ts";
import { pluralWord } from "../_util/plural.ts";
import { isName, nameHint } from "../model/names.ts";
import { describe, type Entry, Loading, type LoadOptions } from "./context.ts";
import { checkReferences, orderRaw } from "./references.ts";
import { loadSteps, type RawStep } from "./steps.ts";
import { checkForeachNames } from "./foreach.ts";
import { loadData } from "./data.ts";
import { loadFlowAuth } from "./auth.ts";
import { loadOptions } from "./options.ts";
import { loadTags } from "./tags.ts";
import { loadFlowRetries } from "./flow_retries.ts";
import { loadFlowSerial } from "./flow_serial.ts";
import { loadVars } from "./vars.ts";
import { rowVars } from "./row_vars.ts";
import { readYaml } from "./yaml.ts";

export type { LoadOptions };
export { fileTooLarge } from "./yaml.ts";

/** A loaded flow, or the problems that prevent loading it. */
export interface LoadResult {
  /** The flow, when it has no problems. */
  flow?: Flow;
  /** Every problem found, ordered by position. */
  problems: Problem[];
  /** The flow's name when it could be read, also for a file with problems (used by --filter). */
  name?: string;
  /**
   * The names a run parameter (`--var`) can set in this flow: its vars and
   * every `${NAME}` and `${vars.NAME}` it reads.
   */
  names?: string[];
}

/**
 * Problems listed per file; the rest are counted in one closing problem. A
 * mistake repeated by a generator gave tens of thousands, megabytes of output.
 *
 * @example
 * ```ts
 * import { MAX_PROBLEMS_PER_FILE } from "./load_flow.ts";
 * if (MAX_PROBLEMS_PER_FILE !== 100) throw new Error();
 * ```
 */
export const MAX_PROBLEMS_PER_FILE = 100;

/**
 * Loads and checks one flow file. Never throws for problems in the file: they
 * are returned, each with its position and a hint.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const ok = loadFlow("name: health\nsteps:\n  - name: ping\n    request: {url: https://example.test/health}\n", "health.yaml");
 * if (!ok.flow || ok.flow.steps[0].request.method !== "GET") throw new Error();
 * const bad = loadFlow("name: x\nsteps:\n  - name: a\n    request: {url: https://e.test}\n    captures: {}\n", "x.yaml");
 * if (bad.problems[0].hint !== 'Did you mean "capture"?') throw new Error(bad.problems[0].hint);
 * ```
 */
export function loadFlow(text: string, file: string, options: LoadOptions = {}): LoadResult {
  const ctx = new Loading(file, options);
  const flow = readYaml(ctx, text) ? readFlow(ctx) : undefined;
  const problems = capProblems(
    ctx.problems.sort((a, b) => a.line - b.line || a.column - b.column),
  );
  return problems.length > 0
    ? { problems, name: ctx.name }
    : { flow, problems, name: flow?.name, names: paramNames(ctx, flow) };
}

/** The names a run parameter can set: declared vars and names read by `${NAME}`/`${vars.NAME}`. */
function paramNames(ctx: Loading, flow: Flow | undefined): string[] {
  const names = new Set(flow?.vars.map((v) => v.name) ?? []);
  for (const use of ctx.uses) {
    for (const part of use.template.parts) {
      if (typeof part !== "string" && (part.ref.kind === "name" || part.ref.kind === "var")) {
        names.add(part.ref.name);
      }
    }
  }
  return [...names];
}

/** The flow's sections, in order, then the references between them. */
function readFlow(ctx: Loading): Flow | undefined {
  const root = ctx.doc.contents;
  if (!root || !isMap(root) || isCheckFile(root)) return notAFlow(ctx, root);
  const top = ctx.map(
    root,
    "the flow",
    "flow",
    ["name", "vars", "steps", "tags", "data", "outputs", "options", "auth", "retries", "serial"],
    { required: ["name", "steps"], ignore: (k) => k.startsWith("x-") },
  );
  if (!top) return undefined;
  const name = ctx.string(top.get("name"), '"name"');
  ctx.name = name;
  const tags = loadTags(ctx, top.get("tags"));
  const data = loadData(ctx, top.get("data"));
  // Row values are vars of their run, so the flow's own vars may use them; a row value wins
  // over a flow var of the same name. Checked here with the first row's values.
  const rowKeys = Object.keys(data.rows?.[0]?.values ?? {});
  const rows = rowVars(
    rowKeys.map((name) => ({
      name,
      value: { kind: "const" as const, value: data.rows![0].values[name] },
    })),
    loadVars(ctx, top.get("vars"), rowKeys.length).filter((v) => !rowKeys.includes(v.name)),
  );
  const vars = rows.checked;
  const options = loadOptions(ctx, top.get("options"), "the flow");
  const flowAuth = loadFlowAuth(ctx, top.get("auth"));
  const steps = loadSteps(ctx, top.get("steps"));
  const outputs = loadOutputs(ctx, top.get("outputs"));
  if (steps) captureForeignHints(ctx.problems, steps, vars);
  if (!steps || name === undefined) return undefined;
  const ordered = orderRaw(ctx, steps);
  if (ordered) checkReferences(ctx, vars, steps, ordered, rows);
  checkForeachNames(ctx, vars, steps);
  if (ctx.problems.length > 0 || !ordered) return undefined;
  const needs = stepNeeds(ctx, steps);
  return {
    file: ctx.file,
    name,
    ...(tags.length > 0 ? { tags } : {}),
    ...loadFlowRetries(ctx, top.get("retries")),
    ...loadFlowSerial(ctx, top.get("serial")),
    ...data,
    ...(outputs.length > 0 ? { outputs } : {}),
    ...(options ? { options } : {}),
    ...flowAuth,
    vars: rows.run,
    steps: finalSteps(ordered, needs, options, flowAuth.auth),
  };
}

/** The steps as the flow holds them: what each needs, the flow's options and auth as defaults. */
function finalSteps(
  ordered: RawStep[],
  needs: Set<string>[],
  options: StepOptions | undefined,
  auth: Auth | undefined,
): Step[] {
  return ordered.map(({ index, dependsOnNode: __, nameNode: ___, opaque: ____, ...s }) => ({
    ...s,
    ...(needs[index].size > 0 ? { needs: [...needs[index]] } : {}),
    // The flow's options are each step's defaults, overridden key by key.
    ...(options || s.options ? { options: { ...options, ...s.options } } : {}),
    // The flow's auth is each step's unless the step has its own (`auth: none` too).
    ...(s.auth ?? auth ? { auth: s.auth ?? auth } : {}),
  }));
}

/** One problem for a file that is not a flow: a check file among the flows is said to be one. */
function notAFlow(ctx: Loading, root: unknown): undefined {
  const checks = isCheckFile(root);
  // An included file that is no map may be anything: it is named, not quoted.
  if (!checks) ctx.opaque = ctx.options.foreign !== undefined;
  ctx.problem(
    "wrong-type",
    checks
      ? `This is a check file (a list of checks), not a flow: a flow file is a map with "name" and "steps".`
      : `A flow file must be a map with "name" and "steps", not ${describe(root)}.`,
    root as Node | null,
    checks
      ? "Keep check files out of the folders of flows you run (e.g. checks/ beside flows/); flows use them with checks: ../checks/FILE.yaml."
      : 'Start the file with "name: my flow" and a "steps:" list.',
  );
  return undefined;
}

/** For each listed step, the steps it reads values of (in any of its templates) or runs after. */
function stepNeeds(ctx: Loading, steps: RawStep[]): Set<string>[] {
  const needs = steps.map((s) => new Set(s.dependsOn));
  for (const use of ctx.uses) {
    if (use.owner.kind !== "step") continue;
    for (const part of use.template.parts) {
      // A capture's `when` or `otherwise` may read its own step's captures above it: no need.
      if (
        typeof part !== "string" && part.ref.kind === "step" &&
        part.ref.step !== steps[use.owner.index].name
      ) {
        needs[use.owner.index].add(part.ref.step);
      }
    }
  }
  return needs;
}

/**
 * The first {@linkcode MAX_PROBLEMS_PER_FILE} problems of a file and one
 * `too-many-problems` problem counting the rest (in its `omitted`), at the
 * first one left out.
 */
function capProblems(problems: Problem[]): Problem[] {
  if (problems.length <= MAX_PROBLEMS_PER_FILE) return problems;
  const first = problems[MAX_PROBLEMS_PER_FILE];
  const omitted = problems.length - MAX_PROBLEMS_PER_FILE;
  return [...problems.slice(0, MAX_PROBLEMS_PER_FILE), {
    code: "too-many-problems",
    message: `${omitted} more ${pluralWord(omitted, "problem")} in this file ${
      pluralWord(omitted, "is", "are")
    } not listed (the first ${MAX_PROBLEMS_PER_FILE} are).`,
    file: first.file,
    line: first.line,
    column: first.column,
    hint:
      "Fix the problems listed first: one mistake repeated, or one early mistake, often causes the rest.",
    omitted,
  }];
}

/** `outputs: {token: "${steps.login.capture.token}"}`: what a setup flow hands to the run. */
function loadOutputs(ctx: Loading, entry: Entry | undefined): VarDef[] {
  if (!entry) return [];
  const node = ctx.deref(entry.value);
  if (!isMap(node)) {
    ctx.problem(
      "wrong-type",
      `Expected "outputs" to be a map of names to values, got ${describe(node)}.`,
      node ?? entry.keyNode,
      'For example: outputs: {token: "${steps.login.capture.token}"}',
    );
    return [];
  }
  const out: VarDef[] = [];
  for (const e of ctx.entries(node)) {
    if (!isName(e.key)) {
      ctx.problem(
        "bad-name",
        `Output name "${e.key}" cannot be referenced.`,
        e.keyNode,
        nameHint("admin_token"),
      );
      continue;
    }
    const value = ctx.value(e.value, { kind: "outputs" });
    if (value) out.push({ name: e.key, value });
  }
  return out;
}
