/**
 * The body of a write the document gives none, when its summary names it:
 * a verb that hands something over followed by the name of one of the
 * document's schemas, and nothing else. WireMock 3.13.2's admin document
 * says "Import stub mappings" for `POST /__admin/mappings/import` and gives
 * it no `requestBody`, while its `stub-mappings` schema is exactly what the
 * server takes (`{"mappings": […]}`); the step sent nothing and the server
 * answered 422 "No content to map". The summary is the document's own word
 * for what is sent, and the schema its own description of it, so the step
 * sends a body made from that schema as JSON.
 *
 * Only the whole summary counts ("Import stub mappings", not "Import stub
 * mappings now"), only verbs that hand over what they name (an import, a
 * create, an upload, an update: "Reset stub mappings" and "Persist stub
 * mappings" name the same schema and take nothing), only a write that
 * declares no body, no query and no form of its own (where the document
 * says what is sent, that stands), and only one that answers no JSON: Jupyter
 * Server's "Create a new terminal" answers its `Terminal`, which the server
 * makes, and a terminal created with a name of the client's was then not
 * found (404).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { nameWords } from "./named_thing.ts";
import type { OpenApiOperation } from "./operations.ts";
import { jsonSchema, successes } from "./responses.ts";

/** Verbs whose object is what the request carries. */
const HANDS_OVER = new Set([
  "import",
  "create",
  "add",
  "upload",
  "update",
  "replace",
  "set",
  "put",
  "post",
  "submit",
  "send",
  "insert",
  "append",
  "register",
  "restore",
  "edit",
  "modify",
  "patch",
]);

/** Words between the verb and the thing that name no part of it. */
const DETERMINERS = new Set(["a", "an", "the", "new", "given", "one", "some"]);

const WRITES = new Set(["POST", "PUT", "PATCH"]);

/**
 * The name of the schema under `components.schemas` that `op`'s summary
 * says it hands over, when `op` is a write that declares nothing to send.
 *
 * @example
 * ```ts
 * import { summaryBodySchema } from "./summary_body.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const doc = { components: { schemas: { "stub-mappings": { type: "object" } } } };
 * const op = (summary: string) =>
 *   ({ method: "POST", template: "/import", node: { summary }, params: [] }) as unknown as OpenApiOperation;
 * if (summaryBodySchema(doc, op("Import stub mappings")) !== "stub-mappings") throw new Error();
 * if (summaryBodySchema(doc, op("Reset stub mappings")) !== undefined) throw new Error();
 * ```
 */
export function summaryBodySchema(doc: unknown, op: OpenApiOperation): string | undefined {
  if (!takesNothingSaid(doc, op)) return undefined;
  const summary = typeof op.node.summary === "string" ? op.node.summary : "";
  const [verb, ...rest] = summary.trim().replace(/[.!]$/, "").split(/\s+/);
  if (verb === undefined || !HANDS_OVER.has(verb.toLowerCase())) return undefined;
  // Only words: a summary holding anything else ("(bulk)", "#1") says more than a name.
  if (rest.some((w) => !/^[A-Za-z][A-Za-z0-9_-]*$/.test(w))) return undefined;
  const lead = rest.findIndex((w) => !DETERMINERS.has(w.toLowerCase()));
  const words = (lead < 0 ? [] : rest.slice(lead)).flatMap(nameWords).join(" ");
  if (words === "") return undefined;
  const schemas = isNode(doc) && isNode(doc.components) && isNode(doc.components.schemas)
    ? doc.components.schemas
    : {};
  const named = Object.keys(schemas).filter((name) => nameWords(name).join(" ") === words);
  if (named.length !== 1 || !carriesMembers(doc, schemas[named[0]])) return undefined;
  return named[0];
}

/** A write that declares no body, query or form, and answers no JSON. */
function takesNothingSaid(doc: unknown, op: OpenApiOperation): boolean {
  if (!WRITES.has(op.method) || op.node.requestBody !== undefined) return false;
  if (op.params.some((p) => p.in !== "path" && p.in !== "header" && p.in !== "cookie")) {
    return false;
  }
  // A write that answers JSON may answer what it names, made by the server (Jupyter's "Create a
  // new terminal" answers its `Terminal`, and a terminal sent its own name was not found after).
  return !successes(doc, op.node).responses.some((r) => jsonSchema(doc, r) !== undefined);
}

/** An object or a list: something a body is made of, not a bare word or number. */
function carriesMembers(doc: unknown, node: unknown): boolean {
  const schema = deref(doc, node);
  if (!isNode(schema)) return false;
  if (schema.type === "object" || schema.type === "array") return true;
  return schema.type === undefined &&
    (isNode(schema.properties) ||
      ["allOf", "oneOf", "anyOf"].some((k) => Array.isArray(schema[k])));
}

/**
 * `node` with a JSON request body of the schema its summary names
 * ({@linkcode summaryBodySchema}), else `node` as it is.
 *
 * @example
 * ```ts
 * import { withSummaryBody } from "./summary_body.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const doc = { components: { schemas: { Batch: { type: "object" } } } };
 * const node = { summary: "Import batch" };
 * const op = { method: "POST", template: "/import", node, params: [] } as unknown as OpenApiOperation;
 * const out = withSummaryBody(doc, op, node);
 * if (!JSON.stringify(out.requestBody).includes("#/components/schemas/Batch")) throw new Error();
 * ```
 */
export function withSummaryBody(doc: unknown, op: OpenApiOperation, node: Node): Node {
  const name = summaryBodySchema(doc, op);
  if (name === undefined) return node;
  const pointer = encodeURIComponent(name.replace(/~/g, "~0").replace(/\//g, "~1"));
  const schema = { $ref: `#/components/schemas/${pointer}` };
  return { ...node, requestBody: { required: true, content: { "application/json": { schema } } } };
}
