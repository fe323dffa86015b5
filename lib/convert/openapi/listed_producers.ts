/**
 * What makes the items a body's list of names names (listed_items.ts), for
 * a flow that has made none: Unleash's bulk tag change
 * (`PUT /projects/{projectId}/tags {features: [...]}`, tag "Tags") sent the
 * document's example names from a flow that held no feature (500). The
 * producer is the one the document's paths already read that item from:
 * the producer of the parameter a path addresses the noun's items by
 * (`{featureName}` of `/projects/{projectId}/features/{featureName}`, the
 * feature's create), copied into the flow as any other producer is
 * (prerequisites.ts). The evidence is the property's place (a collection's
 * noun) and the link the converter inferred for that parameter, never a name.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { jsonBodySchema } from "./json_body.ts";
import { findProperty, properties } from "./schema_properties.ts";
import { jsonSchema, successes } from "./responses.ts";
import type { OpenApiOperation } from "./operations.ts";
import type { ParamLink } from "./document_links.ts";
import { itemParam, listedItems, readsCreated } from "./listed_items.ts";

/** Each conversion's answers, by its links (a conversion has one map of them). */
const known = new WeakMap<Map<OpenApiOperation, ParamLink[]>, Map<Node, OpenApiOperation[]>>();

/**
 * The operations that make an item of each collection `op`'s body lists
 * names of: the create (and what it is read after) the first parameter of
 * the document addressing such an item is read from (`readsCreated`).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { listedProducers } from "./listed_producers.ts";
 * const json = (schema: object) => ({ content: { "application/json": { schema } } });
 * const doc = { paths: {
 *   "/features": { post: {} },
 *   "/features/{name}": { get: {} },
 *   "/tags": { put: { requestBody: json({ required: ["features"], properties: {
 *     features: { type: "array", items: { type: "string" } } } }) } },
 * } };
 * const [create, read, bulk] = operationsOf(doc);
 * const params = new Map([[read, [{ param: "name", producer: create, path: ["name"], from: "property" as const }]]]);
 * if (listedProducers(doc, bulk, params).join() !== [create].join()) throw new Error();
 * ```
 */
export function listedProducers(
  doc: unknown,
  op: OpenApiOperation,
  params: Map<OpenApiOperation, ParamLink[]>,
): OpenApiOperation[] {
  const memo = known.get(params) ?? known.set(params, new Map()).get(params)!;
  const got = memo.get(op.node);
  if (got) return got;
  const out: OpenApiOperation[] = [];
  const sent = sentLists(doc, op.node);
  for (const [name, noun] of listedItems(doc, op.node)) {
    if (!sent.has(name)) continue;
    for (const [reader, links] of params) {
      const param = itemParam(reader.template, noun);
      const link = param === undefined ? undefined : links.find((l) => l.param === param);
      if (!link || link.producer === op || !readsCreated(reader, link)) continue;
      if (numbered(doc, link)) break;
      out.push(...(link.after ? [link.after, link.producer] : [link.producer]));
      break;
    }
  }
  memo.set(op.node, out);
  return out;
}

/**
 * The body's lists the step sends: required, or shown with an example of
 * their own. A list the body leaves out (Directus's `operations` of a flow's
 * update) needs no item made for it.
 */
function sentLists(doc: unknown, node: Node): Set<string> {
  const schema = deref(doc, jsonBodySchema(doc, node));
  const required = isNode(schema) && Array.isArray(schema.required) ? schema.required : [];
  const shown = properties(doc, schema).filter(([, p]) =>
    p.example !== undefined || Array.isArray(p.examples)
  );
  return new Set([...required.map(String), ...shown.map(([n]) => n)]);
}

/**
 * Whether the producer answers the value as a number: no name of a list of
 * text (Unleash's Edge validation lists token secrets, and a personal
 * access token is `/user/tokens/{id}`, an integer).
 */
function numbered(doc: unknown, link: ParamLink): boolean {
  const name = link.path.at(-1) ?? link.search?.[0];
  if (name === undefined) return false;
  return successes(doc, link.producer.node).responses.some((response) => {
    const schema = jsonSchema(doc, response);
    let found: Node | undefined;
    findProperty(doc, schema, (n, p) => n === name && (found = p) !== undefined);
    const typed = isNode(found) ? deref(doc, found) : undefined;
    return isNode(typed) && (typed.type === "integer" || typed.type === "number");
  });
}
