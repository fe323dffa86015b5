/**
 * Which operation produces each path parameter, as Schemathesis and RESTler infer it: the
 * document's own OpenAPI `links` first (a response's link to the operation, `who:
 * $response.body#/ref`); else the POST on the parameter's parent collection (`{slug}` of
 * `/articles/{slug}` from `POST /articles`), reading the property named like the parameter, else
 * `id` (`{petId}` ← `id`), at any depth of one wrapper (`article.slug`, `comment.id`); else, for an
 * item under a segment naming another of its keys (`/products/slug/{slug}`), the create of the
 * collection before it, by the key's name only (`key_segment.ts`); else the
 * create of the collection the parameter is named for (`{petId}` ← `POST /pets`); else the first
 * item of the parameter's own collection's listing (Unleash's `{name}` of `/environments/{name}`
 * from `GET /environments`, not the `name` a feature's create answers);
 * else any create (a POST to a collection) whose response has a property of the parameter's name
 * (`{username}` ← the registered `user.username`), the shallowest first; else the listing's list
 * inside its answer's one envelope (JSend's `{status, data: {brands: […]}}`, HAL's `_embedded`). A member is read one
 * level down only inside an envelope (`{user: {…}}`, `data`): Discord's
 * `message_reference.message_id` is another message's. A query parameter naming an id is read
 * from a create whose answer holds its very name (`?groupID=` ← `data.groupID`); one no answer
 * holds, from the RPC create that takes it (`createPad?padID=`: `client_ids.ts`); a search
 * refused without its query, from its collection's create (`query_refused.ts`); a call served
 * by GET and POST reads its own method's twin create (`rpc_twins.ts`); last, a tag's one create
 * where no path names a collection (`tag_create.ts`); first, a collection the parameter is named
 * for whose create names its items in its body (`named_collection.ts`); after all of these, one
 * described in the words of a parameter a create produces (`described_param.ts`). A producer never reads
 * the parameter it produces, so the links make no cycle through one parameter.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { singular } from "../names.ts";
import { clientIdLinks } from "./client_ids.ts";
import { withSelfIds } from "./self_id.ts";
import { withKeptUuids } from "./kept_uuids.ts";
import { abbreviatedIdLinks } from "./abbreviated_ids.ts";
import { twinProducers } from "./rpc_twins.ts";
import { documentLinks, ownCreate, type ParamLink, sameParent } from "./document_links.ts";
import { ownFilterLinks } from "./own_filter.ts";
import { searchedQueryLinks } from "./query_refused.ts";
import { clientNames, isCollection, type OpenApiOperation } from "./operations.ts";
import { responseSchemas } from "./response_paths.ts";
import { hasExample, namedListing } from "./listing_values.ts";
import { fromParentText } from "./parent_text.ts";
import { hasLocation, itemAnswerLink, searchedLink } from "./undescribed_answer.ts";
import { keyedLink } from "./key_segment.ts";
import { hrefLink } from "./href_link.ts";
import { actionCreate } from "./action_create.ts";
import { plainName } from "./required_props.ts";
import { createdIn } from "./verb_segments.ts";
import { wordedCollection } from "./action_segments.ts";
import { itemSegments } from "./param_run.ts";
import { readsSame, shallowCreate } from "./shallow_nested.ts";
import { tagMakerLink } from "./tag_create_link.ts";
import { fromListing, laterListing } from "./listing_producer.ts";
import { unlessListed } from "./listed_over_echo.ts";
import { namedCollectionLink } from "./named_collection.ts";
import { withDescribedParams } from "./described_param.ts";
import { siblingWord } from "./sibling_words.ts";
import { madeParams } from "./fixed_segment.ts";
import { nounBefore } from "./collection_before.ts";
import { answerNamedLink } from "./answer_named.ts";
import { Creates } from "./creates.ts";

export type { ParamLink } from "./document_links.ts"; // read from here, as the captures below
export { capturePath, captureSource } from "./capture_source.ts";
export { latestHolder } from "./renamed_ids.ts";
// What a body sends of the flow's earlier answers (its own items, the login's tokens): the same.
export { fillListed, thenAll } from "./listed_items.ts";
export { fillAnswered } from "./answered_values.ts";
export { fillBodyIds } from "./body_link_fill.ts";
import { type BodyLink, bodyLinks } from "./body_links.ts";
import { withListedBodyLinks } from "./body_listed.ts";
import { withListedIds } from "./listed_ids.ts";
import { withRefListedBodyLinks } from "./body_ref_listed.ts";
// Defined beside what reads required names and a schema's properties; read from here too.
export { plainName, responseSchemas };
export { findProperty } from "./schema_properties.ts";

/**
 * Each operation's path parameters and their producers.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { paramLinks } from "./producers.ts";
 * const created = { "201": { content: { "application/json": { schema: { properties: { id: {} } } } } } };
 * const ops = operationsOf({ paths: { "/pets": { post: { responses: created } }, "/pets/{petId}": { get: {} } } });
 * const link = paramLinks({}, ops).get(ops[1])?.[0];
 * if (link?.producer !== ops[0] || link.path.join() !== "id" || link.from !== "parent") throw new Error();
 * ```
 */
