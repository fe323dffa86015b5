/**
 * An assert's `status`: one code (`status: 200`) or a list of them
 * (`status: {anyOf: [200, 201]}`, or `in`), each from 100 to 599 or an
 * expression (`${vars.expected}`) whose value is one when the check runs.
 *
 * @module
 */
import type { Node, Scalar, YAMLMap } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import type { StatusCheck } from "../model/flow.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import type { ValueTemplate } from "../expr/template.ts";
import type { StatusRange } from "../kinds/mod.ts";

/** HTTP's status codes: a step's, unless its kind carries others (gRPC's 0 to 16). */
const HTTP_STATUSES: StatusRange = { min: 100, max: 599, what: "a status code from 100 to 599" };

/** Whether a node is a status code of the step's kind. */
function isCode(n: Node | null, range: StatusRange): boolean {
  if (!isScalar(n) || !Number.isInteger(n.value)) return false;
  const code = n.value as number;
  return code >= range.min && code <= range.max;
}

/** Whether a node is a string with an expression: a code known when the check runs. */
function isExpression(n: Node | null): n is Scalar {
  return isScalar(n) && typeof n.value === "string" && /(^|[^$])\$\{/.test(n.value);
}

/**
 * The check of `codes` (each a code or an expression, already found to be one
 * of them): constant codes as they are; with an expression, every code's
 * value in `from` too (a stand-in 0 in `expected`), rendered when it runs.
 */
function codesCheck(
  ctx: Loading,
  operator: StatusCheck["operator"],
  codes: (Node | null)[],
  at: ReturnType<Loading["at"]>,
  owner: TemplateUse["owner"],
): StatusCheck | undefined {
  if (!codes.some(isExpression)) {
    return { operator, expected: codes.map((c) => (c as Scalar).value as number), ...at };
  }
  const from = codes.map((c) => ctx.value(c, owner));
  if (from.some((v) => v === undefined)) return undefined;
  return { operator, expected: codes.map(() => 0), from: from as ValueTemplate[], ...at };
}

/** `{anyOf: [...]}` or `{in: [...]}`: the check, or undefined with the problem reported (or none, for `{}`). */
function statusList(
  ctx: Loading,
  node: YAMLMap,
  what: string,
  at: ReturnType<Loading["at"]>,
  owner: TemplateUse["owner"],
  range: StatusRange,
): StatusCheck | undefined {
  const map = ctx.map(node, `"status" in ${what}`, "check", ["anyOf", "in"]);
  const [key, list] = map?.get("anyOf")
    ? ["anyOf", map.get("anyOf")] as const
    : ["in", map?.get("in")] as const;
  if (map && map.size > 1) {
    ctx.problem("wrong-type", `Use either "anyOf" or "in" for "status", not both.`, node);
  }
  if (list && isSeq(list.value) && list.value.items.length > 0) {
    const codes = list.value.items.map((i) => ctx.deref(i));
    const bad = codes.find((c) => !isCode(c, range) && !isExpression(c));
    if (bad === undefined) return codesCheck(ctx, key, codes, at, owner);
    ctx.problem(
      "wrong-type",
      `Expected ${range.what}, got ${describe(bad)}.`,
      bad ?? list.value,
      'Write a number (201), or an expression whose value is one: "${vars.expected}".',
    );
  } else if (map && map.size > 0) {
    ctx.problem(
      "wrong-type",
      `Expected "${key}" to be a non-empty list of status codes, got ${describe(list?.value)}.`,
      list?.value ?? node,
      `For example: status: {${key}: [200, 201]}.`,
    );
  }
  return undefined;
}

/**
 * `status: 200`, `status: {anyOf: [...]}` or `status: {in: [...]}`.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    assert: {status: {in: [200, 204]}}\n",
 *   "f.yaml",
 * );
 * if (flow?.steps[0].assert?.status?.expected.join() !== "200,204") throw new Error();
 * ```
 */
export function loadStatus(
  ctx: Loading,
  entry: Entry,
  what: string,
  owner: TemplateUse["owner"],
  range: StatusRange = HTTP_STATUSES,
): StatusCheck | undefined {
  const node = entry.value;
  const at = ctx.at(entry.keyNode);
  if (isCode(node, range) || isExpression(node)) {
    return codesCheck(ctx, "equals", [node], at, owner);
  }
  if (isMap(node) && node.items.length > 0) return statusList(ctx, node, what, at, owner, range);
  if (isMap(node)) statusList(ctx, node, what, at, owner, range);
  ctx.problem(
    "wrong-type",
    `Expected "status" to be ${range.what} or {anyOf: [...]}, got ${describe(node)}.`,
    node ?? entry.keyNode,
    'For example: status: 200, status: {anyOf: [200, 201]}, status: {in: [200, 201]} or status: "${vars.expected}".',
  );
  return undefined;
}
