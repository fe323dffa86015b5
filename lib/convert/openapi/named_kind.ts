/**
 * A kind the document names only in words. A text that picks a kind of
 * something (a `metadata_kind` parameter "The kind of metadata", a `kind`
 * property "Name of the metadata"), with no value of the document's, takes
 * the first name the document's descriptions write as code right before
 * that noun: PowerDNS's metadata kinds are listed nowhere, and "string"
 * was refused (422), but its Zone schema says "The SOA-EDIT metadata item".
 * The text must pick a kind of that noun by the document's structure too:
 * its name spells the noun, or it is a property of the schema named for it
 * (the document of Microsoft Graph says "the type of the request" of many a
 * `type`, and writes "the `POST` request" elsewhere).
 * The schemas' words are read first: they describe what an object holds,
 * while an operation's may name a kind it ignores ("does not take into
 * account the API-RECTIFY metadata", one PowerDNS refuses to set).
 * Evidence, not a guess: the text's own name says it is a kind (it ends in
 * `kind` or `type`), its description names the noun, and the document
 * calls `SOA-EDIT` one of them. A name is code: capitals joined by `-` or
 * `_`; "the JSON metadata" is prose, and a word in backticks too often an
 * example of something else ("the `POST` request" in Microsoft Graph's).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/** A text's own name that says it picks a kind: `kind`, `metadata_kind`, `recordType`. */
const KIND_NAME = /(?:^|[_.-]|[a-z])(?:kind|type)$|^(?:kind|type)$/i;

/** "The kind of metadata", "Name of the metadata": the noun whose kind is picked. */
const KIND_OF = /\b(?:kind|type|sort|name)\s+of\s+(?:the\s+|a\s+|this\s+)?([a-z][a-z-]{2,40})\b/i;

/** Nodes read at most when a document is searched for a name (a large one stops there). */
const MAX_NODES = 200_000;

/** A name written as code right before `noun` (plural too): `SOA-EDIT metadata`. */
function namedBefore(noun: string): RegExp {
  const escaped = noun.replace(/[-]/g, "\\-");
  return new RegExp(`(?:^|[\\s(“"'])([A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+)\\s+${escaped}s?\\b`);
}

/** The name `re` finds in a description, if any. */
function nameIn(description: unknown, re: RegExp): string | null {
  const m = typeof description === "string" ? re.exec(description) : null;
  return m ? m[1] : null;
}

/** Each document's first name per noun, read once (null: none). */
const namesOf = new WeakMap<Node, Map<string, string | null>>();

/** The first description naming a `noun` as code, breadth first: the schemas', then the document's. */
function documentName(doc: Node, noun: string): string | undefined {
  const known = namesOf.get(doc) ?? new Map<string, string | null>();
  namesOf.set(doc, known);
  if (known.has(noun)) return known.get(noun) ?? undefined;
  const re = namedBefore(noun);
  let found: string | null = null;
  const components = isNode(doc.components) ? doc.components.schemas : undefined;
  const queue: unknown[] = [doc.definitions, components, doc];
  for (let read = 0; read < queue.length && read < MAX_NODES && found === null; read++) {
    const node = queue[read];
    if (Array.isArray(node)) queue.push(...node);
    if (!isNode(node)) continue;
    found = nameIn(node.description, re);
    for (const value of Object.values(node)) if (typeof value === "object") queue.push(value);
  }
  known.set(noun, found);
  return found ?? undefined;
}

/**
 * The kind to send for text `name` (a parameter's, described by
 * `description`, or a property's) whose schema `schema` gives no value: a name
 * the document writes as code before the noun the description names (see
 * the module); none otherwise.
 *
 * @example
 * ```ts
 * import { namedKind } from "./named_kind.ts";
 * const doc = { definitions: { Zone: { properties: { soa_edit: { type: "string",
 *   description: "The SOA-EDIT metadata item" } } }, Metadata: { properties: { kind: {} } } } };
 * const param = { type: "string" };
 * if (namedKind(doc, "metadata_kind", param, "The kind of metadata") !== "SOA-EDIT") throw new Error();
 * const property = { type: "string", description: "Name of the metadata" };
 * if (namedKind(doc, "kind", property) !== "SOA-EDIT") throw new Error();
 * if (namedKind(doc, "name", property) !== undefined) throw new Error();
 * if (namedKind(doc, "kind", { description: "Name of the zone" }) !== undefined) throw new Error();
 * ```
 */
export function namedKind(
  doc: unknown,
  name: string,
  schema: unknown,
  description?: unknown,
): string | undefined {
  if (!isNode(doc) || !KIND_NAME.test(name)) return undefined;
  const s = isNode(schema) ? schema : {};
  if (s.type !== undefined && s.type !== "string") return undefined;
  const gives = ["example", "examples", "default", "const", "enum", "format", "pattern"];
  if (gives.some((k) => Object.hasOwn(s, k))) return undefined;
  const words = [description, s.description].find((d) => typeof d === "string" && KIND_OF.test(d));
  const noun = typeof words === "string" ? KIND_OF.exec(words)?.[1]?.toLowerCase() : undefined;
  return noun && isKindOf(doc, name, noun) ? documentName(doc, noun) : undefined;
}

/** The schemas of a document by name, lower case (Swagger 2.0's definitions, OpenAPI 3's). */
function schemasOf(doc: Node): Map<string, unknown> {
  const components = isNode(doc.components) ? doc.components.schemas : undefined;
  const all = {
    ...(isNode(doc.definitions) ? doc.definitions : {}),
    ...(isNode(components) ? components : {}),
  };
  return new Map(Object.entries(all).map(([key, schema]) => [key.toLowerCase(), schema]));
}

/**
 * Whether text `name` picks a kind of `noun` by the document's structure, not only by its words:
 * its name spells the noun (`metadata_kind`), or it is a property of the schema named for it
 * (`kind` of `Metadata`). "The type of the request" in a property `type` of another object is not.
 */
function isKindOf(doc: Node, name: string, noun: string): boolean {
  const stem = name.replace(/[_.-]?(?:kind|type)$/i, "").replace(/[_.-]/g, "").toLowerCase();
  if (stem === noun.replace(/-/g, "")) return true;
  const schema = schemasOf(doc).get(noun);
  return isNode(schema) && isNode(schema.properties) && Object.hasOwn(schema.properties, name);
}

/**
 * Whether optional property `name` (schema `p`) of a request's object that
 * lists no `required` at all is sent all the same: its `enum` (PowerDNS's
 * zone needs its `kind`), or a kind the document names (its metadata needs
 * one).
 *
 * @example
 * ```ts
 * import { sentUnlisted } from "./named_kind.ts";
 * const doc = { x: { description: "The SOA-EDIT metadata item" },
 *   definitions: { Metadata: { properties: { kind: {} } } } };
 * if (!sentUnlisted(doc, "kind", { type: "string", enum: ["Native"] })) throw new Error();
 * if (!sentUnlisted(doc, "kind", { type: "string", description: "Name of the metadata" })) throw new Error();
 * if (sentUnlisted(doc, "note", { type: "string", description: "Name of the metadata" })) throw new Error();
 * ```
 */
export function sentUnlisted(doc: unknown, name: string, p: Node): boolean {
  if (Array.isArray(p.enum) && p.enum.length > 0) return true;
  return namedKind(doc, name, p) !== undefined;
}