export function paramLinks(doc: Node, ops: OpenApiOperation[]): Map<OpenApiOperation, ParamLink[]> {
  const declared = documentLinks(doc, ops);
  const creates = new Creates(doc, ops);
  const named = ops.filter((o) => o.role === "create" && !isCollection(o.template));
  const clientIds = clientIdLinks(ops);
  const abbreviated = abbreviatedIdLinks(doc, ops);
  const twins = twinProducers(ops);
  const out = new Map<OpenApiOperation, ParamLink[]>();
  for (const op of ops) {
    const found: ParamLink[] = [];
    // A parameter allowed one value is the document's (fixed_segment.ts): nothing makes it.
    for (const param of madeParams(doc, op)) {
      // An item the client names at its create is not read from a listing (empty before
      // it): the run names it, unless something else makes it (a pet an owner adopts).
      const listed = !clientNames(named, op, param) ||
        namedListing(op.template, param, creates.lists.keys()) !== undefined;
      const link = ownCreate(
        declared.get(op)?.get(param) ?? sameParent(declared, op, param),
        namedCollectionLink(doc, ops, op, param) ?? fromParent(creates, op, param),
      ) ?? fromKeyOrNoun(creates, op, param) ??
        (listed ? fromListing(creates, op, param) : undefined) ??
        fromProperty(creates, op, param, listed) ??
        (listed ? laterListing(creates, op, param) : undefined) ??
        lastResort(creates, ops, op, param);
      if (link) found.push(link);
    }
    found.push(...queryLinks(creates, op), ...ownFilterLinks(creates, op));
    found.push(...searchedQueryLinks(doc, op, creates));
    found.push(...clientIds(op, found));
    found.push(...abbreviated(op, found));
    if (found.length > 0) out.set(op, twins(op, found));
  }
  return withDescribedParams(ops, out);
}

/**
 * Each operation's producers: of its parameters (`paramLinks`), of its body's ids (body_links.ts).
 *
 * @example
 * ```ts
 * import { inferredLinks } from "./producers.ts";
 * const { params, body } = inferredLinks({}, []);
 * if (params.size !== 0 || body.size !== 0) throw new Error();
 * ```
 */
export function inferredLinks(doc: Node, ops: OpenApiOperation[]): {
  params: Map<OpenApiOperation, ParamLink[]>;
  body: Map<OpenApiOperation, BodyLink[]>;
} {
  const body = withListedIds(doc, ops, withListedBodyLinks(doc, ops, bodyLinks(doc, ops)));
  const params = paramLinks(doc, ops);
  const own = withSelfIds(doc, params, withRefListedBodyLinks(doc, ops, body));
  return { params, body: withKeptUuids(doc, ops, params, own) };
}

