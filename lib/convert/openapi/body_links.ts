/**
 * Which create a request body property reads its value from, as RESTler's
 * producer–consumer inference does for bodies: a property naming another
 * resource (`petId` of `POST /orders`, Swagger Petstore's `Order`) sent a
 * literal (`1`), which names no pet of a fresh server (404); etcd's
 * `lease/revoke` sent no lease `ID` at all. The property names its noun by
 * its name (`petId`, `pet_id`, `petIDs`; `pet` itself when it is an id: an
 * integer, a UUID or an int64, or a `oneOf` offering an integer) or by its description ("ID is the lease ID
 * to revoke", "the ID of the member"); the producer is the create of that
 * noun (`POST /pets`, `POST /pet`, or a gateway's `/lease/grant`), read at
 * its answer's property of the body's name, else its `id`, at the top or
 * inside the answer's envelope or the member named for the noun (etcd's
 * `member.ID`); a create whose answer shows no id, at its collection's
 * listing's first item, read after it (created_listing.ts); a create whose
 * answer the document does not describe at all, anywhere in it
 * (undescribed_answer.ts: an Express shop's cart item sent its example
 * `product_id: 1`, refused by a fresh server's foreign key). Top-level, one wrapper deep (`{order: {petId}}`, a wrapper
 * the schema requires), the items of an array (`petIds: [..]`), or a member of each item of a
 * body that is a list (`[{id, sortOrder}]`, "The ID of the strategy": Unleash's strategy sort
 * order sent its example id, 400), or a member of each item of a list property (`products: [{id,
 * quantity}]` of an order, the item's own `id` one of the list's noun; `lines: [{productId}]`):
 * a restaurant API's order named its example product `1`, which a fresh server has not. The fill
 * is body_link_fill.ts's.
 *
 * A `readOnly` property or item member is never sent (schema_properties.ts's `sentProperties`).
 * Only what is sent changes: a property the schema requires (a list too), a list of a
 * collection's items in an object that requires nothing (shown_items.ts), an id-named relation of
 * a body whose schema requires nothing (unsaid_relation.ts); not
 * required, one the document shows an example of (Petstore's `Order.petId`,
 * which the body left out as it names a pet that must exist), one naming
 * what the call itself acts on (a gateway's call of the noun:
 * `lease/revoke`'s lease; proto3 requires nothing), or one whose relation the
 * document reads from the item made (`todoListId` beside `GET
 * /todos/{id}/todo-list`, related_reads.ts). A property
 * the document gives the value of (an `enum`, a `const`, a `default`) or
 * that a create of no such noun makes is left as it was. A create that
 * documents a 409 (a conflict with an item that exists) is read only in the
 * flow of its own tag: a copy in another flow makes the same item twice;
 * a body with an id so held back links none of its others. When that create
 * answers no id, the listing its ids are read from is read alone instead, a
 * read any flow copies: its first item, one that exists (an Express shop's
 * cart `{ProductId}`, left out before: 400).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { createdListing } from "./created_listing.ts";
import type { ParamLink } from "./document_links.ts";
import { deref } from "./examples.ts";
import { isCollection, type OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { searchedLink } from "./undescribed_answer.ts";
import { unlistedIdLink } from "./unlisted_id.ts";
import { jsonSchema, successes } from "./responses.ts";
import { isRpcDocument } from "./rpc_verbs.ts";
import { properties } from "./schema_properties.ts";
import { jsonBodySchema } from "./json_body.ts";
import { createdIn } from "./verb_segments.ts";
import { idNoun as nounOf } from "./id_noun.ts";
import { typedPath } from "./typed_id.ts";
import { type Candidate, candidates, nounKey } from "./body_candidates.ts";

/** A body property's producer; `param` is its name as the summary shows it (`petIds[]`). */
export interface BodyLink extends ParamLink {
  /** The property's place in the body: `["petId"]`, `["order", "petId"]`; `["[]", "id"]` in each item of a list body. */
  body: string[];
  /** The property is an array of such ids: it is sent the one made. */
  each?: true;
  /** The capture to read, the path parameter's own (self_id.ts); else named for the member. */
  capture?: string;
  /** Only a value the body already sends is replaced (kept_uuids.ts): no member is added. */
  replaceOnly?: true;
}

