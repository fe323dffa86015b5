/**
 * Which listing a request body property reads its value from when its
 * schema is the very named schema (`$ref`) a listing's items are addressed
 * by: Mocks Server's admin API takes `POST /mock/custom-route-variants`
 * `{id: RouteVariantId}`, and `GET /mock/variants` answers variants whose
 * `id` is a `RouteVariantId`, each the handle of `/mock/variants/{id}`. The
 * body's example (`get-user:2`) names a variant of the server the document
 * was written against, none of a fresh one (400). A named schema is a
 * type the document declares once and uses for one kind of value: a body
 * sending that type sends a value of that kind, and the listing shows the
 * ones the server has. The evidence, all of it: a listing (a GET of a
 * collection of no parameter with an item path beneath, `/mock/variants`
 * beside `/mock/variants/{variantId}`); the property of its items the item
 * path is read from (as for a listed item's read, `listing_values.ts`),
 * whose schema is a `$ref`; a top-level body property of the same `$ref`,
 * one the body sends (required, or in its example) and whose type gives no
 * value of its own (an `enum`, a `const`, a `default`, an example); a call
 * that is not on the listed collection itself (a create there makes that
 * id). A property of a named schema the items hold beside what addresses
 * them (a colour) is no handle and is left alone.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { BodyLink } from "./body_links.ts";
import { deref } from "./examples.ts";
import { firstItemPath } from "./listing_values.ts";
import type { OpenApiOperation } from "./operations.ts";
import { jsonSchema, successes } from "./responses.ts";
import { jsonBodyMedia } from "./json_body.ts";

/** A listing's first item's handle: the operation and the path to it in its answer. */
interface Handle {
  producer: OpenApiOperation;
  path: string[];
}

/** The raw (not dereferenced) schema at `path` of `schema` (`0` an array's items). */
function rawAt(doc: unknown, schema: unknown, path: string[]): unknown {
  let node = schema;
  for (const step of path) {
    const s = deref(doc, node);
    if (!isNode(s)) return undefined;
    node = step === "0" ? s.items : isNode(s.properties) ? s.properties[step] : undefined;
  }
  return node;
}

/**
 * The `$ref` a schema is, if it is one: itself, or the one part of an `allOf` written to
 * describe it (OpenAPI 3.0 ignores a description beside a `$ref`).
 */
function refOf(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (typeof node.$ref === "string") return node.$ref;
  return Array.isArray(node.allOf) && node.allOf.length === 1 ? refOf(node.allOf[0]) : undefined;
}

/**
 * Each path's item parameter right beneath it (`/variants` → `variantId` of
 * `/variants/{variantId}`), indexed once: one pass, not one per listing.
 */
function itemParams(ops: OpenApiOperation[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of ops) {
    const [, path, param] = /^(.*)\/\{([^}]+)\}\/?$/.exec(o.template) ?? [];
    if (param !== undefined && !out.has(path)) out.set(path, param);
  }
  return out;
}

/** Each `$ref` a listing's items are addressed by → the first listing's handle of it. */
function handlesByRef(doc: unknown, ops: OpenApiOperation[]): Map<string, Handle> {
  const out = new Map<string, Handle>();
  const params = itemParams(ops);
  for (const op of ops) {
    const path = op.template.replace(/\/$/, "");
    const param = op.method === "GET" && !path.includes("{") ? params.get(path) : undefined;
    if (param === undefined) continue;
    const last = path.split("/").at(-1) ?? "";
    for (const response of successes(doc, op.node).responses) {
      const schema = jsonSchema(doc, response);
      const at = firstItemPath(doc, schema, param, last);
      const ref = at && at.at(-1) !== "0" ? refOf(rawAt(doc, schema, at)) : undefined;
      if (ref !== undefined && !out.has(ref)) out.set(ref, { producer: op, path: at! });
    }
  }
  return out;
}

/** The names of the top-level properties an example body holds. */
function exampleKeys(doc: unknown, media: Node): string[] {
  const all = [
    media.example,
    ...Object.values(isNode(media.examples) ? media.examples : {})
      .map((e) => deref(doc, e)).map((e) => isNode(e) ? e.value : undefined),
  ];
  return all.flatMap((e) => isNode(e) ? Object.keys(e) : []);
}