/**
 * The parent create's answer (`parentCreate`) or `Location`, which for an item addressed by
 * several (`/tags/{type}/{value}`) holds each parameter at its own place.
 */
function fromParent(creates: Creates, op: OpenApiOperation, param: string): ParamLink | undefined {
  const producer = parentCreate(creates, op, param);
  if (!producer) return undefined;
  const item = itemSegments(op.template, param);
  const path = creates.pathIn(producer, param);
  if (path) return { param, producer, path, from: "parent" };
  if (!hasLocation(creates.doc, producer)) return undefined;
  // The Location names the item the POST made: the run of parameters after its collection.
  const fromEnd = producer.template.replace(/\/$/, "") === item.collection ? item.fromEnd : 0;
  return { param, producer, path: [], from: "location", ...(fromEnd > 0 ? { fromEnd } : {}) };
}

/**
 * The last rules: the parent's text, its create's undescribed answer (or a create nested under
 * another parent's, shallow_nested.ts), the tag's, a link (href_link.ts).
 */
function lastResort(
  creates: Creates,
  ops: OpenApiOperation[],
  op: OpenApiOperation,
  param: string,
) {
  const doc = creates.doc as Node;
  return fromParentText(doc, ops, op, param) ??
    searchedLink(doc, parentCreate(creates, op, param), param, op) ??
    searchedLink(doc, shallowCreate(ops, op, param), param, op) ??
    tagMakerLink(doc, ops, op, param, (p) => creates.pathIn(p, param)) ??
    hrefLink(doc, ops, op, param) ??
    fromNoun(creates, op, param, nounBefore(op.template, param)) ??
    answerNamedLink(doc, ops, op, param);
}

/** The create of an item addressed by another of its keys, else the one its noun names. */
function fromKeyOrNoun(creates: Creates, op: OpenApiOperation, param: string) {
  return keyedLink(creates.doc, creates.byCollection, op, param) ?? fromNoun(creates, op, param);
}

/** The POST on the collection `param` is of (`/post` of `/post/get/{id}`), or before its run. */
function parentCreate(creates: Creates, op: OpenApiOperation, param: string) {
  const at = op.template.indexOf(`/{${param}}`);
  if (at <= 0) return undefined;
  const producer = creates.byCollection.get(wordedCollection(op, creates.ops, param) ?? "") ??
    creates.byCollection.get(op.template.slice(0, at)) ??
    creates.byCollection.get(itemSegments(op.template, param).collection);
  return producer === op ? undefined : producer;
}

/**
 * Any create whose response has a property named like the parameter, the
 * shallowest: a name or a code (`{username}`, `{code}`), not an id, which
 * its own resource's create makes (a message's `application_id` is no
 * application it made). Not for an item the client names (`listed` false)
 * from another resource's create: a session's `path` is no file it made; nor
 * one the document gives a value for (Homebridge's bridge `{username}`, a MAC),
 * or whose values its paths spell beside it (Caldera's `/config/{name}`).
 */
function fromProperty(
  creates: Creates,
  op: OpenApiOperation,
  param: string,
  listed = true,
): ParamLink | undefined {
  if (/id$/.test(plainName(param))) return actionCreate(creates.doc, creates.byName, op, param);
  const found = creates.byName.get(plainName(param))?.find(({ producer }) =>
    producer !== op && !producer.template.includes(`{${param}}`)
  );
  if (!found) return undefined;
  // Made by the create of the item's own collection; any other create's answer refers to it.
  const own = createdIn(found.producer) ===
    op.template.slice(0, op.template.indexOf(`/{${param}}`));
  // An item the client names (`PUT /contents/{path}`) is the run's: another's answer refers to one.
  // One whose own create answers undescribed is that create's (lastResort), never another's.
  if (!own && (!listed || searchedLink(creates.doc, parentCreate(creates, op, param), param, op))) {
    return undefined;
  }
  // Another resource's member of its name is a guess; the document's example is its word, and so
  // are the words its paths put at the parameter's place (`/config/main` beside `/config/{name}`).
  const p = op.params.find((x) => x.in === "path" && x.name === param);
  if (!own && p && hasExample(creates.doc, p)) return undefined;
  if (!own && spelledBeside(creates.doc, op, param, found.producer)) return undefined;
  return {
    param,
    producer: found.producer,
    path: found.path,
    from: "property",
    ...(own ? {} : { existing: true as const }),
  };
}