/** The noun a create makes: its collection's last segment, or a gateway function's noun. */
function createdNoun(op: OpenApiOperation, rpc: boolean): string | undefined {
  const segments = op.template.split("/").filter((s) => s !== "");
  if (rpc) return op.role === "create" ? segments.at(-2) : undefined;
  if (op.method !== "POST" || !isCollection(op.template)) return undefined;
  // A create under its verb (`POST /api/kategori/create`) makes its noun's (verb_segments.ts).
  return createdIn(op).split("/").filter((s) => s !== "").at(-1);
}

/**
 * Where a create's answer holds the id a body property `name` of `noun`
 * names: its property of that name, else `id`, at the top, else in an
 * envelope (`data`, `result`, `item`), the member named for the noun or
 * the answer's only member.
 */
function answerPath(
  doc: unknown,
  producer: OpenApiOperation,
  name: string,
  noun: string,
): string[] | undefined {
  const wanted = [plainName(name), "id"];
  const find = (props: [string, Node][]) =>
    wanted.map((w) => props.find(([n]) => plainName(n) === w)?.[0]).find((n) => n !== undefined);
  for (const response of successes(doc, producer.node).responses) {
    const top = properties(doc, jsonSchema(doc, response));
    const own = find(top);
    if (own !== undefined) return [own];
    for (const [wrapper, s] of top) {
      const envelope = /^(data|result|item)$/i.test(wrapper) || nounKey(wrapper) === noun ||
        top.length === 1;
      const inner = envelope ? find(properties(doc, s)) : undefined;
      if (inner !== undefined) return [wrapper, inner];
    }
  }
  return undefined;
}

/**
 * Whether `producer` may make an item for `op`: in the flow of its own tag, or copied into
 * another's unless it documents a 409, a conflict with an item that exists (Unleash's segment
 * create: the copy and the flow's own create made one name twice, and the second was refused).
 */
function copyable(doc: unknown, producer: OpenApiOperation, op: OpenApiOperation): boolean {
  const responses = deref(doc, producer.node.responses);
  return producer.tag === op.tag || !isNode(responses) || !("409" in responses);
}

/** `linkOf`'s first rule: the first of `ordered` whose answer holds the id, or `null`. */
function answeredLink(
  doc: unknown,
  op: OpenApiOperation,
  c: Candidate,
  ordered: OpenApiOperation[],
  at: Pick<BodyLink, "param" | "body" | "each">,
): BodyLink | null | undefined {
  let held = false;
  for (const producer of ordered) {
    const path = typedPath(doc, producer, answerPath(doc, producer, c.body.at(-1)!, c.noun), c);
    if (!path) continue;
    if (copyable(doc, producer, op)) return { ...at, producer, path, from: "property" };
    held = true;
  }
  return held ? null : undefined;
}

/**
 * The link of candidate `c` of `op` to the first of `makers` (the creates
 * of its noun) whose answer holds the id, one of the call's own method
 * first (a GET and POST twin each make their own); `null` when one holds
 * it but may not be copied for `op` (`copyable`); else the listing of
 * the first maker whose listing shows the id (`ops`, the document's); in a REST document
 * (not `rpc`), last, the create whose described answer shows no member for it (unlisted_id.ts).
 */
function linkOf(
  doc: unknown,
  op: OpenApiOperation,
  c: Candidate,
  makers: OpenApiOperation[] = [],
  ops: OpenApiOperation[] = [],
  rpc = false,
): BodyLink | null | undefined {
  const ordered = makers.filter((m) => m !== op)
    .sort((a, b) => Number(b.method === op.method) - Number(a.method === op.method));
  const param = `${c.body.join(".")}${c.each ? "[]" : ""}`;
  const at = { param, body: c.body, ...(c.each ? { each: true as const } : {}) };
  const answered = answeredLink(doc, op, c, ordered, at);
  // A bare noun's `number` is an id only as a create's answer types one (typed_id.ts).
  if (answered !== undefined || c.idType) return answered;
  // A create that answers no id: its collection's listing shows where the ids are. One sending
  // ids of its own noun attaches items that exist (figshare's article `categories`): none made.
  // A create held back (a 409 in another flow): the listing's first item, one that exists.
  for (const after of ordered) {
    const listed = createdListing(doc, ops, after, c.body.at(-1)!);
    if (!listed || sendsOwn(doc, after, c.noun)) continue;
    return { ...at, ...listed, from: "listing", ...copyable(doc, after, op) ? { after } : {} };
  }
  // A create whose answer the document does not describe (`201: {description}`): the id is the
  // first member named for the property, or `id`, anywhere in it, as a path parameter's is; not
  // from one that attaches items of the noun (it sends their ids) and makes none.
  for (const producer of ordered) {
    const search = searchedLink(doc, producer, c.body.at(-1)!)?.search;
    if (!search || sendsOwn(doc, producer, c.noun)) continue;
    if (!copyable(doc, producer, op)) return null;
    return { ...at, producer, path: [], from: "parent", search };
  }
  return unlistedLink(doc, op, c, ordered, at, rpc);
}

