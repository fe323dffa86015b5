/**
 * The number of the item a flow makes, where the client chooses it: a
 * desk study of Swagger's Petstore v3 server (docs/real-servers.md), which
 * keeps the `id` each `POST /pet` sends (none fails; one that exists
 * replaces that pet) and updates at the collection path, `PUT /pet`, the
 * pet whose `id` the body names.
 *
 * - A create whose item's path parameter is read back from a top-level
 *   number of its answer that its body sends too (`POST /pet {id: 10}`,
 *   `{petId}` ← `$.json.id`) sends a number of the run's own,
 *   `${RANDOM.DIGITS_13}` (9 digits unless the schema says `int64`; none
 *   past its `maximum`), not the document's example: the example is an
 *   item the server may hold already (the seeded pet 10), which the run
 *   would replace, then delete. A server that numbers items itself ignores it.
 * - A PUT or PATCH to that collection path whose body sends that property
 *   (`PUT /pet {id}`) sends the created item's, captured from the create:
 *   it updates the run's item, not the example's.
 *
 * @module
 */
import { isNode, member, type Node } from "../../check/openapi_operations.ts";
import type { YMap, YNode } from "../yaml_out.ts";
import type { BodyFill } from "./body_fill.ts";
import { captureSource } from "./capture_source.ts";
import type { ParamLink } from "./document_links.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";

/** What the fill reads of the shared state: the document and each operation's links. */
export interface OwnItemShared {
  doc: unknown;
  inferred: { params: ReadonlyMap<OpenApiOperation, ParamLink[]> };
}

function isYMap(node: YNode): node is YMap {
  return node !== null && typeof node === "object" && !Array.isArray(node) && node.kind === "map";
}

/** The links (each operation's) whose producer is `create`, read from a top-level property. */
function linksOf(shared: OwnItemShared, create: OpenApiOperation): ParamLink[] {
  const out: ParamLink[] = [];
  for (const links of shared.inferred.params.values()) {
    for (const link of links) {
      if (link.producer === create && link.path.length === 1 && link.from !== "location") {
        out.push(link);
      }
    }
  }
  return out;
}

/**
 * The body members of `create` whose number the client chooses (see the
 * module): those a link reads back from the top of its answer. A number
 * sent there is the item's own, not a key the server makes.
 *
 * @example
 * ```ts
 * import { clientNumberedKeys } from "./own_item.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const create = { role: "create", template: "/pet", node: {} } as OpenApiOperation;
 * const read = { template: "/pet/{petId}" } as OpenApiOperation;
 * const link = { param: "petId", producer: create, path: ["id"], from: "parent" as const };
 * const keys = clientNumberedKeys({ doc: {}, inferred: { params: new Map([[read, [link]]]) } }, create);
 * if (!keys.has("id")) throw new Error();
 * ```
 */
export function clientNumberedKeys(shared: OwnItemShared, create: OpenApiOperation): Set<string> {
  return new Set(linksOf(shared, create).map((link) => link.path[0]));
}

/** The schema of `key` in `create`'s JSON request body, or undefined. */
function bodyProperty(doc: unknown, create: OpenApiOperation, key: string): Node | undefined {
  const body = deref(doc, create.node.requestBody);
  const content = isNode(body) && isNode(body.content) ? body.content : {};
  const type = Object.keys(content).find((t) => /[/+]json$/i.test(t));
  const schema = deref(doc, member(type === undefined ? undefined : content[type], "schema"));
  const property = isNode(schema) ? deref(doc, member(schema.properties, key)) : undefined;
  return isNode(property) ? property : undefined;
}

/** The run's own number for a property of `schema`, or undefined when its maximum forbids one. */
function ownNumber(schema: Node | undefined): string | undefined {
  const digits = schema?.format === "int64" ? 13 : 9;
  const maximum = typeof schema?.maximum === "number" ? schema.maximum : Infinity;
  return maximum >= 10 ** digits ? `\${RANDOM.DIGITS_${digits}}` : undefined;
}

/** The create at `op`'s collection path, when `op` updates there (PUT or PATCH). */
function createAt(op: OpenApiOperation, steps: Iterable<OpenApiOperation>) {
  if (op.method !== "PUT" && op.method !== "PATCH") return undefined;
  for (const step of steps) {
    if (step.method === "POST" && step.role === "create" && step.template === op.template) {
      return step;
    }
  }
  return undefined;
}

/**
 * Fills `body` (a step's request fields) with the run's own number of
 * the item `op` makes, or the captured number of the item made at the
 * collection path `op` updates (see the module). `stepOf` holds the
 * flow's steps so far; `capture` names a step's capture (and adds it);
 * a capture read is added to `guards`.
 *
 * @example
 * ```ts
 * import { fillOwnItem } from "./own_item.ts";
 * import { operationsOf } from "./operations.ts";
 * import { ymap, type YNode } from "../yaml_out.ts";
 * const pet = { properties: { id: { type: "integer", format: "int64", example: 10 } } };
 * const json = { content: { "application/json": { schema: pet } } };
 * const doc = { paths: { "/pet": { post: { requestBody: json, responses: { 200: json } }, put: { requestBody: json } } } };
 * const [update, create] = operationsOf(doc); // PUT /pet, then POST /pet (a create)
 * const params = new Map([[update, [{ param: "petId", producer: create, path: ["id"], from: "parent" as const }]]]);
 * const made = { fields: [["body", ymap([["id", 10]])]] as [string, YNode][] };
 * fillOwnItem({ doc, inferred: { params } }, { op: create, body: made, guards: [], stepOf: new Map(), capture: () => "" });
 * if (!JSON.stringify(made.fields).includes("${RANDOM.DIGITS_13}")) throw new Error();
 * const sent = { fields: [["body", ymap([["id", 10]])]] as [string, YNode][] };
 * const guards: string[] = [];
 * fillOwnItem({ doc, inferred: { params } }, { op: update, body: sent, guards,
 *   stepOf: new Map([[create, "add_pet"]]), capture: (step, key) => `\${steps.${step}.capture.${key}}` });
 * if (guards[0] !== "${steps.add_pet.capture.petId}") throw new Error(JSON.stringify(guards));
 * ```
 */
export function fillOwnItem(
  shared: OwnItemShared,
  fill: BodyFill,
): void {
  const { op, body, guards, stepOf, capture } = fill;
  const create = op.role === "create" ? op : createAt(op, stepOf.keys());
  if (create === undefined) return;
  const links = linksOf(shared, create);
  const step = stepOf.get(create);
  body.fields = body.fields.map(([field, value]): [string, YNode] => {
    if (field !== "body" || !isYMap(value)) return [field, value];
    const entries = value.entries.map(([key, sent]): [string, YNode] => {
      const link = links.find((l) => l.path[0] === key);
      if (link === undefined || typeof sent !== "number") return [key, sent];
      if (create === op) return [key, ownNumber(bodyProperty(shared.doc, op, key)) ?? sent];
      if (step === undefined) return [key, sent];
      const name = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(link.param) ? link.param : "id";
      const got = capture(step, name, captureSource(link));
      guards.push(got);
      return [key, got];
    });
    return [field, { ...value, entries }];
  });
}
