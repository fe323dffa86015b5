/**
 * A path parameter that chooses the answer's status: httpbin's
 * `/status/{codes}` documents answers 100, 200, 300, 400 and 500, and its
 * one path parameter has no type nor example. No server answers a final
 * 1xx of its own accord, so an operation that documents one answers the
 * status its request names; the parameter that can name it, one with no
 * type of its own, is given the documented 2xx. Its placeholder text
 * (`string`) was refused (400).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/**
 * The documented 2xx for path parameter `p` of operation `op` when `op`
 * documents a 1xx and a 2xx and `p` has no type, enum or example; else
 * undefined.
 *
 * @example
 * ```ts
 * import { requestedStatus } from "./requested_status.ts";
 * const op = { responses: { "100": {}, "200": {}, "500": {} } };
 * if (requestedStatus({ name: "codes", in: "path", schema: {} }, op) !== 200) throw new Error();
 * const typed = { name: "codes", in: "path", schema: { type: "string" } };
 * if (requestedStatus(typed, op) !== undefined) throw new Error();
 * if (requestedStatus({ name: "id", in: "path" }, { responses: { "200": {} } }) !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function requestedStatus(p: Node, op: Node | undefined): number | undefined {
  if (p.in !== "path" || !isNode(op) || !isNode(op.responses)) return undefined;
  const schema = isNode(p.schema) ? p.schema : {};
  if (["type", "enum", "const", "example", "default"].some((k) => Object.hasOwn(schema, k))) {
    return undefined;
  }
  const codes = Object.keys(op.responses);
  const success = codes.find((c) => /^2\d\d$/.test(c));
  return codes.some((c) => /^1\d\d$/.test(c)) && success ? Number(success) : undefined;
}
