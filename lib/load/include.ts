/**
 * A step that includes another flow file: `include:` (the path, relative to
 * the including file) and `with:` (values for the included flow's vars,
 * evaluated where the step runs). The included file is loaded through
 * {@linkcode LoadOptions.include}, so its problems keep their own positions.
 *
 * @module
 */
import { isMap } from "./nodes.ts";
import type { Include, VarDef } from "../model/flow.ts";
import { suggest } from "../_util/suggest.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import type { LoadOptions } from "./load_options.ts";
import { plainString } from "./not_allowed.ts";

/** The keys an include step may have. */
export const INCLUDE_KEYS = ["name", "include", "with", "depends_on", "if", "always", "tags"];

/**
 * `include:` and `with:` of a step: the included flow and the values for its vars.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   "name: f\nsteps:\n  - name: s\n    include: shared/login.yaml\n",
 *   "f.yaml",
 * );
 * if (problems[0]?.code !== "include-unavailable") throw new Error(problems[0]?.code);
 * ```
 */
export function loadInclude(
  ctx: Loading,
  map: Map<string, Entry>,
  label: string,
  owner: TemplateUse["owner"],
): Include | undefined {
  const entry = map.get("include")!;
  const path = plainString(ctx, entry, `"include" of ${label}`);
  if (path === undefined) return undefined;
  const resolve: LoadOptions["include"] = ctx.options.include;
  if (!resolve) {
    ctx.problem(
      "include-unavailable",
      `${capital(label)} includes "${path}", but this flow was loaded from its text alone.`,
      entry.value,
      "Load flows with loadFlows (or run them with the CLI), which reads included files.",
    );
    return undefined;
  }
  const got = resolve(path, ctx.file);
  if ("code" in got) {
    const before = ctx.problems.length;
    ctx.problem(got.code, got.message, entry.value, got.hint);
    if (got.followOn && ctx.problems.length > before) ctx.problems[before].followOn = true;
    return undefined;
  }
  if (got.flow.rows || got.flow.dataFile) {
    ctx.problem(
      "include-data",
      `The included flow "${got.flow.name}" (${got.file}) runs once per data row, so it cannot be included.`,
      entry.value,
      'Pass the values of one row with "with:", or include a flow without "data:".',
    );
    return undefined;
  }
  // With a bad "with" the flow is still known, so what its outputs are used for is checked.
  const values = loadWith(ctx, map.get("with"), label, owner, got.flow.vars, got.file);
  return { file: got.file, flow: got.flow, with: values ?? [] };
}

/** `with: {user: …}`: each key a var of the included flow. */
function loadWith(
  ctx: Loading,
  entry: Entry | undefined,
  label: string,
  owner: TemplateUse["owner"],
  vars: readonly VarDef[],
  file: string,
): VarDef[] | undefined {
  if (!entry) return [];
  const node = ctx.deref(entry.value);
  if (!isMap(node)) {
    ctx.problem(
      "wrong-type",
      `Expected "with" of ${label} to be a map of the included flow's vars, got ${describe(node)}.`,
      node ?? entry.keyNode,
      'For example: with: {user: "${vars.admin}"}',
    );
    return undefined;
  }
  const names = vars.map((v) => v.name);
  const values: VarDef[] = [];
  let ok = true;
  for (const e of ctx.entries(node)) {
    if (!names.includes(e.key)) {
      const close = suggest(e.key, names);
      ctx.problem(
        "unknown-input",
        `The included flow ${file} has no var "${e.key}" for "with" of ${label} to set.`,
        e.keyNode,
        close
          ? `Did you mean "${close}"?`
          : names.length > 0
          ? `Its vars: ${names.join(", ")}.`
          : `Declare it in ${file} with a default: vars: {${e.key}: …}.`,
      );
      ok = false;
      continue;
    }
    const value = ctx.value(e.value, owner);
    if (value) values.push({ name: e.key, value });
    else ok = false;
  }
  return ok ? values : undefined;
}

function capital(text: string): string {
  return text[0].toUpperCase() + text.slice(1);
}
