/**
 * The flow's `vars`: names that can be referenced, values that are templates:
 * single values, or maps and lists (bounded in depth and size).
 *
 * @module
 */
import { isMap, isScalar } from "./nodes.ts";
import { withinBounds } from "./structured.ts";
import { lossyNumber } from "./quote_hint.ts";
import type { VarDef } from "../model/flow.ts";
import type { Loading } from "./context.ts";
import { describe, isEmpty } from "./describe.ts";
import type { Entry } from "./entry.ts";
import { RESERVED } from "./spelling.ts";
import { isName, nameHint } from "../model/names.ts";

/**
 * The flow's `vars`: referenceable names whose values are templates.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   'name: f\nvars: {RUN_ID: x}\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n',
 *   "f.yaml",
 * );
 * if (problems[0]?.hint !== "Set the run id with --run-id.") throw new Error(problems[0]?.hint);
 * ```
 */
export function loadVars(
  ctx: Loading,
  entry: Entry | undefined,
  before = 0,
): VarDef[] {
  if (!entry || isEmpty(entry.value)) return [];
  if (!isMap(entry.value)) {
    ctx.problem(
      "wrong-type",
      `Expected "vars" to be a map of names to values, got ${describe(entry.value)}.`,
      entry.value,
      "For example: vars: {user: demo}",
    );
    return [];
  }
  const vars: VarDef[] = [];
  for (const e of ctx.entries(entry.value)) {
    if (!isName(e.key) || RESERVED.has(e.key)) {
      ctx.problem(
        "bad-name",
        RESERVED.has(e.key)
          ? `"${e.key}" is reserved and cannot be a var name.`
          : `Var name "${e.key}" cannot be referenced.`,
        e.keyNode,
        e.key === "RUN_ID" ? "Set the run id with --run-id." : nameHint("user_id", true),
      );
      continue;
    }
    const node = ctx.deref(e.value);
    // A map or list var (a body, a set of headers) is bounded like other structured input.
    if (!withinBounds(ctx, node, `var "${e.key}"`)) continue;
    // A lossy number is still the var: uses of it are not mistakes too.
    if (isScalar(node)) lossyNumber(ctx, e, `Var "${e.key}"`);
    // `before` vars (a data row's) come first and may be used by these.
    const value = ctx.value(e.value, { kind: "var", index: before + vars.length });
    if (value) vars.push({ name: e.key, value });
  }
  return vars;
}
