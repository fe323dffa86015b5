/**
 * A step that includes another flow file: `include:` (the path, relative to
 * the including file), `with:` (values for the included flow's vars,
 * evaluated where the step runs; single or structured) and `response:` (the
 * included step whose response the step's own `assert`/`capture` read,
 * by default its last that sent a request). The included file is loaded
 * through {@linkcode LoadOptions.include}, so its problems keep their own positions.
 *
 * @module
 */
import { isMap } from "./nodes.ts";
import type { Flow, Include, VarDef } from "../model/flow.ts";
import { suggest } from "../_util/suggest.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import type { LoadOptions } from "./load_options.ts";
import { plainString } from "./not_allowed.ts";
import { fits, shapeName, shapeOf, withinBounds } from "./structured.ts";

/** The keys an include step may have. */
export const INCLUDE_KEYS = [
  "name",
  "include",
  "with",
  "response",
  "assert",
  "capture",
  "extract",
  "depends_on",
  "if",
  "always",
  "tags",
  "auth",
];

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
  const response = loadResponse(ctx, map, label, got.flow, got.file);
  clashes(ctx, map, got.flow, got.file, label);
  return {
    file: got.file,
    flow: got.flow,
    with: values ?? [],
    ...(response === undefined ? {} : { response }),
  };
}

/** `response: <step>`: a step of the included flow whose response the checks read. */
function loadResponse(
  ctx: Loading,
  map: Map<string, Entry>,
  label: string,
  flow: Flow,
  file: string,
): string | undefined {
  const entry = map.get("response");
  if (!entry) return undefined;
  if (!["assert", "capture", "extract"].some((k) => map.has(k))) {
    // Without checks or captures, "response" reads nothing: most likely they are mis-indented.
    ctx.problem(
      "missing-key",
      `"response" of ${label} names the step whose response its "assert" and "capture" read, but the step has neither.`,
      entry.keyNode,
      'Add assert: or capture: to the include step (indented like "response:"), or remove "response".',
    );
    return undefined;
  }
  const name = plainString(ctx, entry, `"response" of ${label}`);
  if (name === undefined) return undefined;
  const names = flow.steps.map((s) => s.name);
  if (names.includes(name)) return name;
  const close = suggest(name, names);
  ctx.problem(
    "unknown-step",
    `"response" of ${label} names step "${name}", but the included flow ${file} has no step of that name.`,
    entry.value,
    close ? `Did you mean "${close}"?` : `Its steps: ${names.join(", ")}.`,
  );
  return undefined;
}

/** A capture of the include step named like an output of the included flow: one problem, at the capture. */
function clashes(
  ctx: Loading,
  map: Map<string, Entry>,
  flow: Flow,
  file: string,
  label: string,
): void {
  const outputs = new Set((flow.outputs ?? []).map((o) => o.name));
  for (const key of ["capture", "extract"]) {
    const node = ctx.deref(map.get(key)?.value ?? null);
    if (!isMap(node)) continue;
    for (const e of ctx.entries(node)) {
      if (!outputs.has(e.key)) continue;
      ctx.problem(
        "duplicate-capture",
        `${
          capital(label)
        } captures "${e.key}", which is also an output of the included flow ${file}.`,
        e.keyNode,
        `Both would be read by that name: give the capture another name, or drop it and read the output "${e.key}".`,
      );
    }
  }
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
    const what = `var "${e.key}" in "with" of ${label}`;
    const hint = "Pass only the part the included flow needs: with: {article: {title: …}}.";
    const value = withinBounds(ctx, ctx.deref(e.value), what, hint)
      ? ctx.value(e.value, owner)
      : undefined;
    if (value && fitsDefault(ctx, e, value, vars, file, label)) values.push({ name: e.key, value });
    else ok = false;
  }
  return ok ? values : undefined;
}

/**
 * Whether a `with` value has the shape of the var's default in the included
 * flow (a map for a map, a list for a list, a single value for a single
 * value); when it does not, one problem at the value.
 */
function fitsDefault(
  ctx: Loading,
  e: Entry,
  value: VarDef["value"],
  vars: readonly VarDef[],
  file: string,
  label: string,
): boolean {
  const declared = shapeOf(vars.find((v) => v.name === e.key)!.value);
  const given = shapeOf(value);
  if (fits(declared, given)) return true;
  ctx.problem(
    "wrong-type",
    `"with" of ${label} gives var "${e.key}" ${shapeName(given)}, but ${file} declares it with ${
      shapeName(declared)
    } as its default.`,
    e.value ?? e.keyNode,
    declared === "scalar"
      ? `Pass a single value, e.g. ${e.key}: "\${steps.STEP.${e.key}}", or make its default in ${file} ${
        shapeName(given)
      }.`
      : `Pass ${shapeName(declared)}, e.g. ${e.key}: ${
        declared === "map" ? "{key: value}" : "[a, b]"
      }, or make its default in ${file} null to take any value.`,
  );
  return false;
}

function capital(text: string): string {
  return text[0].toUpperCase() + text.slice(1);
}
