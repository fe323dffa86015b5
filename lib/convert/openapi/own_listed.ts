/**
 * The run's own item in a listing, when the create that made it answers no
 * id (`{ok: true}`, `{success: true}`, 204): a later update or delete
 * of `/roles/{id}` can only find it in `GET /roles`, and the listing's first
 * item is anyone's. Strapi 5 lists its built-in roles first: the run
 * deleted the Authenticated role, and every later sign-up failed. Read from
 * the material, never from a server's names:
 *
 * - a text member the create's body sends (top level) and the listed items
 *   hold under the same name: the run sends its own value there (made per
 *   run, `${vars.name}`) and the capture filters the list on it
 *   (`$.json.roles[?@.name == '${vars.name}'].id`). The parameter's own
 *   member comes first, then a handle (`name`, `title`, `slug`, `email`,
 *   …), then a required one;
 * - else, a listing whose words say it is ordered by creation: the last
 *   item (oldest first, as most APIs append), or the first (newest first);
 * - else nothing tells the run's own from the others: a write of an item
 *   listed inside another (`GET /articles/{id}`'s categories, which the
 *   run put in the article it made) still takes the first; a write of a
 *   top-level collection's item (every user's) is left out, saying why.
 *
 * Only a write (not GET or HEAD) of an item of the listing's own collection:
 * a read changes nothing, and any item serves it (also when the run's create
 * was refused); a parameter named for another collection (`{collection}` of
 * `/fields/{collection}`, `listing_values.ts`) names where the run writes.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { singular } from "../names.ts";
import type { ParamLink } from "./document_links.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { accepts, bodySchema } from "./own_names.ts";
import { plainName } from "./required_props.ts";
import { properties } from "./schema_properties.ts";
import type { YFlow, YMap, YNode } from "../yaml_out.ts";
import { ecmaPattern } from "../../_util/regex_dialect.ts";

/** Plain names of a member that names an item: what a client chooses when it makes one. */
const HANDLES = new Set([
  "name",
  "title",
  "slug",
  "email",
  "username",
  "login",
  "label",
  "key",
  "code",
  "handle",
  "displayname",
]);
/** What the run sends for a member, as its schema's checks see it (`${vars.name}`'s value). */
const SAMPLE = "-0a1b2c3d";
const READS = new Set(["GET", "HEAD"]);

/**
 * The listing link of `op`'s parameter for an item `link.after` created
 * without answering its id (see the module): filtered on a member the
 * create sends (`match`), the last or first item by the listing's order, or
 * a write marked `ambiguous` with why; a read's link as it is.
 *
 * @example
 * ```ts
 * import { ownListedLink } from "./own_listed.ts";
 * import { operationsOf } from "./operations.ts";
 * const text = { type: "string" };
 * const body = { content: { "application/json": { schema: { properties: { name: text } } } } };
 * const [list, create, remove] = operationsOf({ paths: {
 *   "/roles": { get: {}, post: { requestBody: body } }, "/roles/{id}": { delete: {} } } });
 * const roles = { properties: { roles: { type: "array", items: { properties: { id: {}, name: text } } } } };
 * const base = { param: "id", producer: list, from: "listing" as const, after: create, path: ["roles", "0", "id"] };
 * if (ownListedLink({}, remove, base, roles).match !== "name") throw new Error();
 * if (ownListedLink({}, remove, { ...base, after: remove }, roles).ambiguous === undefined) throw new Error();
 * ```
 */
export function ownListedLink(
  doc: unknown,
  op: OpenApiOperation,
  link: ParamLink,
  schema: unknown,
): ParamLink {
  const create = link.after;
  const at = link.path.indexOf("0");
  // A read changes nothing: any item serves (the run's own create may have been refused).
  if (!create || at < 0 || READS.has(op.method) || !ownCollection(op, link)) return link;
  const items = itemsAt(doc, schema, link.path.slice(0, at));
  const match = ownMember(doc, create, items, link.param);
  if (match) return { ...link, match };
  const order = creationOrder(doc, link.producer, schema);
  if (order === "last") return { ...link, path: link.path.with(at, "-1") };
  // A list inside an item (an article's categories) holds what the run put in the item it reads.
  if (order === "first" || link.producer.template.includes("{")) return link;
  const noun = singular(create.template.split("/").filter((s) => s !== "").at(-1) ?? "item");
  const ambiguous =
    `no way to tell the run's own ${noun} from the others in ${link.producer.method} ${link.producer.template}`;
  return { ...link, ambiguous };
}

