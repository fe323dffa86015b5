/**
 * The name a client chooses for what it creates is the run's own: where a
 * create's items are addressed by a property of its request body (Unleash's
 * `{featureName}` ← the created feature's `name`), the document's example
 * (`disable-comments`) is sent as `disable-comments-${RANDOM.HEX_8}`. Every
 * flow that needs one makes its own (the create is copied into each, and
 * flows run at once), and so does a second run: with the example itself
 * all but the first were refused (409: the name exists). The evidence is
 * the links, never the key's name: the property a later path's own (last)
 * parameter is read from (not `type` of `/tags/{type}/{value}`, a tag type
 * that exists), or, for an item handed back only as a `Location`, the body's
 * one required text property (`POST /context {name}` → `/context/{name}`).
 * A value the schema's `pattern`, `maxLength` or `enum` would refuse stays as it is.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { YNode } from "../yaml_out.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import type { ParamLink } from "./document_links.ts";
import { jsonBodyMedia } from "./json_body.ts";
import { ecmaPattern } from "../../_util/regex_dialect.ts";

/** What a suffix adds, as a sample for the schema's checks. */
const SAMPLE = "-0a1b2c3d";

/**
 * The JSON request body schema of an operation, dereferenced.
 *
 * @example
 * ```ts
 * import { bodySchema } from "./own_names.ts";
 * import { operationsOf } from "./operations.ts";
 * const requestBody = { content: { "application/json": { schema: { type: "object" } } } };
 * const [op] = operationsOf({ paths: { "/roles": { post: { requestBody } } } });
 * if (bodySchema({}, op)?.type !== "object") throw new Error();
 * ```
 */
export function bodySchema(doc: unknown, op: OpenApiOperation): Node | undefined {
  const media = jsonBodyMedia(doc, op.node);
  const schema = isNode(media) ? deref(doc, media.schema) : undefined;
  return isNode(schema) ? schema : undefined;
}

/**
 * Each links map's links to an item's own (last) parameter by their
 * producer, made once per map (a document of 20,000 operations stays linear).
 */
const indexes = new WeakMap<
  Map<OpenApiOperation, ParamLink[]>,
  Map<OpenApiOperation, ParamLink[]>
>();

function byProducer(
  links: Map<OpenApiOperation, ParamLink[]>,
): Map<OpenApiOperation, ParamLink[]> {
  let index = indexes.get(links);
  if (index) return index;
  index = new Map();
  for (const [consumer, list] of links) {
    // Only the item's own parameter, the last of its path: one before it (`{type}` of
    // `/tags/{type}/{value}`) names something the item belongs to, which exists already.
    const own = [...consumer.template.matchAll(/\{([^}]+)\}/g)].at(-1)?.[1];
    for (const link of list.filter((l) => l.param === own)) {
      index.set(link.producer, [...index.get(link.producer) ?? [], link]);
    }
  }
  indexes.set(links, index);
  return index;
}

/**
 * The top-level body properties of `op` that name what it creates, by the
 * links that read them (see the module).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { ownNameKeys } from "./own_names.ts";
 * const ops = operationsOf({ paths: { "/features": { post: {} }, "/features/{featureName}": { get: {} } } });
 * const links = new Map([[ops[1], [{ param: "featureName", producer: ops[0], path: ["name"], from: "parent" as const }]]]);
 * if ([...ownNameKeys({}, ops[0], links)].join() !== "name") throw new Error();
 * ```
 */
export function ownNameKeys(
  doc: unknown,
  op: OpenApiOperation,
  links: Map<OpenApiOperation, ParamLink[]>,
): Set<string> {
  const keys = new Set<string>();
  const schema = bodySchema(doc, op);
  for (const link of byProducer(links).get(op) ?? []) {
    if (link.from === "listing") continue;
    if (link.from !== "location" && link.path.length === 1) keys.add(link.path[0]);
    if (link.from !== "location" || !schema || !Array.isArray(schema.required)) continue;
    const props = isNode(schema.properties) ? schema.properties : {};
    const texts = schema.required.filter((k) => {
      const p = deref(doc, props[k]);
      return isNode(p) && p.type === "string" && !Array.isArray(p.enum);
    });
    if (texts.length === 1) keys.add(texts[0]);
  }
  keys.delete("id");
  return keys;
}

/**
 * A request's body fields with each own name of `keys` made the run's
 * (`name: disable-comments-${RANDOM.HEX_8}`); a value that reads a var,
 * or that the property's `pattern` or `maxLength` would refuse with the
 * suffix, as it is.
 *
 * @example
 * ```ts
 * import { ownNames } from "./own_names.ts";
 * import { ymap } from "../yaml_out.ts";
 * const fields = ownNames({}, undefined, [["body", ymap([["name", "disable-comments"], ["type", "release"]])]], new Set(["name"]));
 * const text = JSON.stringify(fields);
 * if (!text.includes("disable-comments-${RANDOM.HEX_8}") || !text.includes('"release"')) throw new Error(text);
 * ```
 */
export function ownNames(
  doc: unknown,
  op: OpenApiOperation | undefined,
  fields: [string, YNode][],
  keys: Set<string>,
): [string, YNode][] {
  if (keys.size === 0) return fields;
  const schema = op && bodySchema(doc, op);
  const props = schema && isNode(schema.properties) ? schema.properties : {};
  return fields.map(([field, node]): [string, YNode] => {
    if (field !== "body" || node === null || typeof node !== "object" || Array.isArray(node)) {
      return [field, node];
    }
    if (node.kind !== "map") return [field, node];
    const entries = node.entries.map(([k, v]): [string, YNode] =>
      keys.has(k) && typeof v === "string" && !v.includes("${") && accepts(doc, props[k], v)
        ? [k, `${v}-\${RANDOM.HEX_8}`]
        : [k, v]
    );
    return [field, { ...node, entries }];
  });
}

/**
 * Whether the property's schema takes the value with a suffix (its `pattern`, its `maxLength`);
 * an `enum` or `const` lists every value it takes (SReview's talk `state`: "Not in enum list").
 *
 * @example
 * ```ts
 * import { accepts } from "./own_names.ts";
 * if (!accepts({}, { type: "string" }, "foo") || accepts({}, { maxLength: 5 }, "foo")) throw new Error();
 * ```
 */
export function accepts(doc: unknown, property: unknown, value: string): boolean {
  const p = deref(doc, property);
  if (!isNode(p)) return true;
  if (Array.isArray(p.enum) || "const" in p) return false;
  const suffixed = value + SAMPLE;
  if (typeof p.maxLength === "number" && suffixed.length > p.maxLength) return false;
  if (typeof p.pattern !== "string") return true;
  try {
    return new RegExp(ecmaPattern(p.pattern), "u").test(suffixed);
  } catch {
    return true;
  }
}
