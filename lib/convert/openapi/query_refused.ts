/**
 * A call whose query parameters are each optional but not all of them: a
 * search (`GET /api/users/search?email&name`, "Find user by email and/or
 * name") that its document says is refused without its query (`400:
 * Missing query parameters`, "At least email or name must be provided").
 * Left out, as any optional query parameter, it was refused on every run.
 * The evidence is the document's own refusal, never the path's words: a
 * 400 or 422 whose description says something is missing or required and
 * names the query (its parameters, a filter, criteria) or one of them.
 * One parameter is sent: the first the create of the collection the call
 * sits under answers (`email` of `POST /api/users`), read from that answer
 * so the search finds the item the flow made; else the first.
 *
 * @module
 */
import { isNode, member, type Node } from "../../check/openapi_operations.ts";
import type { ParamLink } from "./document_links.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { jsonSchema, successes } from "./responses.ts";
import { properties } from "./schema_properties.ts";

/** A refusal's words for something not given. */
const MISSING = /\b(missing|required|at least|must be (provided|given|specified|set|supplied))\b/i;
/** Its words for the query itself. */
const QUERY = /\b(quer(y|ies)|param(eter)?s?|filters?|criteria)\b/i;

/** The query parameters of `op`, dereferenced. */
function queryParams(doc: unknown, op: OpenApiOperation): Node[] {
  return (op.params ?? []).map((p) => deref(doc, p)).filter((p): p is Node =>
    isNode(p) && p.in === "query" && typeof p.name === "string"
  );
}

/**
 * The description of the refusal `op`'s document gives for a request
 * missing its query, when each of its query parameters is optional; else
 * undefined.
 *
 * @example
 * ```ts
 * import { refusedWithoutQuery } from "./query_refused.ts";
 * const params = [{ in: "query", name: "email" }, { in: "query", name: "name" }];
 * const op = (description: string) => ({ method: "GET", template: "/users/search", params,
 *   node: { responses: { 400: { description } } } }) as never;
 * if (refusedWithoutQuery({}, op("Missing query parameters")) === undefined) throw new Error();
 * if (refusedWithoutQuery({}, op("At least email or name must be provided")) === undefined) throw new Error();
 * if (refusedWithoutQuery({}, op("Invalid input")) !== undefined) throw new Error();
 * ```
 */
export function refusedWithoutQuery(doc: unknown, op: OpenApiOperation): string | undefined {
  const params = queryParams(doc, op);
  if (params.length === 0 || params.some((p) => p.required === true)) return undefined;
  const names = new Set(params.map((p) => plainName(String(p.name))));
  for (const status of ["400", "422"]) {
    const said = member(deref(doc, member(op.node.responses, status)), "description");
    if (typeof said !== "string" || !MISSING.test(said)) continue;
    const words = said.split(/[^A-Za-z0-9_-]+/).map(plainName);
    if (QUERY.test(said) || words.some((w) => names.has(w))) return said;
  }
  return undefined;
}

/** The POST on the collection `op` sits right under (`/api/users` of `/api/users/search`). */
function collectionCreate(doc: unknown, op: OpenApiOperation): Node | undefined {
  const path = op.template.replace(/\/$/, "");
  const collection = path.slice(0, path.lastIndexOf("/"));
  const paths = isNode(doc) ? doc.paths : undefined;
  const create = member(member(paths, collection), "post") ??
    member(member(paths, `${collection}/`), "post");
  return isNode(create) && collection !== "" ? create : undefined;
}

/** The top-level member names of a create's JSON answers, plainly. */
function answered(doc: unknown, create: Node | undefined): Set<string> {
  if (!create) return new Set();
  return new Set(
    successes(doc, create).responses.flatMap((r) =>
      properties(doc, jsonSchema(doc, r)).map(([name]) => plainName(name))
    ),
  );
}

/**
 * The one query parameter `op` is sent when its document refuses it without
 * one (see the module), else undefined.
 *
 * @example
 * ```ts
 * import { searchedQuery } from "./query_refused.ts";
 * const created = { 201: { content: { "application/json": { schema: { properties: { email: {} } } } } } };
 * const doc = { paths: { "/users": { post: { responses: created } } } };
 * const params = [{ in: "query", name: "name" }, { in: "query", name: "email" }];
 * const op = { method: "GET", template: "/users/search", params,
 *   node: { responses: { 400: { description: "Missing query parameters" } } } } as never;
 * if (searchedQuery(doc, op)?.name !== "email") throw new Error();
 * ```
 */
export function searchedQuery(doc: unknown, op: OpenApiOperation): Node | undefined {
  if (refusedWithoutQuery(doc, op) === undefined) return undefined;
  const params = queryParams(doc, op);
  const held = answered(doc, collectionCreate(doc, op));
  return params.find((p) => held.has(plainName(String(p.name)))) ?? params[0];
}

/** A document's creates: the first POST of each collection, and where each create's answer holds each plain name. */
export interface CreatesIndex {
  byCollection: ReadonlyMap<string, OpenApiOperation>;
  props: ReadonlyMap<OpenApiOperation, ReadonlyMap<string, string[]>>;
}

/**
 * The link of the query parameter `op` is sent (`searchedQuery`) to the
 * answer of its collection's create (`creates`).
 *
 * @example
 * ```ts
 * import { searchedQueryLinks } from "./query_refused.ts";
 * const params = [{ in: "query", name: "email" }];
 * const op = { method: "GET", template: "/users/search", params,
 *   node: { responses: { 400: { description: "Missing query parameters" } } } } as never;
 * const create = { method: "POST", template: "/users", node: {} } as never;
 * const creates = { byCollection: new Map([["/users", create]]), props: new Map([[create, new Map([["email", ["email"]]])]]) };
 * const links = searchedQueryLinks({}, op, creates);
 * if (links[0]?.producer !== create || links[0].path.join() !== "email") throw new Error();
 * ```
 */
export function searchedQueryLinks(
  doc: unknown,
  op: OpenApiOperation,
  creates: CreatesIndex,
): ParamLink[] {
  const p = searchedQuery(doc, op);
  if (!p) return [];
  const path = op.template.replace(/\/$/, "");
  const producer = creates.byCollection.get(path.slice(0, path.lastIndexOf("/")));
  const found = producer && producer !== op
    ? creates.props.get(producer)?.get(plainName(String(p.name)))
    : undefined;
  return found
    ? [{ param: String(p.name), producer: producer!, path: found, from: "property" }]
    : [];
}