/**
 * Whether the listing is of the parameter's own collection (`GET /roles` for `/roles/{id}`), or
 * the read of the item holding it; not one of another collection the parameter is named for
 * (`GET /collections` for `/fields/{collection}`: the run writes in that item, not to it).
 */
function ownCollection(op: OpenApiOperation, link: ParamLink): boolean {
  const collection = op.template.slice(0, op.template.indexOf(`/{${link.param}}`));
  const listing = link.producer.template.replace(/\/$/, "");
  return collection === listing || collection.startsWith(`${listing}/`);
}

/** The items schema of the list at `path` (its property names) in an answer's schema. */
function itemsAt(doc: unknown, schema: unknown, path: string[]): unknown {
  let node = deref(doc, schema);
  for (const name of path) node = properties(doc, node).find(([n]) => n === name)?.[1];
  return isNode(node) ? node.items : undefined;
}

/** The member of the create's body the listed items hold too, that the run can make its own. */
function ownMember(
  doc: unknown,
  create: OpenApiOperation,
  items: unknown,
  param: string,
): string | undefined {
  const body = bodyItem(doc, create);
  if (!body) return undefined;
  const listed = new Set(properties(doc, items).map(([n]) => n));
  const required = Array.isArray(body.required) ? body.required : [];
  // The parameter's own member first: a create naming the item (`{collection}` ← `collection`).
  const rank = (n: string) =>
    plainName(n) === plainName(param)
      ? -1
      : (HANDLES.has(plainName(n)) ? 0 : 2) + (required.includes(n) ? 0 : 1);
  const fit = properties(doc, body).filter(([n, p]) => listed.has(n) && n !== "id" && ownable(n, p))
    .map(([n]) => n);
  return fit.sort((a, b) => rank(a) - rank(b))[0];
}

/**
 * The item a create's JSON body sends: the body's object, else the object (or the list's item)
 * of a branch (`oneOf: [list of items, item]`: Directus's `POST /items/articles`).
 */
function bodyItem(doc: unknown, op: OpenApiOperation): Node | undefined {
  const body = bodySchema(doc, op);
  if (!body) return undefined;
  const branches = [body.oneOf, body.anyOf].filter(Array.isArray).flat();
  for (const branch of [body, ...branches].map((b) => deref(doc, b))) {
    const item = isNode(branch) && branch.type === "array" ? deref(doc, branch.items) : branch;
    if (isNode(item) && properties(doc, item).length > 0) return item;
  }
  return undefined;
}

/** Whether a run's own text fits the member's schema: free text (an email the run's address). */
function ownable(name: string, p: Node): boolean {
  if (p.type !== "string" || p.readOnly === true || Array.isArray(p.enum) || "const" in p) {
    return false;
  }
  if (p.format !== undefined) return p.format === "email" && /e?mail$/.test(plainName(name));
  const value = name + SAMPLE;
  if (typeof p.maxLength === "number" && value.length > p.maxLength) return false;
  try {
    return typeof p.pattern !== "string" || new RegExp(ecmaPattern(p.pattern), "u").test(value);
  } catch {
    return true;
  }
}

/** Words saying a list is ordered by creation; newest first (or descending) puts the newest first. */
const BY_CREATION =
  /\b(?:(?:ordered|sorted)\s+by\s+(?:the\s+)?(?:creation|created|date\s+created)|in\s+(?:the\s+)?order\s+(?:of\s+creation|(?:they\s+were|it\s+was)\s+created)|(?:oldest|newest|most\s+recent)\s+first)/i;
const NEWEST_FIRST = /\b(?:newest|most\s+recent|latest)\s+first\b|\bdescending\b/i;

/** Where the listing's words put what was created last: `last`, `first`, or none said. */
function creationOrder(
  doc: unknown,
  listing: OpenApiOperation,
  schema: unknown,
): "first" | "last" | undefined {
  const node = listing.node;
  const responses = isNode(node.responses) ? Object.values(node.responses) : [];
  const words = [
    node.summary,
    node.description,
    deref(doc, schema),
    ...responses.map((r) => deref(doc, r)),
  ].map((n) => isNode(n) ? n.description : n).filter((t) => typeof t === "string").join(" ");
  const said = BY_CREATION.exec(words);
  if (!said) return undefined;
  return NEWEST_FIRST.test(words.slice(said.index, said.index + 80)) ? "first" : "last";
}

/** Each links map's members to send the run's own value in, by create (linear in the links). */
const sentIndexes = new WeakMap<
  Map<OpenApiOperation, ParamLink[]>,
  Map<OpenApiOperation, string>
>();

