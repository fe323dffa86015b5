/**
 * One path check of a `json` or `jsonpath` list: `{path, <operator>:
 * expected, …}` with an optional `name` and `each`, giving a check per
 * operator it names.
 *
 * @module
 */
import type { Node } from "yaml";
import { isMap, isScalar } from "./nodes.ts";
import { type Operator, OPERATORS, type PathCheck } from "../model/flow.ts";
import type { CompiledPath, PathRoot } from "../expr/path.ts";
import { expectedValue } from "./expected.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";

/** `each`: true or false, and true only for a path that can select several values. Whether it is true. */
function eachFlag(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
  path: CompiledPath | undefined,
): boolean {
  const each = entry && isScalar(entry.value) ? entry.value.value : undefined;
  if (entry && typeof each !== "boolean") {
    ctx.problem(
      "wrong-type",
      `Expected "each" in a check in ${what} to be true or false, got ${describe(entry.value)}.`,
      entry.value ?? entry.keyNode,
      "Write each: true to apply the operators to every value the path selects.",
    );
  } else if (each === true && path?.singular) {
    ctx.problem(
      "wrong-type",
      `"each" applies the operators to every value of a path that selects several, but "${path.source}" selects one.`,
      entry!.keyNode,
      `Select every value with a wildcard or a filter, e.g. "${
        path.source.replace(/\[\d+\]/, "[*]")
      }".`,
    );
  }
  return each === true;
}

/** The operators a check names; none is a problem unless an unknown key (eq, regex, …) was the mistake. */
function operatorsNamed(
  ctx: Loading,
  node: Node | null,
  map: Map<string, Entry>,
  pathEntry: Entry | undefined,
): Operator[] {
  const operators = [...map.keys()].filter((k) =>
    k !== "path" && k !== "name" && k !== "each"
  ) as Operator[];
  // An unknown key is the mistake, already reported with its fix.
  const unknownKeys = isMap(node) && node.items.length > map.size;
  if (operators.length === 0 && map.size > 0 && !unknownKeys) {
    ctx.problem(
      "missing-key",
      `The check of "${pathEntry?.value}" has no operator.`,
      node,
      `Add one of: ${OPERATORS.join(", ")}; e.g. "exists: true".`,
    );
  }
  return operators;
}

/**
 * One `{path, <operator>: expected, …}` item, with an optional `name` and
 * `each` (the operators apply to every value a wildcard or filter selects):
 * a check per operator it names.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    assert: {json: [{path: $.json.id, name: id, type: integer, gt: 0}]}\n",
 *   "f.yaml",
 * );
 * const checks = flow?.steps[0].assert?.paths ?? [];
 * if (checks.map((c) => `${c.name} ${c.operator}`).join() !== "id type,id gt") throw new Error();
 * ```
 */
export function pathChecks(
  ctx: Loading,
  node: Node | null,
  root: PathRoot,
  what: string,
  owner: TemplateUse["owner"],
): PathCheck[] {
  const map = ctx.map(node, `a check in ${what}`, "check", ["path", "name", "each", ...OPERATORS], {
    required: ["path"],
  });
  if (!map) return [];
  const pathEntry = map.get("path");
  const path = pathEntry && ctx.path(pathEntry.value, root, `a check in ${what}`, owner);
  const nameEntry = map.get("name");
  const name = nameEntry && ctx.string(nameEntry, `the name of a check in ${what}`);
  const each = eachFlag(ctx, map.get("each"), what, path);
  const out: PathCheck[] = [];
  for (const operator of operatorsNamed(ctx, node, map, pathEntry)) {
    const entry = map.get(operator)!;
    const expected = expectedValue(ctx, operator, entry, owner);
    if (!path || !expected) continue;
    out.push({
      path,
      operator,
      expected,
      ...(name ? { name } : {}),
      ...(each ? { each: true } : {}),
      ...ctx.at(entry.keyNode),
    });
  }
  return out;
}
