/**
 * An assert's `status`: one code (`status: 200`) or a list of them
 * (`status: {anyOf: [200, 201]}`, or `in`), each from 100 to 599.
 *
 * @module
 */
import type { Node, Scalar, YAMLMap } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import type { StatusCheck } from "../model/flow.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry } from "./entry.ts";

/** Whether a node is a status code. */
function isCode(n: Node | null): boolean {
  return isScalar(n) && Number.isInteger(n.value) && (n.value as number) >= 100 &&
    (n.value as number) <= 599;
}

/** `{anyOf: [...]}` or `{in: [...]}`: the check, or undefined with the problem reported (or none, for `{}`). */
function statusList(
  ctx: Loading,
  node: YAMLMap,
  what: string,
  at: ReturnType<Loading["at"]>,
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
    const bad = codes.find((c) => !isCode(c));
    if (bad === undefined) {
      return { operator: key, expected: codes.map((c) => (c as Scalar).value as number), ...at };
    }
    ctx.problem(
      "wrong-type",
      `Expected a status code from 100 to 599, got ${describe(bad)}.`,
      bad ?? list.value,
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
): StatusCheck | undefined {
  const node = entry.value;
  const at = ctx.at(entry.keyNode);
  if (isCode(node)) {
    return { operator: "equals", expected: [(node as Scalar).value as number], ...at };
  }
  if (isMap(node) && node.items.length > 0) return statusList(ctx, node, what, at);
  if (isMap(node)) statusList(ctx, node, what, at);
  ctx.problem(
    "wrong-type",
    `Expected "status" to be a status code or {anyOf: [...]}, got ${describe(node)}.`,
    node ?? entry.keyNode,
    "For example: status: 200, status: {anyOf: [200, 201]} or status: {in: [200, 201]}.",
  );
  return undefined;
}