/** Whether a type gives its value: an enum, a const, a default, an example. */
function givesValue(p: unknown): boolean {
  return isNode(p) && (Array.isArray(p.enum) || "const" in p || "default" in p ||
    p.example !== undefined || Array.isArray(p.examples));
}

/** `op`'s JSON request body: its media type and its top schema, when that has properties. */
function jsonBody(doc: unknown, op: OpenApiOperation): { media: Node; top: Node } | undefined {
  const media = jsonBodyMedia(doc, op.node);
  const top = isNode(media) ? deref(doc, media.schema) : undefined;
  return isNode(media) && isNode(top) && isNode(top.properties) ? { media, top } : undefined;
}

/** The link of body property `name` (schema `raw`) of `op`, if of a type `handles` holds. */
function propertyLink(
  doc: unknown,
  op: OpenApiOperation,
  [name, raw]: [string, unknown],
  handles: Map<string, Handle>,
): BodyLink | undefined {
  // An array of the type is sent the one item.
  const each = isNode(raw) && raw.type === "array";
  const one = each ? raw.items : raw;
  const handle = handles.get(refOf(one) ?? "");
  if (!handle || [raw, one, deref(doc, one)].some(givesValue)) return undefined;
  // A call on the listed collection itself (its create, an item's update) makes or names its own.
  const listed = handle.producer.template.replace(/\/$/, "");
  if (op.template === listed || op.template.startsWith(`${listed}/`)) return undefined;
  // Said as body_links.ts says an array's: `lamps[]`.
  const link: BodyLink = { param: name, ...handle, from: "listing", body: [name] };
  return each ? { ...link, param: `${name}[]`, each } : link;
}

/** The links of `op`'s body properties it sends of a type a listing's items are addressed by. */
function opLinks(doc: unknown, op: OpenApiOperation, handles: Map<string, Handle>): BodyLink[] {
  const { media, top } = jsonBody(doc, op) ?? {};
  if (!media || !top) return [];
  // What the body sends: its required properties and those of its examples.
  const sent = new Set([
    ...Array.isArray(top.required) ? top.required : [],
    ...exampleKeys(doc, media),
  ]);
  return Object.entries(top.properties as Node).filter(([name]) => sent.has(name))
    .map((entry) => propertyLink(doc, op, entry, handles))
    .filter((link) => link !== undefined);
}

/**
 * `linked`, each operation's body links so far, with those of its body
 * properties of the named schema a listing's items are addressed by (see
 * the module) for each property it has none for.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { withRefListedBodyLinks } from "./body_ref_listed.ts";
 * const json = (schema: object, example?: object) => ({ content: { "application/json": { schema, example } } });
 * const key = { $ref: "#/components/schemas/Key" };
 * const doc = {
 *   paths: {
 *     "/variants": { get: { responses: { 200: json({ type: "array", items: { properties: { id: key } } }) } } },
 *     "/variants/{id}": { get: {} },
 *     "/custom": { post: { requestBody: json({ properties: { id: key } }, { id: "get-user:2" }) } },
 *   },
 *   components: { schemas: { Key: { type: "string" } } },
 * };
 * const [variants, variant, custom] = operationsOf(doc);
 * const [link] = withRefListedBodyLinks(doc, [variants, variant, custom], new Map()).get(custom) ?? [];
 * if (link?.producer !== variants || link.path.join() !== "0,id") throw new Error();
 * ```
 */
export function withRefListedBodyLinks(
  doc: Node,
  ops: OpenApiOperation[],
  linked: Map<OpenApiOperation, BodyLink[]>,
): Map<OpenApiOperation, BodyLink[]> {
  const handles = handlesByRef(doc, ops);
  if (handles.size === 0) return linked;
  for (const op of ops) {
    if (op.method === "GET" || op.method === "HEAD") continue;
    const had = linked.get(op) ?? [];
    const links = opLinks(doc, op, handles).filter((l) =>
      !had.some((h) => h.body[0] === l.body[0])
    );
    if (links.length > 0) linked.set(op, [...had, ...links]);
  }
  return linked;
}
