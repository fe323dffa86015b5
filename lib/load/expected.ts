/**
 * An operator's expected value: compiled as a template, and when it is a
 * constant, checked against what the operator accepts (the model's operator
 * table), with a hint. Checks, check groups and conditions all read theirs
 * here.
 *
 * @module
 */
import { quoteHint } from "./quote_hint.ts";
import type { ValueTemplate } from "../expr/template.ts";
import { type Operator, TYPE_NAMES } from "../model/flow.ts";
import { OPERATOR_SPECS, type OperatorSpec } from "../model/operators.ts";
import { suggest } from "../_util/suggest.ts";
import { getOwn } from "../_util/own_property.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { loadPattern } from "./pattern.ts";

/** Type names people bring from other languages, and the JSON type they mean. */
export const TYPE_HINTS: Record<string, string> = {
  int: "integer",
  float: "number",
  double: "number",
  bool: "boolean",
  str: "string",
  list: "array",
  dict: "object",
  map: "object",
};

/** Reports a constant of the wrong kind for its operator. */
function wrongExpected(
  ctx: Loading,
  operator: Operator,
  entry: Entry,
  expected: string,
  hint?: string,
): undefined {
  ctx.problem(
    "wrong-type",
    `Expected "${operator}" to be ${expected}, got ${describe(entry.value)}.`,
    entry.value ?? entry.keyNode,
    hint ?? (expected.includes("string") ? quoteHint(ctx, entry.value, operator) : undefined) ??
      `Write ${operator}: followed by ${expected}.`,
  );
  return undefined;
}

/** Whether `type:` names a JSON type; if not, reported with the type meant. */
function typeName(ctx: Loading, entry: Entry, v: unknown): boolean {
  if (typeof v === "string" && (TYPE_NAMES as readonly string[]).includes(v)) return true;
  const close = typeof v === "string" ? getOwn(TYPE_HINTS, v) ?? suggest(v, TYPE_NAMES) : undefined;
  wrongExpected(
    ctx,
    "type",
    entry,
    `one of ${TYPE_NAMES.join(", ")}`,
    close ? `Did you mean "${close}"?` : undefined,
  );
  return false;
}

/**
 * Compiles an operator's expected value and checks its type when it is a constant.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    assert: {json: [{path: $.json.n, type: int}]}\n",
 *   "f.yaml",
 * );
 * if (problems[0]?.hint !== 'Did you mean "integer"?') throw new Error(problems[0]?.hint);
 * ```
 */
export function expectedValue(
  ctx: Loading,
  operator: Operator,
  entry: Entry,
  owner: TemplateUse["owner"],
): ValueTemplate | undefined {
  const value = ctx.value(entry.value, owner);
  if (!value || value.kind !== "const") return value;
  const v = value.value;
  if (operator === "type") return typeName(ctx, entry, v) ? value : undefined;
  const spec: OperatorSpec = OPERATOR_SPECS[operator];
  if (spec.accepts && !spec.accepts(v)) {
    return wrongExpected(ctx, operator, entry, spec.expects ?? "another value", spec.hint);
  }
  if (operator === "matches" && !loadPattern(ctx, v as string, entry.value)) return undefined;
  return value;
}
