/**
 * Which listing a body's ids read their value from when they name items
 * the API lists but nothing in the document makes: an Express multi-tenant
 * API's custom role requires `permissions: [uuid]` ("Array of permission
 * IDs"), the permissions are rows the server seeds, `GET /permissions`
 * lists them (objects with a UUID `id`), and no path makes or addresses
 * one; the type's sample UUID named none (400), and every read, update
 * and delete of the role waited for it. The evidence, all of it: the
 * property names a noun as an id (id_noun.ts: `permissions`
 * of UUIDs, `permission_ids`); a listing of that noun's plural at a path
 * of no parameter; no create of the noun anywhere (a POST to a collection
 * named for it); and the listing's first item's `id` of the same type and
 * format as the property's values (a UUID list names no integer-keyed
 * item). The value is that item's id, read before the call, as a path
 * parameter of a listed item is (`listing_values.ts`). Only a top-level
 * property the body requires, of a call whose create-based links
 * (body_links.ts) leave it alone.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { singular } from "../names.ts";
import type { BodyLink } from "./body_links.ts";
import { idNoun } from "./id_noun.ts";
import { deref } from "./examples.ts";
import { firstItemPath } from "./listing_values.ts";
import { isCollection, type OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { jsonSchema, successes } from "./responses.ts";
import { properties } from "./schema_properties.ts";
import { jsonBodySchema } from "./json_body.ts";

/** The plain singular noun a path's last plain segment names, if a plural. */
function pluralNoun(template: string): string | undefined {
  const last = template.replace(/\/$/, "").split("/").at(-1) ?? "";
  const noun = plainName(singular(last));
  return last.startsWith("{") || noun === "" || noun === plainName(last) ? undefined : noun;
}

/** The listings of nouns nothing makes: GETs of a path of no parameter, by noun. */
function unmadeListings(ops: OpenApiOperation[]): Map<string, OpenApiOperation> {
  const made = new Set(
    ops.filter((o) => o.method === "POST" && isCollection(o.template)).map((o) =>
      pluralNoun(o.template)
    ),
  );
  const out = new Map<string, OpenApiOperation>();
  for (const op of ops) {
    const noun = pluralNoun(op.template);
    if (op.method !== "GET" || op.template.includes("{") || !noun || made.has(noun)) continue;
    if (!out.has(noun)) out.set(noun, op);
  }
  return out;
}

/** A value's type and format (`string/uuid`), as compared between a property and an id. */
function kind(doc: unknown, p: unknown): string | undefined {
  const s = deref(doc, p);
  return isNode(s) && typeof s.type === "string" ? `${s.type}/${s.format ?? ""}` : undefined;
}

/**
 * The schemas at `path` of `schema` (`["data", "0", "id"]`), an array's
 * items at a number: each of the members of that name an `allOf` merges
 * (an envelope's `data: {nullable: true}` beside the listing's `data` array).
 */
function schemasAt(doc: unknown, schema: unknown, path: string[]): unknown[] {
  const at = deref(doc, schema);
  if (path.length === 0) return [at];
  if (!isNode(at)) return [];
  const [step, ...rest] = path;
  const next = /^\d+$/.test(step)
    ? [at.items]
    : properties(doc, at).filter(([n]) => n === step).map(([, p]) => p);
  return next.flatMap((n) => schemasAt(doc, n, rest));
}

/** The link of ids of kind `want` to the `id` of the first item `listing` answers, if it holds one. */
function listedId(
  doc: unknown,
  listing: OpenApiOperation,
  want: string | undefined,
): string[] | undefined {
  const last = listing.template.replace(/\/$/, "").split("/").at(-1) ?? "";
  for (const response of successes(doc, listing.node).responses) {
    const schema = jsonSchema(doc, response);
    const path = firstItemPath(doc, schema, "id", last, false, true);
    if (path?.at(-1) !== "id") continue;
    const kinds = schemasAt(doc, schema, path).map((s) => kind(doc, s));
    if (want !== undefined && kinds.includes(want)) return path;
  }
  return undefined;
}

/** The links of `op`'s required body ids that name an item only `listings` gives (see the module). */
function opLinks(
  doc: unknown,
  op: OpenApiOperation,
  listings: Map<string, OpenApiOperation>,
  linked: BodyLink[],
): BodyLink[] {
  const schema = jsonBodySchema(doc, op.node);
  const top = deref(doc, schema);
  const needed = isNode(top) && Array.isArray(top.required) ? top.required : [];
  const links: BodyLink[] = [];
  for (const [name, p] of properties(doc, schema)) {
    if (!needed.includes(name) || linked.some((l) => l.body.join() === name)) continue;
    const found = idNoun(name, p);
    const listing = found && listings.get(found.noun);
    if (!found || !listing || listing === op) continue;
    const path = listedId(doc, listing, kind(doc, found.each ? (p as Node).items : p));
    if (!path) continue;
    const param = found.each ? `${name}[]` : name;
    const each = found.each ? { each: true as const } : {};
    links.push({ param, producer: listing, path, from: "listing", body: [name], ...each });
  }
  return links;
}

/**
 * `linked` (each operation's body links) with the links of required body
 * ids naming items a listing gives and nothing makes (see the module).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { withListedIds } from "./listed_ids.ts";
 * const json = (schema: object) => ({ content: { "application/json": { schema } } });
 * const uuid = { type: "string", format: "uuid" };
 * const doc = { paths: {
 *   "/permissions": { get: { responses: { 200: json({ type: "array", items: { properties: { id: uuid } } }) } } },
 *   "/roles": { post: { requestBody: json({ required: ["permissions"], properties: {
 *     permissions: { type: "array", items: uuid } } }) } },
 * } };
 * const [list, create] = operationsOf(doc);
 * const [link] = withListedIds(doc, [list, create], new Map()).get(create) ?? [];
 * if (link?.producer !== list || link.path.join() !== "0,id" || !link.each) throw new Error(JSON.stringify(link));
 * ```
 */
export function withListedIds(
  doc: Node,
  ops: OpenApiOperation[],
  linked: Map<OpenApiOperation, BodyLink[]>,
): Map<OpenApiOperation, BodyLink[]> {
  const listings = unmadeListings(ops);
  if (listings.size === 0) return linked;
  for (const op of ops) {
    if (op.method === "GET" || op.method === "HEAD") continue;
    const had = linked.get(op) ?? [];
    const links = opLinks(doc, op, listings, had);
    if (links.length > 0) linked.set(op, [...had, ...links]);
  }
  return linked;
}