function membersByCreate(links: Map<OpenApiOperation, ParamLink[]>) {
  let index = sentIndexes.get(links);
  if (index) return index;
  index = new Map();
  for (const link of [...links.values()].flat()) {
    if (link.after && link.match && !index.has(link.after)) index.set(link.after, link.match);
  }
  sentIndexes.set(links, index);
  return index;
}

/**
 * A create's body fields with the member a listing link finds its item by
 * (`match`) sent as the run's own value: a run var it sends already
 * (`${vars.email}`), else the var `own` makes (`sentMember` reads it back).
 *
 * @example
 * ```ts
 * import { sendOwnMember } from "./own_listed.ts";
 * import { operationsOf } from "./operations.ts";
 * import { ymap } from "../yaml_out.ts";
 * const [create] = operationsOf({ paths: { "/roles": { post: {} } } });
 * const link = { param: "id", producer: create, path: [], from: "listing" as const, after: create, match: "name" };
 * const fields = [["body", ymap([["name", "foo"]])]] as [string, ReturnType<typeof ymap>][];
 * const made: string[] = [];
 * const own = (key: string, value?: string) => (made.push(`${value}`), `${key}_own`);
 * const sent = JSON.stringify(sendOwnMember({}, create, fields, new Map([[create, [link]]]), own));
 * if (!sent.includes("${vars.name_own}") || made[0] !== "foo-${RANDOM.HEX_8}") throw new Error(sent);
 * ```
 */
export function sendOwnMember(
  doc: unknown,
  op: OpenApiOperation,
  fields: [string, YNode][],
  links: Map<OpenApiOperation, ParamLink[]>,
  own: (key: string, value?: string) => string,
): [string, YNode][] {
  const key = membersByCreate(links).get(op);
  const at = fields.findIndex(([f]) => f === "body");
  const body = sentItem(fields[at]?.[1]);
  if (!key || !body) return fields;
  const value = body.entries.find(([k]) => k === key)?.[1];
  const sent = typeof value === "string" && RUN_VAR.test(value)
    ? value
    : `\${vars.${own(key, ownValue(doc, op, key, value))}}`;
  const entries = body.entries.map(([k, v]): [string, YNode] => [k, k === key ? sent : v]);
  if (value === undefined) entries.push([key, sent]);
  const item: YMap = { kind: "map", entries };
  const out = [...fields];
  const list = out[at][1];
  out[at] = ["body", Array.isArray(list) ? [item, ...list.slice(1)] : item];
  return out;
}

/**
 * The run's own value of a member the body gave `value`: made per run
 * already (`title-${RANDOM.HEX_8}`), else the document's text with a suffix
 * (`Loja Catete-${RANDOM.HEX_8}`: its form kept) where the schema takes it;
 * none (the var's own name with a suffix) else.
 */
function ownValue(doc: unknown, op: OpenApiOperation, key: string, value: YNode | undefined) {
  if (typeof value !== "string" || value === "") return undefined;
  if (value.includes("${")) return value;
  const property = properties(doc, bodyItem(doc, op)).find(([n]) => n === key)?.[1];
  return accepts(doc, property, value) ? `${value}-\${RANDOM.HEX_8}` : undefined;
}

/**
 * The expression a create's step (`step`, its node) sends as `member` of
 * its body, when a var (`sendOwnMember`); none else.
 *
 * @example
 * ```ts
 * import { sentMember } from "./own_listed.ts";
 * import { ymap } from "../yaml_out.ts";
 * const step = ymap([["request", ymap([["body", ymap([["name", "${vars.name}"]])]])]]);
 * if (sentMember(step, "name") !== "${vars.name}" || sentMember(undefined, "name")) throw new Error();
 * ```
 */
export function sentMember(step: YMap | undefined, member: string): string | undefined {
  const request = step?.entries.find(([k]) => k === "request")?.[1];
  const body = isYMap(request) ? request.entries.find(([k]) => k === "body")?.[1] : undefined;
  const value = sentItem(body)?.entries.find(([k]) => k === member)?.[1];
  return typeof value === "string" && RUN_VAR.test(value) ? value : undefined;
}

const RUN_VAR = /^\$\{vars\.[A-Za-z_][\w-]*\}$/;

function isYMap(node: YNode | undefined): node is YMap {
  return node !== null && typeof node === "object" && !Array.isArray(node) && node.kind === "map";
}

/** The item a body sends: its map, or the first of a list of them (`[{}]`); none else. */
function sentItem(body: YNode | undefined): YMap | YFlow | undefined {
  const item = Array.isArray(body) ? body[0] : body;
  const map = item !== null && typeof item === "object" && !Array.isArray(item);
  return map && (item.kind === "map" || item.kind === "flow") ? item : undefined;
}