/**
 * A create of the noun whose described answer shows no member for the id: the member named as
 * the property, searched for in its answer at run time (unlisted_id.ts); in a REST document
 * only (not `rpc`).
 */
function unlistedLink(
  doc: unknown,
  op: OpenApiOperation,
  c: Candidate,
  ordered: OpenApiOperation[],
  at: Pick<BodyLink, "param" | "body" | "each">,
  rpc: boolean,
): BodyLink | null | undefined {
  if (rpc) return undefined;
  for (const producer of ordered) {
    const found = unlistedIdLink(doc, producer, c.body.at(-1)!);
    if (!found || sendsOwn(doc, producer, c.noun)) continue;
    if (!copyable(doc, producer, op)) return null;
    return { ...found, ...at };
  }
  return undefined;
}

/** Whether a create's body sends ids of `noun` itself: it attaches such items, it makes none. */
function sendsOwn(doc: unknown, create: OpenApiOperation, noun: string): boolean {
  return properties(doc, jsonBodySchema(doc, create.node)).some(([n, p]) =>
    nounOf(n, p)?.noun === noun
  );
}

/**
 * Each operation's body properties that name what a create of the
 * document makes, with that create and where its answer holds the id (see
 * the module).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { bodyLinks } from "./body_links.ts";
 * const json = (schema: object) => ({ content: { "application/json": { schema } } });
 * const doc = { paths: {
 *   "/pets": { post: { responses: { 201: json({ properties: { id: { type: "integer" } } }) } } },
 *   "/orders": { post: { requestBody: json({ required: ["petId"], properties: {
 *     petId: { type: "integer" }, storeId: { type: "integer" } } }) } },
 * } };
 * const [pets, orders] = operationsOf(doc);
 * const [link, ...more] = bodyLinks(doc, [pets, orders]).get(orders) ?? [];
 * if (link?.producer !== pets || link.body.join() !== "petId" || link.path.join() !== "id") {
 *   throw new Error(JSON.stringify(link));
 * }
 * if (more.length !== 0) throw new Error();
 * ```
 */
export function bodyLinks(doc: Node, ops: OpenApiOperation[]): Map<OpenApiOperation, BodyLink[]> {
  const rpc = isRpcDocument(ops.map((o) => o.template));
  const creates = new Map<string, OpenApiOperation[]>();
  for (const op of ops) {
    const noun = createdNoun(op, rpc);
    if (noun === undefined || noun.startsWith("{")) continue;
    creates.set(nounKey(noun), [...creates.get(nounKey(noun)) ?? [], op]);
  }
  const out = new Map<OpenApiOperation, BodyLink[]>();
  if (creates.size === 0) return out;
  for (const op of ops) {
    const found = candidates(doc, op, rpc, ops).map((c) => {
      const link = linkOf(doc, op, c, creates.get(c.noun), ops, rpc);
      // A relation nothing requires is sent only where the document shows its value: no search.
      return c.loose && link?.search ? undefined : link;
    });
    // A body with an id held back (`linkOf`'s null) links none of its others: Unleash's
    // assignment of segments to a strategy, its strategy linked and its segments (a create of a
    // 409) not, put the one example segment that existed on the strategy, which then could not
    // be deleted.
    const links = found.filter((l): l is BodyLink => l !== undefined && l !== null);
    if (links.length > 0 && !found.includes(null)) out.set(op, links);
  }
  return withoutInverses(out);
}

/**
 * The links without a list that is the inverse of a relation (a category's `articles` beside an
 * article's one `category`): each create would wait for the other, so neither could be copied
 * into the other's flow. The one id is the relation's owning side; the list is sent as it was.
 */
function withoutInverses(
  links: Map<OpenApiOperation, BodyLink[]>,
): Map<OpenApiOperation, BodyLink[]> {
  const out = new Map<OpenApiOperation, BodyLink[]>();
  for (const [op, list] of links) {
    const owned = (l: BodyLink) =>
      (links.get(l.producer) ?? []).some((back) => back.producer === op && !back.each);
    const kept = list.filter((l) => !(l.each && owned(l)));
    if (kept.length > 0) out.set(op, kept);
  }
  return out;
}
