/**
 * The noun a request body property names an id of, by its name (`petId`,
 * `pet_id`, `petIds`, `idKategori`), its description ("the ID of the
 * member", "User ID"), or, when its values are ids (an integer, a UUID, an
 * int64), its own name (`pets`, `permissions`); body_links.ts reads the
 * create of that noun, listed_ids.ts a listing of it nothing makes.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { singular } from "../names.ts";
import { plainName } from "./required_props.ts";

// `petId`, `pet_id`, `petID`, `petIds`: the noun before an id suffix (not `paid`); a noun of
// several words in snake case too (`book_title_id` of `/book_titles`).
const ID_NAME = /^([A-Za-z][A-Za-z0-9_-]*?)(?:Ids?|IDs?|[_-](?:ids?|IDs?|Ids?))$/;
// `idKategori`, `id_kategori`, `IdCategoria`: the id first, the noun after it, as names are often
// written where the noun is not English (not `identity`, `idle`: a capital or `_`/`-` follows).
const ID_FIRST = /^(?:id|Id|ID)(?:[_-]([A-Za-z][A-Za-z0-9_-]*)|([A-Z][A-Za-z0-9]*))$/;
// "the lease ID", "the ID of the member", "the id of a pet"; at a sentence's start too ("The ID
// of the strategy": Unleash's sort order).
const SAID_ID = [
  /\b[Tt]he ([A-Za-z][A-Za-z-]*) ID\b/,
  /\b[Tt]he (?:ID|id|identifier) of (?:the |an? )?([A-Za-z][A-Za-z-]*)/,
];
// A description that is the noun and nothing else ("User ID", "Category identifier."): read
// after the property's name, which says more than "Unique ID" does of `customer_id`.
const SAID_BARE = /^\s*([A-Za-z][A-Za-z-]*) (?:ID|Id|id|identifier)\.?\s*$/;

const nounKey = (word: string) => plainName(singular(word));

/**
 * The noun a body property names an id of (see the module), and whether it
 * holds several; none for a value the document gives (an enum, a const, a
 * default) or a read-only one.
 *
 * @example
 * ```ts
 * import { idNoun } from "./id_noun.ts";
 * const got = idNoun("permissions", { type: "array", items: { type: "string", format: "uuid" } });
 * if (got?.noun !== "permission" || !got.each) throw new Error(JSON.stringify(got));
 * if (idNoun("pet_id", { type: "integer" })?.noun !== "pet") throw new Error();
 * if (idNoun("title", { type: "string" }) !== undefined) throw new Error();
 * ```
 */
export function idNoun(
  name: string,
  p: Node,
): { noun: string; each: boolean; idType?: "number" } | undefined {
  const each = p.type === "array";
  const value = each ? (isNode(p.items) ? p.items : {}) : p;
  if (givesValue(p) || givesValue(value) || p.readOnly === true) return undefined;
  const text = typeof p.description === "string" ? p.description : "";
  const said = SAID_ID.map((re) => re.exec(text)?.[1]).find((n) => n !== undefined);
  const named = ID_NAME.exec(name)?.[1] ?? idFirst(name) ?? SAID_BARE.exec(text)?.[1];
  const noun = said ?? named ?? (idShaped(value) ? name : undefined);
  if (noun !== undefined) return { noun: nounKey(noun), each };
  // A bare noun's `number` (what `@nestjs/swagger` writes for a TypeScript `number`, a TypeORM
  // key too) is an id only where its noun's create answers its id as a `number` (body_links.ts).
  return wholeNumber(value) ? { noun: nounKey(name), each, idType: "number" } : undefined;
}

/** A `number` that says nothing of fractions (no `float`/`double` format, no `multipleOf`). */
function wholeNumber(p: Node): boolean {
  return p.type === "number" && p.format === undefined && p.multipleOf === undefined;
}

/** The noun of a name that puts the id first (`idKategori`, `id_kategori`), if it is one. */
function idFirst(name: string): string | undefined {
  const m = ID_FIRST.exec(name);
  return m === null ? undefined : m[1] ?? m[2];
}

/** Whether the document gives the value itself: an enum, a const, a default. */
function givesValue(p: Node): boolean {
  return Array.isArray(p.enum) || "const" in p || "default" in p;
}

/**
 * An id: an integer, a UUID or an int64 string, or a choice offering an integer (Strapi's
 * relation `oneOf: [{type: integer}, {type: string}]`, "string or id") or a UUID (Directus's
 * `flow: {oneOf: [{format: uuid}, {$ref: Flows}]}`).
 *
 * @example
 * ```ts
 * import { idShaped } from "./id_noun.ts";
 * if (!idShaped({ type: "string", format: "uuid" }) || idShaped({ type: "string" })) throw new Error();
 * ```
 */
export function idShaped(p: Node): boolean {
  const choices = [p.oneOf, p.anyOf].flatMap((c) => Array.isArray(c) ? c.filter(isNode) : []);
  return p.type === "integer" || /^(uuid|u?int(32|64))$/.test(String(p.format ?? "")) ||
    choices.some((c) => c.type === "integer" || c.format === "uuid");
}
