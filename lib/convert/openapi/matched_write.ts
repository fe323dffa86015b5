/**
 * A write at a collection's own path that acts on the items its body matches sends what the
 * flow's create there sent. MITRE Caldera 5.3.0's document (aiohttp-apispec) has `POST /facts`
 * (a `Fact`, `trait` required) beside `DELETE /facts` (a `Partial-Fact`: the same members, none
 * required: "deletes all facts that match") and `PATCH /facts` (`{criteria, updates}`, each a
 * `Partial-Fact`). Nothing being required, both were sent `{}` and refused 400. The evidence is
 * the document's shape, not a name: a PATCH or DELETE at the very path a create posts to, whose
 * body requires nothing and holds every member the create sent, at its top (a delete's match) or
 * in members of its own that each hold them all (an update's `criteria` and `updates`). The
 * step then sends the create's members there, so it changes or removes the run's own item, not
 * nothing or everyone's; a value the run made anew (`${RANDOM…}`) is read back from the create's
 * answer under its own name, and the step runs only when it was found. A step that sends
 * anything of its own keeps its body.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { type YMap, ymap, type YNode } from "../yaml_out.ts";
import type { BodyFill } from "./body_fill.ts";
import { captureSource } from "./capture_source.ts";
import type { OpenApiOperation } from "./operations.ts";
import { bodySchema } from "./own_names.ts";
import { properties } from "./schema_properties.ts";
import { sentBody } from "./undo_values.ts";

function isYMap(node: YNode | undefined): node is YMap {
  return isNode(node) && (node as { kind?: unknown }).kind === "map";
}

/** Whether `schema` requires no member and holds every one of `names`. */
function holdsAll(doc: unknown, schema: unknown, names: string[]): boolean {
  if (!isNode(schema) || (Array.isArray(schema.required) && schema.required.length > 0)) {
    return false;
  }
  const own = new Set(properties(doc, schema).map(([name]) => name));
  return names.length > 0 && names.every((name) => own.has(name));
}

/**
 * Where the create's members go in the body of a schema `schema` (the operation's): `[]` for its
 * top, else each member whose own schema holds them all; none when neither.
 */
function placesOf(doc: unknown, schema: Node, names: string[]): string[][] {
  if (holdsAll(doc, schema, names)) return [[]];
  if (Array.isArray(schema.required) && schema.required.length > 0) return [];
  return properties(doc, schema).filter(([, p]) => holdsAll(doc, p, names)).map(([n]) => [n]);
}

/**
 * `node` with each text the run makes anew (`${RANDOM…}`) under a key read from the create's
 * answer by that key (`read`); undefined when such a text has no key to read it by (in a list).
 */
function readBack(node: YNode, read: (key: string) => string, key?: string): YNode | undefined {
  if (typeof node === "string" && node.includes("${RANDOM")) {
    return key === undefined ? undefined : read(key);
  }
  if (Array.isArray(node)) {
    return JSON.stringify(node).includes("${RANDOM") ? undefined : node;
  }
  if (!isYMap(node)) return node;
  const entries: [string, YNode][] = [];
  for (const [k, v] of node.entries) {
    const value = readBack(v, read, k);
    if (value === undefined) return undefined;
    entries.push([k, value]);
  }
  return { ...node, entries };
}

/** The create posting to the very path of `op` among the flow's earlier steps. */
function createAt(op: OpenApiOperation, stepOf: BodyFill["stepOf"]) {
  return [...stepOf.keys()].find((o) =>
    o !== op && o.method === "POST" && o.role === "create" && o.template === op.template
  );
}

/**
 * Fills the empty body of a PATCH or DELETE at a create's path with what the create sent (see
 * the module doc).
 *
 * @example
 * ```ts
 * import { fillMatched } from "./matched_write.ts";
 * import { fillUndone } from "./undo_values.ts";
 * import { ymap } from "../yaml_out.ts";
 * const props = { properties: { label: {} } };
 * const schema = (s: object) => ({ requestBody: { content: { "application/json": { schema: s } } } });
 * const post = { method: "POST", role: "create", template: "/tags", node: schema({ ...props, required: ["label"] }) };
 * const del = { method: "DELETE", template: "/tags", node: schema(props) };
 * const stepOf = new Map([[post, "create_tag"]]);
 * const capture = (step: string, key: string) => `\${steps.${step}.capture.${key}}`;
 * const made = { fields: [["body", ymap([["label", "label-${RANDOM.HEX_8}"]])]] };
 * fillUndone({ doc: {} }, { op: post, body: made, guards: [], stepOf, capture } as never);
 * const body = { fields: [["body", ymap([])]] };
 * fillMatched({ doc: {} }, { op: del, body, guards: [], stepOf, capture } as never);
 * if (!JSON.stringify(body).includes('["label","${steps.create_tag.capture.label}"]')) throw new Error();
 * ```
 */
export function fillMatched(shared: { doc: unknown }, fill: BodyFill): void {
  const { op, body, stepOf } = fill;
  if (op.method !== "PATCH" && op.method !== "DELETE") return;
  const at = body.fields.findIndex(([k, v]) => k === "body" && isYMap(v));
  const create = createAt(op, stepOf);
  const sent = create && sentBody(stepOf, create);
  const schema = bodySchema(shared.doc, op);
  if (at < 0 || (body.fields[at][1] as YMap).entries.length > 0 || !isYMap(sent) || !schema) {
    return;
  }
  const places = placesOf(shared.doc, schema, sent.entries.map(([k]) => k));
  const step = stepOf.get(create!)!;
  const read = (key: string) => {
    const got = fill.capture(step, key, captureSource({ path: [key], from: "parent" }));
    if (!fill.guards.includes(got)) fill.guards.push(got);
    return got;
  };
  const values = places.length > 0 ? readBack(sent, read) : undefined;
  if (!isYMap(values)) return;
  const filled = places.some((p) => p.length === 0)
    ? values
    : ymap(places.map(([name]): [string, YNode] => [name, values]));
  body.fields[at] = ["body", filled];
}
