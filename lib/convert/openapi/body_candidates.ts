/**
 * The body properties of an operation that may name another resource, and
 * whether each is sent: the candidates body_links.ts looks a create up for
 * (its module says which are sent and why).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { singular } from "../names.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { relationsRead } from "./related_reads.ts";
import { properties, sentProperties } from "./schema_properties.ts";
import { sentItemList } from "./shown_items.ts";
import { collectionNouns } from "./collection_nouns.ts";
import { isRequiredRelation } from "./relation_member.ts";
import { jsonBodySchema } from "./json_body.ts";
import { looseRelation } from "./unsaid_relation.ts";
import { idNoun as nounOf, idShaped } from "./id_noun.ts";

/**
 * The key a noun is looked up by: singular, plain (`pet_ids` and `Pets` alike).
 *
 * @example
 * ```ts
 * import { nounKey } from "./body_candidates.ts";
 * if (nounKey("Pets") !== nounKey("pet")) throw new Error();
 * ```
 */
export const nounKey = (word: string): string => plainName(singular(word));

/**
 * A link's first place in a body that is a list: the member is set in each of its items.
 *
 * @example
 * ```ts
 * import { LIST_ITEMS } from "./body_candidates.ts";
 * if (LIST_ITEMS !== "[]") throw new Error();
 * ```
 */
export const LIST_ITEMS = "[]";

/**
 * Whether the document shows the property in the body its docs give (an
 * `example` of its own): the body sends such optional properties, but not
 * one naming an item, which must exist (examples.ts), until a create makes it.
 */
function shown(p: Node): boolean {
  return p.example !== undefined || Array.isArray(p.examples) ||
    (isNode(p.items) && p.items.example !== undefined);
}

/** The names a schema requires. */
function requiredOf(doc: unknown, schema: unknown): Set<string> {
  const s = deref(doc, schema);
  const parts = isNode(s) && Array.isArray(s.allOf)
    ? [s, ...s.allOf.map((x) => deref(doc, x))]
    : [s];
  return new Set(parts.flatMap((x) => isNode(x) && Array.isArray(x.required) ? x.required : []));
}

/** A body property that may name another resource: its place, its noun, and whether it is sent. */
export interface Candidate {
  body: string[];
  noun: string;
  each: boolean;
  /** Sent only as a relation of a body that requires nothing: read from what the document shows. */
  loose?: boolean;
  /** Named for its noun alone, a plain `number`: an id only where the create answers one so. */
  idType?: "number";
}

/** Whether a body's list property is sent: required, or examples.ts's `sentItemList`. */
function listsSent(
  doc: unknown,
  schema: unknown,
  required: Set<string>,
): (name: string, p: Node) => boolean {
  const whole = deref(doc, schema);
  const unsaid = isNode(whole) && !Array.isArray(whole.required);
  const nouns = collectionNouns(doc);
  return (name, p) =>
    required.has(name) || sentItemList(name, p, unsaid, nouns, (n) => deref(doc, n));
}

/**
 * The members of each item of list property `name` that name a noun: the
 * item's own `id` one of the list's (an order's `products: [{id,
 * quantity}]`), another its own (a cart's `lines: [{productId}]`).
 */
function listMembers(doc: unknown, name: string, p: Node): Candidate[] {
  if (p.type !== "array") return [];
  const out: Candidate[] = [];
  for (const [member, q] of sentProperties(doc, p.items)) {
    const own = plainName(member) === "id" && idShaped(q);
    const found = own ? { noun: nounKey(name), each: false } : nounOf(member, q);
    if (found && !found.each) out.push({ body: [name, LIST_ITEMS, member], ...found });
  }
  return out;
}

/** What adds a body property naming a noun to `out` when it is sent (see `candidates`). */
function adder(doc: unknown, out: Candidate[], own: string | undefined, read: Set<string>) {
  return (body: string[], p: Node, needed: boolean, loose = false): boolean => {
    const found = nounOf(body.at(-1)!, p);
    const wanted = needed || shown(p) || isRequiredRelation(doc, p) || found?.noun === own ||
      read.has(found?.noun ?? "");
    if (found && wanted) out.push({ body, ...found, ...(loose ? { loose } : {}) });
    return found !== undefined;
  };
}

/** The candidates of a body that is a list: each item's members, as an object body's. */
function listBody(
  doc: unknown,
  list: Node,
  add: ReturnType<typeof adder>,
  out: Candidate[],
): Candidate[] {
  const inner = requiredOf(doc, list.items);
  for (const [member, q] of properties(doc, list.items)) {
    add([LIST_ITEMS, member], q, inner.has(member));
  }
  return out;
}

/**
 * The body properties of `op` that name a noun and are sent (see the
 * module): at the top, or one wrapper deep; never one of its own path's
 * parameters (the path gives that value). An optional one is sent too when
 * the document reads that relation of the item `op` makes (related_reads.ts).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { candidates } from "./body_candidates.ts";
 * const json = (schema: object) => ({ content: { "application/json": { schema } } });
 * const doc = { paths: { "/orders": { post: { requestBody: json({ required: ["petId"],
 *   properties: { petId: { type: "integer" }, note: { type: "string" } } }) } } } };
 * const ops = operationsOf(doc);
 * const [found, ...more] = candidates(doc, ops[0], false, ops);
 * if (found?.noun !== "pet" || found.body.join() !== "petId" || more.length !== 0) {
 *   throw new Error(JSON.stringify(found));
 * }
 * ```
 */
export function candidates(
  doc: unknown,
  op: OpenApiOperation,
  rpc: boolean,
  ops: OpenApiOperation[],
): Candidate[] {
  if (op.method === "GET" || op.method === "HEAD") return [];
  const schema = jsonBodySchema(doc, op.node);
  const required = requiredOf(doc, schema);
  const listSent = listsSent(doc, schema, required);
  const segments = op.template.split("/").filter((s) => s !== "");
  const own = rpc && segments.length > 1 ? nounKey(segments.at(-2)!) : undefined;
  const read = new Set(relationsRead(op, ops).map(nounKey));
  const out: Candidate[] = [];
  const add = adder(doc, out, own, read);
  // A body that is a list of objects: each item's members, as an object body's.
  const list = deref(doc, schema);
  if (isNode(list) && list.type === "array") return listBody(doc, list, add, out);
  const isLoose = looseRelation(list, required, rpc);
  for (const [name, p] of sentProperties(doc, schema)) {
    const loose = isLoose(name);
    if (op.template.includes(`{${name}}`) || add([name], p, required.has(name) || loose, loose)) {
      continue;
    }
    // A list of objects sent (required, or examples.ts's `sentItemList`): its items' ids.
    if (listSent(name, p)) out.push(...listMembers(doc, name, p));
    // A wrapper the body does not send is not sent for its member (Box's optional `parent`).
    if (p.type === "array" || !required.has(name)) continue;
    const inner = requiredOf(doc, p);
    for (const [member, q] of properties(doc, p)) add([name, member], q, inner.has(member));
  }
  return out;
}
