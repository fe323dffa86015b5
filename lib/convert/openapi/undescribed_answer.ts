/**
 * A create whose answer the document does not describe: `@nestjs/swagger`
 * writes `201: {description: ""}` for a controller without response types,
 * and many projects publish their documents so. The item's parameter of
 * `/articles/{slug}` has no property to be read from, yet the create is its
 * producer, and its answer holds the item at run time: the value is read
 * from the first member named for the parameter anywhere in it (an `…Id`
 * or a list's `…Ids` also as `id`; first a member the create's own body schema describes as
 * the item's unique identifier, `livre_id` of a `Book`; a bare `id` also
 * as the item's noun's `userId` of `POST /users`: `noun_id.ts`), the
 * shallowest first (so too from an answer documented as the very schema of the create's body,
 * which says nothing of what the server adds), where the document declares no
 * `Location` and nothing else names it (a listing, another create's
 * property, the parent's text). A create that answers nothing (204) gives
 * nothing to read, a name the client gives in the create's body is the
 * run's own, and a POST whose summary is the item operation's own is one
 * handler for both paths, not a create (httpbin's `/anything`).
 *
 * @module
 */
import type { OpenApiOperation } from "./operations.ts";
import type { ParamLink } from "./document_links.ts";
import { namedInBody } from "./body_names.ts";
import { describedIds } from "./described_id.ts";
import { bodySchema } from "./own_names.ts";
import { jsonSchema, successes } from "./responses.ts";
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { holdsOpenObject } from "./open_member.ts";
import { nounIds } from "./noun_id.ts";
import { blanketDefault } from "./blanket_default.ts";
import { plainName } from "./required_props.ts";
import { properties } from "./schema_properties.ts";
import { IDENTIFIER } from "./patch_body.ts";
import { singular } from "../names.ts";
import { deref } from "./examples.ts";

/**
 * The link of `param` to its create `producer` read from an answer the
 * document leaves undescribed, or undefined when the document describes it
 * (its properties were read already), says it answers nothing, or says the
 * same of `producer` as of `consumer`, the operation that reads `param`.
 *
 * @example
 * ```ts
 * import { searchedLink } from "./undescribed_answer.ts";
 * import { operationsOf } from "./operations.ts";
 * const created = { post: { responses: { "201": { description: "" } } } };
 * const [create] = operationsOf({ paths: { "/articles": created } });
 * if (searchedLink({}, create, "articleId")?.search?.join() !== "articleId,id") throw new Error();
 * if (searchedLink({}, create, "articleIds")?.search?.join() !== "articleIds,id") throw new Error();
 * const none = operationsOf({ paths: { "/a": { post: { responses: { "204": { description: "" } } } } } });
 * if (searchedLink({}, none[0], "id") !== undefined) throw new Error();
 * ```
 */
export function searchedLink(
  doc: unknown,
  producer: OpenApiOperation | undefined,
  param: string,
  consumer?: OpenApiOperation,
): ParamLink | undefined {
  if (producer === undefined || (consumer && oneHandler(producer, consumer))) return undefined;
  if (!answersUndescribed(doc, producer) && !echoesBody(doc, producer, param)) return undefined;
  // A name the client gives in the create's body is the run's own, never searched for.
  if (namedInBody(doc, producer).has(param)) return undefined;
  // A list of ids named for a noun in the plural (`roomIds`) holds what a single `roomId` would.
  const id = /^(.+?)[_-]?(?:id|Id|ID)s?$/.test(param) ? ["id"] : [];
  // The create's own schema may say which member is the item's identifier (`livre_id`).
  const own = describedIds(doc, bodySchema(doc, producer)).filter((k) => k !== param);
  // A create's bare `id` may come back named for the item (`{message, userId}` of `POST /users`)
  // when its schema names no identifier of its own; a listing's items are no item it makes.
  const nouns = producer.method === "POST" && own.length === 0
    ? nounIds(producer.template, param)
    : [];
  const search = [...new Set([...own, param, ...id, ...nouns])];
  return { param, producer, path: [], from: "parent", search };
}

