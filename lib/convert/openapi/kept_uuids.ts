/**
 * An update's body member holding a UUID the document only exemplifies:
 * `PATCH /organizations/{organizationId}` sending `{name, id}` with `id`'s
 * example. A hand-written YAML document of a hapi + PostgreSQL API gives
 * every schema's `id` and its parent's `orgId` one example UUID, a row of
 * its authors' database; the update of an organization, of a product and of
 * the signed-in account sent it, so the server changed the item's key or
 * pointed the product at an organization it did not know: 500. A UUID is
 * no value a client picks to mean something: the one an update can send
 * without changing what it does not mean to is the one the item holds. So
 * the member is sent as the item's create answered it (the producer of the
 * path's last parameter), else as the read of the same path answers it
 * (a `GET` of the very template, `/me` too), when that answer declares the
 * member. Only in a PUT or PATCH, only a top-level member that is no object
 * or list, not `readOnly`, that no other rule links, and that the document
 * shows as a UUID: `format: uuid`, or an example that is one. A list the
 * document shows as UUIDs (its items so, or its example all UUIDs) is kept
 * alike: a Hapi social API's post update requires `likes`, account ids whose
 * example is its authors' rows, and sending them was refused 404 "Some likes
 * are not valid!"; the post's create answers the list it holds. A list the
 * answer declares as objects is another thing of the same name: a FastAPI
 * bug tracker's `PUT /projects/{project_id}/members` takes `{members:
 * [uuid]}` (accounts) while the project's create answers `members` as
 * memberships, `[{id, joinedAt, member}]`, and sending those was refused
 * 422; so the answer's member must not be declared an object, or a list of
 * objects, where the body has a value or a list of values. Only a value
 * the body sends is replaced: a member the update leaves out stays out
 * (Directus refuses any `id` in a user's update, 400 "You can't change the
 * id value manually", even the item's own).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { isUuid } from "../values.ts";
import { deref } from "./deref.ts";
import type { BodyLink } from "./body_links.ts";
import type { ParamLink } from "./document_links.ts";
import { jsonBodySchema } from "./json_body.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { propertyPaths, responseSchemas } from "./response_paths.ts";
import { properties } from "./schema_properties.ts";

/** Whether the document shows `p` as a UUID: its format, or an example that is one. */
function shownUuid(p: Node): boolean {
  if (p.readOnly === true || p.type === "object" || p.type === "array") return false;
  if (typeof p.format === "string" && /^(uuid|guid)$/i.test(p.format)) return true;
  return typeof p.example === "string" && isUuid(p.example);
}

/** Whether the document shows `p` as a list of UUIDs: its items' format or example, or its own. */
function shownUuids(doc: unknown, p: Node): boolean {
  if (p.readOnly === true || p.type !== "array") return false;
  const items = deref(doc, p.items);
  if (isNode(items) && shownUuid(items)) return true;
  const shown = p.example;
  return Array.isArray(shown) && shown.length > 0 &&
    shown.every((v) => typeof v === "string" && isUuid(v));
}

/** The producer of the path's last parameter, read from an answer's member (no listing's match). */
function itemCreate(op: OpenApiOperation, links: ParamLink[]): OpenApiOperation | undefined {
  const last = [...op.template.matchAll(/\{([^}]+)\}/g)].at(-1)?.[1];
  const link = links.find((l) =>
    l.param === last && l.path.length > 0 && l.match === undefined &&
    ["property", "parent", "links"].includes(l.from)
  );
  return link?.producer;
}

/** The schemas `producer`'s answers declare at `path`, each member looked up by name. */
function schemasAt(doc: unknown, producer: OpenApiOperation, path: string[]): Node[] {
  let level = responseSchemas(doc, producer);
  for (const name of path) {
    level = level.flatMap((s) => properties(doc, s).filter(([n]) => n === name).map(([, p]) => p));
  }
  return level.map((s) => deref(doc, s)).filter(isNode);
}

/** Whether a schema is declared an object: its type, or properties of its own. */
function objectLike(doc: unknown, schema: unknown): boolean {
  const s = deref(doc, schema);
  return isNode(s) && (s.type === "object" || isNode(s.properties));
}

/** Whether an answered schema holds objects where the body's member holds values (see the module). */
function otherShape(doc: unknown, answer: Node): boolean {
  return objectLike(doc, answer) || (answer.type === "array" && objectLike(doc, answer.items));
}

/** `member`'s place in `producer`'s answer, when the answer declares it under that very name. */
function answered(doc: unknown, producer: OpenApiOperation, member: string): string[] | undefined {
  const path = propertyPaths(doc, producer).get(plainName(member));
  if (path?.at(-1) !== member) return undefined;
  return schemasAt(doc, producer, path).some((s) => otherShape(doc, s)) ? undefined : path;
}

/** The links of one update: each UUID member from the item's create, else from its read. */
function keptLinks(
  doc: unknown,
  op: OpenApiOperation,
  read: OpenApiOperation | undefined,
  create: OpenApiOperation | undefined,
  linked: BodyLink[],
): BodyLink[] {
  const out: BodyLink[] = [];
  for (const [member, p] of properties(doc, jsonBodySchema(doc, op.node))) {
    if (!shownUuid(p) && !shownUuids(doc, p)) continue;
    if (linked.some((l) => l.body.length === 1 && l.body[0] === member)) continue;
    for (const producer of [create, read]) {
      const path = producer && answered(doc, producer, member);
      if (!producer || !path) continue;
      out.push({
        param: member,
        producer,
        path,
        from: "property",
        body: [member],
        replaceOnly: true,
      });
      break;
    }
  }
  return out;
}

/**
 * `body` with, for each PUT or PATCH of `ops`, a link for each body member the document shows
 * as a UUID and nothing else links, from the item's create or its read (see the module).
 *
 * @example
 * ```ts
 * import { withKeptUuids } from "./kept_uuids.ts";
 * import { operationsOf } from "./operations.ts";
 * const uuid = { type: "string", example: "0d3c5a7e-91b2-4c4f-8e6a-2f1b9c7d5e30" };
 * const org = { type: "object", properties: { id: uuid, name: { type: "string" } } };
 * const json = (schema: object) => ({ content: { "application/json": { schema } } });
 * const param = [{ name: "orgId", in: "path", required: true, schema: { type: "string" } }];
 * const doc = { paths: { "/orgs/{orgId}": {
 *   get: { parameters: param, responses: { 200: json(org) } },
 *   patch: { parameters: param, requestBody: json(org), responses: { 200: json(org) } },
 * } } };
 * const [read, patch] = operationsOf(doc);
 * const [got] = withKeptUuids(doc, [read, patch], new Map(), new Map()).get(patch) ?? [];
 * if (got?.body.join() !== "id" || got.producer !== read) throw new Error();
 * ```
 */
export function withKeptUuids(
  doc: unknown,
  ops: OpenApiOperation[],
  params: Map<OpenApiOperation, ParamLink[]>,
  body: Map<OpenApiOperation, BodyLink[]>,
): Map<OpenApiOperation, BodyLink[]> {
  const out = new Map(body);
  for (const op of ops) {
    if (op.method !== "PUT" && op.method !== "PATCH") continue;
    if (!isNode(jsonBodySchema(doc, op.node))) continue;
    const read = ops.find((o) => o.method === "GET" && o.template === op.template);
    const linked = out.get(op) ?? [];
    const kept = keptLinks(doc, op, read, itemCreate(op, params.get(op) ?? []), linked);
    if (kept.length > 0) out.set(op, [...linked, ...kept]);
  }
  return out;
}
