/**
 * An assert's `status`: one code (`status: 200`), a list of them
 * (`status: {anyOf: [200, 201]}`, or `in`), each from 100 to 599 or an
 * expression (`${vars.expected}`) whose value is one when the check runs, or
 * bounds (`status: {lt: 400}`, `status_bounds.ts`).
 *
 * @module
 */
import type { Node, Scalar, YAMLMap } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import type { StatusBound, StatusCheck } from "../model/flow.ts";
import { STATUS_BOUND_KEYS } from "../model/status_bounds.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import type { ValueTemplate } from "../expr/template.ts";
import type { StatusRange } from "../kinds/mod.ts";
import { HTTP_STATUSES, isCode, isExpression } from "./status_code.ts";
import { statusBounds } from "./status_bounds.ts";

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

/** Bounds (`{lt: 400}`), refused beside a list of codes: which one would be meant is unclear. */
function boundsAlone(
  ctx: Loading,
  node: YAMLMap,
  map: Map<string, Entry>,
  bounds: [string, Entry][],
  at: ReturnType<Loading["at"]>,
  owner: TemplateUse["owner"],
  range: StatusRange,
): StatusCheck | undefined {
  const listed = map.has("anyOf") ? "anyOf" : map.has("in") ? "in" : undefined;
  if (!listed) {
    return statusBounds(ctx, node, bounds as [StatusBound["op"], Entry][], at, owner, range);
  }
  const first = bounds[0][0];
  ctx.problem(
    "wrong-type",
    `Use either a list of codes ("${listed}") or bounds ("${first}") for "status", not both.`,
    node,
    "For example: status: {anyOf: [200, 201]}, or status: {gte: 200, lt: 300}.",
  );
  return undefined;
}

/** `{anyOf: [...]}`, `{in: [...]}` or bounds: the check, or undefined with the problem reported (or none, for `{}`). */
function statusList(
  ctx: Loading,
  node: YAMLMap,
  what: string,
  at: ReturnType<Loading["at"]>,
  owner: TemplateUse["owner"],
  range: StatusRange,
): StatusCheck | undefined {
  const map = ctx.map(node, `"status" in ${what}`, "check", ["anyOf", "in", ...STATUS_BOUND_KEYS]);
  const bounds = [...map?.entries() ?? []].filter(([k]) => k !== "anyOf" && k !== "in");
  if (bounds.length > 0) return boundsAlone(ctx, node, map!, bounds, at, owner, range);
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

/** For a class written as text (`2xx`), the bounds that say it. */
function classHint(node: Node | null): string | undefined {
  const text = isScalar(node) && typeof node.value === "string" ? node.value.trim() : "";
  const digit = /^([1-5])xx$/i.exec(text)?.[1];
  return digit
    ? `Any ${digit}xx is written with bounds: status: {gte: ${digit}00, lt: ${
      Number(digit) + 1
    }00}.`
    : undefined;
}

/**
 * `status: 200`, `status: {anyOf: [...]}`, `status: {in: [...]}` or bounds (`{lt: 400}`).
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
  const got = isMap(node) ? "an empty map" : describe(node);
  ctx.problem(
    "wrong-type",
    `Expected "status" to be ${range.what} or {anyOf: [...]}, got ${got}.`,
    node ?? entry.keyNode,
    classHint(node) ??
      'For example: status: 200, status: {anyOf: [200, 201]}, status: {in: [200, 201]}, status: {lt: 400} or status: "${vars.expected}".',
  );
  return undefined;
}
