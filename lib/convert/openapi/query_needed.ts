/**
 * Optional query parameters of a REST document that a call is pointless,
 * or refused, without: a desk study of Swagger's Petstore v3 server
 * (docs/real-servers.md), whose document marks them optional and whose
 * server answers 400 when they are missing. Three kinds, each read from
 * where the call sits, not from what the parameter is called alone:
 *
 * - the call's own path names it: its last segment, a literal, ends in a
 *   preposition and the parameter's name (`/pet/findByStatus` takes
 *   `status`, `/pet/findByTags` `tags`): a path made for the parameter is
 *   called with it. An `operationId` alone stays no evidence
 *   (`listPetsByStatus` on `/pets` is a filter of a listing);
 * - a write to an item with no body, whose query parameters the item holds
 *   (`POST /pet/{petId}?name&status`, the read of `/pet/{petId}` answering a
 *   pet with `name` and `status`): the fields in the query are the update;
 * - a sign-in by query: a call taking a password in its query takes the
 *   account's name there too (`GET /user/login?username&password`); the
 *   flow sends the run's own account (`run_values.ts`), never a literal;
 * - a call its document refuses without its query (`400: Missing query
 *   parameters`) is sent one of them (`query_refused.ts`).
 *
 * @module
 */
import { isNode, member, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { isPasswordField } from "./password_field.ts";
import { nameWords } from "./named_thing.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./producers.ts";
import { jsonSchema, successes } from "./responses.ts";
import { USER_NAMES } from "./run_values.ts";
import { refusedWithoutQuery, searchedQuery } from "./query_refused.ts";

const PREPOSITIONS = new Set(["by", "for", "with", "of"]);
const WRITES = new Set(["POST", "PUT", "PATCH"]);

/** The parameter the literal last segment of `template` names after a preposition, plainly. */
function pathNamed(template: string): string | undefined {
  const last = template.split("/").filter((s) => s !== "").at(-1) ?? "";
  if (last.includes("{")) return undefined;
  const words = nameWords(last);
  const at = words.findLastIndex((w) => PREPOSITIONS.has(w));
  return at > 0 && at < words.length - 1 ? words.slice(at + 1).join("") : undefined;
}

/**
 * The schema of the property `name` of the item a bodiless write to an
 * item path acts on (the JSON answer of the read at the same path), or
 * undefined.
 *
 * @example
 * ```ts
 * import { itemField } from "./query_needed.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const pet = { properties: { name: { type: "string", example: "Rex" } } };
 * const content = { "application/json": { schema: pet } };
 * const doc = { paths: { "/pet/{id}": { get: { responses: { 200: { content } } } } } };
 * const op = { method: "POST", template: "/pet/{id}", node: {} } as OpenApiOperation;
 * if (itemField(doc, op, "name")?.example !== "Rex") throw new Error();
 * if (itemField(doc, { ...op, method: "GET" }, "name") !== undefined) throw new Error();
 * ```
 */
export function itemField(doc: unknown, op: OpenApiOperation, name: string): Node | undefined {
  if (!WRITES.has(op.method) || op.node.requestBody !== undefined) return undefined;
  if (!/\{[^}]*\}$/.test(op.template)) return undefined;
  const paths = isNode(doc) ? doc.paths : undefined;
  const read = member(member(paths, op.template), "get");
  if (!isNode(read)) return undefined;
  for (const response of successes(doc, read).responses) {
    const schema = deref(doc, jsonSchema(doc, response));
    const field = isNode(schema) ? deref(doc, member(schema.properties, name)) : undefined;
    if (isNode(field)) return field;
  }
  return undefined;
}

/**
 * `p` with the item's own schema of its field (`itemField`) when its own
 * gives no value: `POST /pet/{petId}?status` sends a status a pet has
 * (`available`), not the text `string`.
 *
 * @example
 * ```ts
 * import { itemParam } from "./query_needed.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const pet = { properties: { status: { type: "string", enum: ["available"] } } };
 * const content = { "application/json": { schema: pet } };
 * const doc = { paths: { "/pet/{id}": { get: { responses: { 200: { content } } } } } };
 * const op = { method: "POST", template: "/pet/{id}", node: {} } as OpenApiOperation;
 * const p = { name: "status", in: "query", schema: { type: "string" } };
 * if (JSON.stringify(itemParam(doc, op, p).schema) !== '{"type":"string","enum":["available"]}') throw new Error();
 * ```
 */
export function itemParam(doc: unknown, op: OpenApiOperation, p: Node): Node {
  const own = deref(doc, p.schema);
  const gives = (s: unknown) =>
    isNode(s) &&
    ["example", "default", "const", "examples", "enum"].some((k) => Object.hasOwn(s, k));
  if (p.in !== "query" || typeof p.name !== "string" || gives(own) || p.example !== undefined) {
    return p;
  }
  const field = itemField(doc, op, p.name);
  return field && gives(field) ? { ...p, schema: field } : p;
}

/**
 * Why the optional query parameter `p` of `op` is sent (see the module), or undefined.
 *
 * @example
 * ```ts
 * import { queryNeeded } from "./query_needed.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const find = { method: "GET", template: "/pet/findByStatus", params: [], node: {} } as unknown as OpenApiOperation;
 * if (queryNeeded({}, find, { name: "status", in: "query" }) === undefined) throw new Error();
 * if (queryNeeded({}, find, { name: "limit", in: "query" }) !== undefined) throw new Error();
 * const password = { name: "password", in: "query" };
 * const login = { method: "GET", template: "/user/login", params: [password], node: {} } as unknown as OpenApiOperation;
 * if (queryNeeded({}, login, { name: "username", in: "query" }) === undefined) throw new Error();
 * ```
 */
export function queryNeeded(doc: unknown, op: OpenApiOperation, p: Node): string | undefined {
  if (p.in !== "query" || typeof p.name !== "string") return undefined;
  const plain = plainName(p.name);
  if (pathNamed(op.template) === plain) return `its path, ${op.template}, names it`;
  if (searchedQuery(doc, op)?.name === p.name) {
    return `its document refuses it without one: "${refusedWithoutQuery(doc, op)}"`;
  }
  if (itemField(doc, op, p.name)) {
    return `no body: the item's ${p.name} in the query is the update`;
  }
  const signIn = (op.params ?? []).some((q) => {
    const schema = deref(doc, q.schema);
    return q.in === "query" && typeof q.name === "string" &&
      isPasswordField(q.name, isNode(schema) ? schema : undefined);
  });
  const account = isPasswordField(p.name) || USER_NAMES.has(plain) || /e?mail$/.test(plain);
  return signIn && account ? "a sign-in by query: the run's own account" : undefined;
}
