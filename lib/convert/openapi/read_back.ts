/**
 * A write whose JSON body schema says nothing (no type, no properties: what
 * `@nestjs/swagger` writes for a body typed `any`, or a list of such items)
 * to a path whose GET reads the same resource sends back what that GET
 * answered: the document shows the resource only through its read, and a
 * value made up for "anything" is no resource. Homebridge UI's `POST
 * /api/config-editor` ("Update the Homebridge `config.json` file") was sent
 * `null`, which it took for a new file: it wrote a fresh default over the
 * config, and every later change to the UI's settings failed (500).
 *
 * Such a write runs after the read in its flow (it is no create:
 * operations.ts), and reads that step's whole answer (`$.json`).
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import type { BodyFill } from "./body_fill.ts";
import { writesReadBack } from "./writes_read.ts";

/**
 * Fills the body of a write that reads back (see the module doc) with the
 * whole answer of its path's GET, when that GET is a step of the flow.
 *
 * @example
 * ```ts
 * import { fillReadBack } from "./read_back.ts";
 * const post = { method: "POST", template: "/c", node: {
 *   requestBody: { content: { "application/json": { schema: {} } } } } };
 * const get = { method: "GET", template: "/c", node: {} };
 * const doc = { paths: { "/c": { get: get.node, post: post.node } } };
 * const fill = { op: post, body: { fields: [["body", "null"]] }, guards: [],
 *   stepOf: new Map([[get, "read_c"]]), capture: (s: string, k: string) => `\${steps.${s}.capture.${k}}` };
 * fillReadBack({ doc }, fill as never);
 * if (fill.body.fields[0][1] !== "${steps.read_c.capture.current}") throw new Error();
 * ```
 */
export function fillReadBack(shared: { doc: unknown }, fill: BodyFill): void {
  const { op, body, stepOf } = fill;
  if (!writesReadBack(op, isNode(shared.doc) ? shared.doc.paths : undefined)) return;
  const read = [...stepOf].find(([o]) => o.method === "GET" && o.template === op.template);
  const at = body.fields.findIndex(([key]) => key === "body");
  if (!read || at < 0) return;
  const value = fill.capture(read[1], "current", "$.json");
  fill.guards.push(value);
  body.fields[at] = ["body", value];
}
