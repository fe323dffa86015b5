/**
 * A step's `foreach`: the list it runs over (one expression that gives a
 * list, or a list written out), the name each element is read by (`as`,
 * its index `<as>_index`) and the bound (`max_iterations`). The list and the
 * step's `if` are evaluated once, before any iteration, so their
 * expressions cannot read the element.
 *
 * @module
 */
import type { Node } from "yaml";
import { DEFAULT_FOREACH_MAX, MAX_FOREACH } from "../model/limits.ts";
import type { Foreach, VarDef } from "../model/flow.ts";
import { isName, nameHint } from "../model/names.ts";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import { getOwn } from "../_util/own_property.ts";
import { suggest } from "../_util/suggest.ts";
import { FOREACH_HINTS } from "./key_hints.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { plainString } from "./not_allowed.ts";
import { RESERVED } from "./spelling.ts";
import { parseTemplate } from "../expr/template.ts";

/** The keys of a step that make it a `foreach` step. */
export const FOREACH_KEYS = ["foreach", "as", "max_iterations"] as const;

/** The element's name when `as` does not give one. */
export const DEFAULT_ELEMENT = "item";

/** Where each foreach names its element (the `as` value, else the `foreach` key), for later problems. */
const written = new WeakMap<Foreach, { node: Node; named: boolean }>();

/**
 * A step's `foreach`, `as` and `max_iterations`, or undefined when it has
 * none (then `as` or `max_iterations` alone is a problem).
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    foreach: [1, 2]\n    as: id\n' +
 *     '    request: {url: "http://x.test/${vars.id}"}\n',
 *   "f.yaml",
 * );
 * const each = flow?.steps[0].foreach;
 * if (each?.as !== "id" || each.index !== "id_index" || each.max !== 1000) throw new Error();
 * ```
 */
export function loadForeach(
  ctx: Loading,
  map: Map<string, Entry>,
  label: string,
  owner: TemplateUse["owner"],
  node: Node | null,
): Foreach | undefined {
  // A misspelt "foreach" is reported as an unknown key; read as meant, its "as" and the
  // element's uses are not more problems of that one mistake.
  const entry = map.get("foreach") ?? misspelt(ctx, node, map);
  if (!entry) {
    for (const key of ["as", "max_iterations"]) {
      const stray = map.get(key);
      if (!stray) continue;
      ctx.problem(
        "missing-key",
        `"${key}" of ${label} belongs to a "foreach", but the step has none.`,
        stray.keyNode,
        'Add the list to run over, e.g. foreach: "${steps.list.capture.ids}", or remove "' + key +
          '".',
      );
    }
    return undefined;
  }
  const from = ctx.uses.length;
  const items = loadItems(ctx, entry, label, owner);
  outside(ctx, from);
  const as = loadAs(ctx, map.get("as"), label);
  const maxEntry = map.get("max_iterations");
  const max = maxEntry ? loadMax(ctx, maxEntry, label) : DEFAULT_FOREACH_MAX;
  if (!items || as === undefined || max === undefined) return undefined;
  const foreach: Foreach = { ...items, as, index: `${as}_index`, max };
  const asEntry = map.get("as");
  written.set(foreach, {
    node: asEntry?.value ?? entry.keyNode,
    named: asEntry !== undefined,
  });
  return foreach;
}

/**
 * A key of the step that was meant as "foreach" (`for_each`, `range`), as an
 * entry. Only unknown keys (not in `known`) can be: a step without one costs
 * no spelling distance (every flow file's every step comes through here).
 */
function misspelt(
  ctx: Loading,
  node: Node | null,
  known: Map<string, Entry>,
): Entry | undefined {
  if (!isMap(node)) return undefined;
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    if (typeof key !== "string" || key === "max_items" || known.has(key)) continue;
    if (getOwn(FOREACH_HINTS, key) === undefined && suggest(key, ["foreach"]) !== "foreach") {
      continue;
    }
    const value = ctx.deref(pair.value);
    // Only a list or an expression: anything else would be a second problem of the one key.
    const listLike = isSeq(value) ||
      (isScalar(value) && typeof value.value === "string" && value.value.includes("${"));
    return listLike ? { key, keyNode: pair.key as Node, value } : undefined;
  }
  return undefined;
}

/**
 * Marks the expressions read since `from` as evaluated outside the
 * iterations (a foreach's list, a step's `if`): the element is not theirs to read.
 *
 * @example
 * ```ts
 * import { outside } from "./foreach.ts";
 * import { Loading } from "./context.ts";
 * const ctx = new Loading("f.yaml", {});
 * // deno-lint-ignore no-explicit-any
 * ctx.uses.push({ template: { source: "", parts: [] }, node: null as any, owner: { kind: "outputs" } });
 * outside(ctx, 0);
 * if (ctx.uses[0].outer !== true) throw new Error();
 * ```
 */