/**
 * The link of `param` to the create of its noun, `producer`, whose answer the document describes
 * as the item without any identifier (a NestJS entity whose generated key has no `@ApiProperty`):
 * the id is searched for in the answer, as in {@linkcode searchedLink}; undefined otherwise. For
 * an item addressed under another's path (`PATCH /recipes/{recipeId}/ingredient/{ingredientId}`)
 * whose create is its own collection's (`POST /ingredient`).
 *
 * @example
 * ```ts
 * import { itemAnswerLink } from "./undescribed_answer.ts";
 * import { operationsOf } from "./operations.ts";
 * const schema = { $ref: "#/components/schemas/Dish" };
 * const answer = { "201": { description: "", content: { "application/json": { schema } } } };
 * const doc = {
 *   paths: { "/dishes": { post: { responses: answer } }, "/dishes/{id}": { patch: { responses: answer } } },
 *   components: { schemas: { Dish: { type: "object", properties: { title: { type: "string" } } } } },
 * };
 * const [create] = operationsOf(doc);
 * if (itemAnswerLink(doc, create, "dishId")?.search?.[0] !== "dishId") throw new Error();
 * if (itemAnswerLink(doc, create, "title") !== undefined) throw new Error();
 * ```
 */
export function itemAnswerLink(
  doc: unknown,
  producer: OpenApiOperation,
  param: string,
  consumer?: OpenApiOperation,
): ParamLink | undefined {
  if (producer.method !== "POST" || !echoesBody(doc, producer, param)) return undefined;
  return searchedLink(doc, producer, param, consumer);
}

/**
 * Whether `op` answers something the document does not describe: its 2xx say nothing of their
 * bodies, or it documents only the `default` every such operation writes (blanket_default.ts).
 */
function answersUndescribed(doc: unknown, op: OpenApiOperation): boolean {
  const { statuses, responses } = successes(doc, op.node);
  if (statuses.length === 0) return blanketDefault(doc, op.node);
  if (statuses.every((s) => s === 204 || s === 205)) return false;
  return responses.every((r) => undescribed(doc, r));
}

/**
 * Whether every success answer of a create is documented as the item itself, in a schema holding
 * no member named as an identifier, and `param` names the item's id (`{id}`, `{taskId}` of
 * `/tasks`): the document says what the item holds, and so nothing of the id the server adds. A
 * NestJS project manager documents `POST /tasks` answering its `TaskRequestDto`, and answers the
 * saved task with its `id`; `{id}` of `PUT /tasks/{id}` was a placeholder to fill in (1, the
 * authors' row). A NestJS recipes API documents its creates as answering their entities (`Recipe`,
 * `Ingredient`), whose generated key carries no `@ApiProperty`, and answers the saved row with its
 * `id`: each item's `{id}` was a placeholder, one shared by both collections. Google's inserts
 * answer their resource's schema too, which names its key (`resourceId`), or a parameter named
 * otherwise (`{featureKey}`): left as they were.
 */
function echoesBody(doc: unknown, op: OpenApiOperation, param: string): boolean {
  const { responses } = successes(doc, op.node);
  const noun = plainName(singular(op.template.split("/").filter((s) => s !== "").at(-1) ?? ""));
  const named = [`id`, `${noun}id`].includes(plainName(param));
  const answers = responses.map((r) => jsonSchema(doc, r));
  const sent = bodySchema(doc, op);
  // The body's own schema: what it was sent, its top-level members naming no identifier.
  const echoed = (a: unknown) =>
    sent !== undefined && a === sent && !properties(doc, sent).some(([n]) => IDENTIFIER.test(n));
  return named && answers.length > 0 &&
    answers.every((a) => echoed(a) || isNode(a) && theItem(doc, op, a) && !holdsIdentifier(doc, a));
}

/**
 * Whether a schema names a member as an identifier (`id`, `taskId`, `task_id`) anywhere in it, a
 * list's items and a wrapper's members too (`{Data: {Account: [{AccountId}]}}`): the document
 * says where the id is, and what it says is read elsewhere.
 */
