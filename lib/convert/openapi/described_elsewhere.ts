/**
 * A required member a request schema names but does not describe, sent as
 * the document describes that name elsewhere. LemonLDAP::NG's Manager API
 * (measured by hand: docs/real-servers.md) has its replace of an OpenID
 * Connect relying party take `OidcRpReplace`, which requires
 * `redirectUris` and lists no such property; its create's `OidcRp`
 * describes it (`type: array, items: {type: string, format: uri}`). Sent
 * as made-up text, the replace was refused 400 "redirectUris must be an
 * array". The evidence is the document's own: every named schema that
 * describes a member of that name gives it one type (and its items one
 * type: `OidcOptions` says `redirectUris` is an array of text too), and the
 * first of them is sent; where two types differ, or none is described, the
 * member stays a text.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/** A description's type and its items' type, which two descriptions of one member must share. */
function shapeOf(n: Node): string {
  const items = isNode(n.items) ? n.items : undefined;
  return JSON.stringify([n.type, items?.type, items?.$ref, n.$ref]);
}

/** Each document's member name → its first description, or null where their types differ. */
const describedOf = new WeakMap<Node, Map<string, Node | null>>();

/**
 * The description the document's named schemas give a member `name` (see
 * the module), dereferenced one level; undefined when none does or two
 * give it different types.
 *
 * @example
 * ```ts
 * import { describedElsewhere } from "./described_elsewhere.ts";
 * const uris = { type: "array", items: { type: "string", format: "uri" } };
 * const doc = { components: { schemas: {
 *   Rp: { properties: { redirectUris: uris, name: { type: "string" } } },
 *   Options: { properties: { redirectUris: { type: "array", items: { type: "string" } } } },
 *   Other: { properties: { name: { type: "integer" } } },
 * } } };
 * if (describedElsewhere(doc, "redirectUris") !== uris) throw new Error();
 * if (describedElsewhere(doc, "name") !== undefined || describedElsewhere(doc, "x") !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function describedElsewhere(doc: unknown, name: string): Node | undefined {
  if (!isNode(doc)) return undefined;
  let index = describedOf.get(doc);
  if (!index) describedOf.set(doc, index = indexOf(doc));
  return index.get(name) ?? undefined;
}

/** Every named schema's members (its own and its `allOf` parts'), each name's first description. */
function indexOf(doc: Node): Map<string, Node | null> {
  const index = new Map<string, Node | null>();
  const texts = new Map<string, string>();
  const components = isNode(doc.components) ? doc.components : {};
  const schemas = isNode(components.schemas) ? components.schemas : {};
  const resolve = (n: unknown): unknown => {
    const ref = isNode(n) && typeof n.$ref === "string" ? n.$ref : undefined;
    const at = ref?.startsWith("#/components/schemas/") ? ref.slice(21) : undefined;
    return at !== undefined && Object.hasOwn(schemas, at) ? schemas[at] : n;
  };
  for (const schema of Object.values(schemas)) {
    const parts = isNode(schema) && Array.isArray(schema.allOf)
      ? [schema, ...schema.allOf]
      : [schema];
    for (const part of parts.map(resolve)) {
      const properties = isNode(part) && isNode(part.properties) ? part.properties : {};
      for (const [member, described] of Object.entries(properties)) {
        const own = resolve(described);
        if (!isNode(own)) continue;
        const text = shapeOf(own);
        const known = texts.get(member);
        if (known === undefined) {
          texts.set(member, text);
          index.set(member, own);
        } else if (known !== text) index.set(member, null);
      }
    }
  }
  return index;
}