export function outside(ctx: Loading, from: number): void {
  for (let i = from; i < ctx.uses.length; i++) ctx.uses[i].outer = true;
}

/** The list: one expression that gives it, or a YAML list (whose items may hold expressions). */
function loadItems(
  ctx: Loading,
  entry: Entry,
  label: string,
  owner: TemplateUse["owner"],
): Pick<Foreach, "items" | "source"> | undefined {
  const node = entry.value;
  if (isSeq(node)) {
    const items = ctx.value(node, owner);
    return items && { items, source: "the list" };
  }
  if (isScalar(node) && typeof node.value === "string" && node.value.includes("${")) {
    // Only the whole value as one expression is read (and its references checked): text
    // around it is the one mistake to report.
    const single = oneExpression(node.value);
    if (single !== false) {
      const items = ctx.value(node, owner);
      return items && { items, source: single ?? node.value };
    }
  }
  ctx.problem(
    "wrong-type",
    `Expected "foreach" of ${label} to be one expression that gives a list, or a list, got ${
      describe(node)
    }.`,
    node ?? entry.keyNode,
    'Write the whole value as one expression, e.g. foreach: "${steps.list.capture.ids}", ' +
      "or list the elements: foreach: [a, b].",
  );
  return undefined;
}

/**
 * Whether a text is one expression and nothing else: its text, `undefined`
 * when it does not parse (the loader reports why), `false` otherwise.
 */
function oneExpression(text: string): string | undefined | false {
  try {
    const { parts } = parseTemplate(text);
    return parts.length === 1 && typeof parts[0] !== "string" ? parts[0].text : false;
  } catch {
    return undefined;
  }
}

/** `as`: the element's name, a var name that is not reserved. */
function loadAs(ctx: Loading, entry: Entry | undefined, label: string): string | undefined {
  if (!entry) return DEFAULT_ELEMENT;
  const name = plainString(ctx, entry, `"as" of ${label}`);
  if (name === undefined) return undefined;
  if (!isName(name) || RESERVED.has(name) || name === "setup") {
    ctx.problem(
      "bad-name",
      isName(name)
        ? `"${name}" is reserved and cannot name the element of a foreach.`
        : `"${name}" cannot name the element of a foreach: expressions could not read it.`,
      entry.value,
      nameHint("id", true),
    );
    return undefined;
  }
  return name;
}

/** `max_iterations`: from 1 to {@linkcode MAX_FOREACH}. */
function loadMax(ctx: Loading, entry: Entry, label: string): number | undefined {
  const max = ctx.integer(entry, `"max_iterations" of ${label}`, 1);
  if (max === undefined || max <= MAX_FOREACH) return max;
  ctx.problem(
    "out-of-range",
    `Expected "max_iterations" of ${label} to be at most ${MAX_FOREACH}, got ${max}.`,
    entry.value,
    `Iterations are bounded so a run always ends: at most ${MAX_FOREACH}; ` +
      "run over a part of the list (a filter in the capture's path) in each step.",
  );
  return undefined;
}

/**
 * The element and index names of the flow's foreach steps that are flow vars
 * too: one problem each, where the name is written.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   'name: f\nvars: {id: 1}\nsteps:\n  - name: s\n    foreach: [1, 2]\n    as: id\n' +
 *     '    request: {url: "http://x.test/${vars.id}"}\n',
 *   "f.yaml",
 * );
 * if (problems.length !== 1 || problems[0].code !== "bad-name" || problems[0].line !== 6) {
 *   throw new Error(JSON.stringify(problems));
 * }
 * ```
 */
export function checkForeachNames(
  ctx: Loading,
  vars: readonly VarDef[],
  steps: readonly { name: string; foreach?: Foreach }[],
): void {
  const names = new Set(vars.map((v) => v.name));
  for (const step of steps) {
    const each = step.foreach;
    const at = each && written.get(each);
    if (!each || !at) continue;
    const taken = [each.as, each.index].find((n) => names.has(n));
    if (taken === undefined) continue;
    ctx.problem(
      "bad-name",
      `The foreach of step "${step.name}" names its ${
        taken === each.as ? "element" : "index"
      } "${taken}", which is a flow var too.`,
      at.node,
      at.named
        ? `Name the element otherwise (as: ${each.as}_item), or rename the var "${taken}".`
        : `Name the element with "as", e.g. as: ${each.as}_value, or rename the var "${taken}".`,
    );
  }
}
