/**
 * A create's body that holds the item's own key: the member its answer
 * holds the id at, which the item's paths read (`POST /flows {id, name}`
 * answering `{data: {id}}`, the item at `/flows/{id}`). The document's
 * example key is one item's: Directus 10's flows', operations', users' and
 * versions' creates sent it, and every second create of the kind (a copy
 * for another flow, a second item for a second delete, a second run on
 * the same instance) named an item that exists (400 "Value for field "id"
 * has to be unique"). The server makes the key it answers, so a create
 * leaves out a constant one the schema does not require. Evidence is where
 * the item's paths read the key from (the links), never the member's name;
 * a value made per run (`${…}`), a key the schema requires and a key the
 * request's own example shows are sent.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { clientNumberedKeys } from "./own_item.ts";
import type { Inferred } from "./prerequisites.ts";
import type { YNode } from "../yaml_out.ts";
import type { BodyFill } from "./body_fill.ts";
import { jsonBodyMedia } from "./json_body.ts";

/** The names a body schema requires, at its top or in a branch of its `allOf`/`anyOf`/`oneOf`. */
function requiredNames(doc: unknown, schema: unknown): Set<string> {
  const s = deref(doc, schema);
  if (!isNode(s)) return new Set();
  const branches = [s.allOf, s.anyOf, s.oneOf].flatMap((b) => Array.isArray(b) ? b : []);
  const parts = [s, ...branches.map((b) => deref(doc, b))].filter(isNode);
  return new Set(parts.flatMap((p) => Array.isArray(p.required) ? p.required.map(String) : []));
}

/**
 * The members the request's own examples show: a key written there is the
 * client's to choose (Mocks Server's variants `{id: "porch:on"}`), unlike
 * one the item's shared schema merely describes.
 */
function shownNames(doc: unknown, media: Node | undefined): Set<string> {
  if (!media) return new Set();
  const named = isNode(media.examples) ? Object.values(media.examples) : [];
  const values = [
    media.example,
    ...named.map((e) => deref(doc, e)).map((e) => isNode(e) ? e.value : e),
  ];
  return new Set(values.filter(isNode).flatMap((v) => Object.keys(v)));
}

/**
 * `fields` of `op`'s step without the body's constant item key (see the
 * module): the last member of each path the links (`inferred`) of the
 * item's own paths (under `op`'s path) read from `op`'s answer, when `op`
 * creates.
 *
 * @example
 * ```ts
 * import { withoutMadeKey } from "./made_key.ts";
 * import { ymap, type YNode } from "../yaml_out.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const create = { role: "create", template: "/flows", node: {} } as OpenApiOperation;
 * const read = { template: "/flows/{id}" } as OpenApiOperation;
 * const link = { param: "id", producer: create, path: ["data", "id"], from: "parent" as const };
 * const fields: [string, YNode][] = [["body", ymap([["id", "2f24"], ["name", "Flow"]])]];
 * const got = withoutMadeKey({}, create, fields, { params: new Map([[read, [link]]]) });
 * if (JSON.stringify(got).includes("2f24") || !JSON.stringify(got).includes("Flow")) throw new Error();
 * ```
 */
export function withoutMadeKey(
  doc: unknown,
  op: OpenApiOperation,
  fields: [string, YNode][],
  inferred: Inferred,
): [string, YNode][] {
  if (op.role !== "create") return fields;
  const answered = new Set<string>();
  // Only the item's own paths (`/flows/{id}…` of `POST /flows`): another collection's path
  // reading a member of this answer (a name) says nothing of this item's key.
  const own = `${op.template.replace(/\/$/, "")}/{`;
  for (const [reader, links] of inferred.params) {
    if (!reader.template.startsWith(own)) continue;
    for (const link of links) {
      if (link.producer === op && link.path.length > 0) answered.add(link.path.at(-1)!);
    }
  }
  if (answered.size === 0) return fields;
  const media = jsonBodyMedia(doc, op.node);
  const required = requiredNames(doc, media?.schema);
  const shown = shownNames(doc, media);
  // A number the answer repeats at its top is the client's own (Petstore's `id`: own_item.ts).
  const numbered = clientNumberedKeys({ doc, inferred }, op);
  const made = (key: string, value: YNode) =>
    answered.has(key) && !required.has(key) && !shown.has(key) &&
    !(numbered.has(key) && typeof value === "number") &&
    (typeof value !== "string" || !value.includes("${"));
  return fields.map(([field, node]): [string, YNode] => {
    if (field !== "body" || node === null || typeof node !== "object" || Array.isArray(node)) {
      return [field, node];
    }
    if (node.kind !== "map") return [field, node];
    return [field, { ...node, entries: node.entries.filter(([k, v]) => !made(k, v)) }];
  });
}

/**
 * {@linkcode withoutMadeKey} as a body fill (body_fills.ts): after the run
 * named its own items (a name made per run is sent), before the fills that
 * read answers.
 *
 * @example
 * ```ts
 * import { fillMadeKey } from "./made_key.ts";
 * import { ymap, type YNode } from "../yaml_out.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const op = { role: "create", template: "/flows", node: {} } as OpenApiOperation;
 * const body = { fields: [["body", ymap([["id", "2f24"]])]] as [string, YNode][] };
 * fillMadeKey({ doc: {}, inferred: { params: new Map() } }, { op, body, guards: [], stepOf: new Map(), capture: () => "" });
 * if (!JSON.stringify(body).includes("2f24")) throw new Error("no link reads it: kept");
 * ```
 */
export function fillMadeKey(
  shared: { doc: unknown; inferred: Inferred },
  fill: BodyFill,
): void {
  fill.body.fields = withoutMadeKey(shared.doc, fill.op, fill.body.fields, shared.inferred);
}