/**
 * Whether the document's paths spell the values of `param` beside it (sibling_words.ts) and
 * `producer` is not one of them: Caldera's `/config/main` and `/config/agents` beside
 * `/config/{name}`, not `POST /abilities`; Google's `POST /v1/labels` is at the place of
 * `{name}` of `/v1/{name}`, and its answer's `name` (`labels/…`) is a path under it.
 */
function spelledBeside(
  doc: unknown,
  op: OpenApiOperation,
  param: string,
  producer: OpenApiOperation,
): boolean {
  const place = op.template.slice(0, op.template.indexOf(`{${param}}`));
  return !producer.template.startsWith(place) && siblingWord(doc, op.node, param) !== undefined;
}

/**
 * The query parameters naming an id a create's answer holds under their own
 * name, the shallowest: Etherpad's `groupID` of `GET /listPads?groupID=…`
 * from `POST /createGroup`'s `data.groupID`. Only an id (`createPad?text=`
 * is data), from the create of what it names, its last word holding the
 * noun (`createGroup`, `/groups`; not Discord's `user_id` another answer
 * holds, nor Twilio's `Sid`). A required one no answer holds by name is its
 * noun's create's id, as in a body (Hono's `GET /api/comment?articleId=`).
 */
function queryLinks(creates: Creates, op: OpenApiOperation): ParamLink[] {
  return op.params.flatMap((p) => {
    const param = String(p.name);
    const noun = plainName(param).replace(/id$/, "");
    if (p.in !== "query" || noun === plainName(param) || /^s?$/.test(noun)) return [];
    const found = creates.byName.get(plainName(param))?.find(({ producer }) =>
      producer.template !== op.template && !producer.template.includes(`{${param}}`) &&
      plainName(producer.template.split("/").filter((s) => s !== "").at(-1) ?? "").includes(noun)
    );
    if (found) return [{ param, producer: found.producer, path: found.path, from: "property" }];
    const own = p.required === true ? fromNoun(creates, op, param) : undefined;
    return own ? [own] : [];
  });
}

/**
 * The create of the resource a parameter is named for: `{petId}` (or `{id}`
 * after `/pets/`) from `POST /pets` or `POST /pet`, its `id`, wherever the
 * parameter sits (`/owners/{who}/pets/{petId}`); with `noun`, that noun's
 * (the last rule: the collection named before it, `collection_before.ts`).
 */
function fromNoun(
  creates: Creates,
  op: OpenApiOperation,
  param: string,
  noun = namedNoun(op.template, param),
): ParamLink | undefined {
  const makers = (creates.byNoun.get(noun) ?? []).filter((p) =>
    p !== op && !readsSame(p.template, op.template, param)
  );
  for (const producer of makers) {
    const path = creates.pathIn(producer, param);
    if (path) return { param, producer, path, from: "property" };
  }
  // A create answering its item described without any identifier: the id is searched for in it,
  // unless the collection's listing describes it (listed_over_echo.ts).
  const searched = makers.map((p) => itemAnswerLink(creates.doc, p, param, op)).find((l) => l);
  return unlessListed(creates, op, param, searched);
}

/** The noun a parameter names (`pet` of `{petId}`), else the segment's before it (`{id}` after `/pets/`). */
function namedNoun(template: string, param: string): string {
  const plain = plainName(param);
  const segments = template.slice(0, template.indexOf(`{${param}}`)).split("/");
  const before = segments.filter((s) => s !== "").at(-1);
  return plain !== "id" && plain.endsWith("id")
    ? plain.slice(0, -2)
    : before && !before.startsWith("{")
    ? plainName(singular(before))
    : "";
}