function holdsIdentifier(doc: unknown, schema: unknown, depth = 0): boolean {
  const s = deref(doc, schema);
  if (!isNode(s) || depth > 6) return false;
  if (isNode(s.items)) return holdsIdentifier(doc, s.items, depth + 1);
  const parts = ["allOf", "oneOf", "anyOf"].flatMap((k) => Array.isArray(s[k]) ? s[k] : []);
  return parts.some((part) => holdsIdentifier(doc, part, depth + 1)) ||
    properties(doc, s).some(([n, m]: [string, Node]) =>
      IDENTIFIER.test(n) || holdsIdentifier(doc, m, depth + 1)
    );
}

/**
 * Whether a create's described answer, other than its body's schema, is its item: the schema an
 * operation at the item's own path answers (`PATCH /recipes/{id}` answering
 * `Recipe` too), were it documented with no member at all (`{type: object, properties: {}}`, an
 * entity none of whose columns has `@ApiProperty`). An answer that is neither (`{message}`) says
 * nothing of the item, and one holding a member of no type (an envelope's `data: {}`, which may be any value) is read as it says.
 */
function theItem(doc: unknown, op: OpenApiOperation, answer: Node): boolean {
  const members = properties(doc, answer);
  // An entity none of whose columns is documented (`properties: {}`) names no member, nor its id.
  const none = members.length === 0 && !isNode(answer.properties);
  if (op.method !== "POST" || none || answer === bodySchema(doc, op)) return false;
  if (members.some(([, m]) => untyped(doc, m))) return false;
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : {};
  const under = `${op.template.replace(/\/$/, "")}/{`;
  return Object.entries(paths).some(([path, item]) =>
    path.startsWith(under) && !path.slice(under.length).includes("/") && isNode(item) &&
    Object.values(item).some((node) =>
      isNode(node) && isNode(node.responses) &&
      successes(doc, node).responses.some((r) => jsonSchema(doc, r) === answer)
    )
  );
}

/** Whether a member's schema says nothing of its value: no type, items, members or choices. */
function untyped(doc: unknown, member: unknown): boolean {
  const m = deref(doc, member);
  return isNode(m) &&
    !["type", "items", "properties", "enum", "const", "allOf", "anyOf", "oneOf"].some((k) =>
      k in m
    );
}

/**
 * Whether the POST and the operation at its item's path say the same words:
 * httpbin's `/anything` and `/anything/{anything}` are one handler for every
 * method ("Returns anything passed in request data."), which makes no item,
 * and its echo holds none to search for. A create and its item's read say
 * different things ("Create a note", "Read a note").
 */
function oneHandler(producer: OpenApiOperation, consumer: OpenApiOperation): boolean {
  const said = (op: OpenApiOperation) =>
    typeof op.node.summary === "string" ? op.node.summary.trim().toLowerCase() : "";
  return said(producer) !== "" && said(producer) === said(consumer);
}

/**
 * Whether a success response of the operation declares a `Location` header:
 * what a create's answer names its item by, before anything undescribed.
 *
 * @example
 * ```ts
 * import { hasLocation } from "./undescribed_answer.ts";
 * import { operationsOf } from "./operations.ts";
 * const located = { "201": { description: "", headers: { Location: { schema: { type: "string" } } } } };
 * const [create] = operationsOf({ paths: { "/a": { post: { responses: located } } } });
 * if (!hasLocation({}, create)) throw new Error();
 * ```
 */
export function hasLocation(doc: unknown, op: OpenApiOperation): boolean {
  return successes(doc, op.node).responses.some((r) =>
    isNode(r.headers) && Object.keys(r.headers).some((h) => h.toLowerCase() === "location")
  );
}

/** Whether a response says nothing of its body: no content, or JSON of no schema, or any value. */
function undescribed(doc: unknown, response: Node): boolean {
  const content = isNode(response.content) ? response.content : {};
  if (Object.keys(content).some((type) => !/json/i.test(type))) return false;
  const schema = jsonSchema(doc, response);
  // An envelope whose payload is an object naming no member (`{code, message, data: {type:
  // object}}`) says as little; a member of no type (Google's `featureInstances`) may be a value.
  return schema === undefined || holdsOpenObject(doc, schema) ||
    (isNode(schema) && !["properties", "items", "allOf", "anyOf", "oneOf", "additionalProperties"]
      .some((k) => k in schema) &&
      (schema.type === undefined || schema.type === "object"));
}
