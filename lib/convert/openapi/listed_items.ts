/**
 * A request body's list of names of things the API makes: a top-level JSON
 * property, a list of text, named for a collection whose items the
 * document's paths address by a parameter (Unleash's bulk switches send
 * `features: [feature-a, feature-b]`, and a feature is
 * `/features/{featureName}`). The document's example names exist nowhere
 * (404), so a flow that holds a value for that parameter sends it instead
 * (flow.ts). Such an operation acts on the items it lists, and may remove
 * them (`POST /projects/{projectId}/archive` takes the same list as a
 * switch, and nothing in the document tells the two apart): it runs among
 * the deletes, after the reads and updates of those items (`stepOrder`).
 * The evidence is the property's place in the document (a collection's
 * noun), never a server's name for it.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { collectionNouns, plainNoun } from "./collection_nouns.ts";
import { deref } from "./examples.ts";
import { properties } from "./schema_properties.ts";
import type { YNode } from "../yaml_out.ts";
import { jsonBodySchema } from "./json_body.ts";

/** Whether a schema is a list of free text: no enum, format or pattern (those name no item). */
function textList(doc: unknown, p: Node): boolean {
  if (p.type !== "array" || p.readOnly === true) return false;
  const item = deref(doc, p.items);
  return isNode(item) && (item.type === "string" || item.type === undefined) &&
    !Array.isArray(item.enum) && item.format === undefined && item.pattern === undefined;
}

/**
 * The top-level properties of an operation's JSON body that list names of
 * a collection's items, each with that collection's noun (see the module).
 *
 * @example
 * ```ts
 * import { listedItems } from "./listed_items.ts";
 * const body = { content: { "application/json": { schema: { properties: {
 *   features: { type: "array", items: { type: "string" } }, tags: { type: "array", items: { type: "string" } } } } } } };
 * const doc = { paths: { "/features/{featureName}": {}, "/bulk": { post: { requestBody: body } } } };
 * const got = listedItems(doc, doc.paths["/bulk"].post);
 * if (JSON.stringify(got) !== '[["features","feature"]]') throw new Error(JSON.stringify(got));
 * ```
 */
export function listedItems(doc: unknown, node: Node): [string, string][] {
  if (!isNode(node.requestBody)) return [];
  const nouns = collectionNouns(doc);
  const lists = properties(doc, jsonBodySchema(doc, node)).filter(([, p]) => textList(doc, p));
  const named = lists.filter(([name]) => nouns.has(plainNoun(name)));
  // An update of many sent to a collection's own path lists that collection's items (many_update.ts).
  const own = named.length === 0 && lists.length === 1 ? updatedCollection(doc, node) : undefined;
  if (own !== undefined) return [[lists[0][0], own]];
  return named.map(([name]) => [name, plainNoun(name)]);
}

/**
 * The noun of the collection whose own path (`/roles`, its items at
 * `/roles/{id}`) `node` is the PATCH or DELETE of, if it is one.
 */
function updatedCollection(doc: unknown, node: Node): string | undefined {
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : {};
  // Its update of many, or its delete of many (many_delete.ts gives that the update's list).
  const template = Object.keys(paths).find((t) =>
    isNode(paths[t]) && (paths[t].patch === node || paths[t].delete === node)
  );
  const last = template?.split("/").at(-1);
  if (!template || !last || last.startsWith("{")) return undefined;
  const items = Object.keys(paths).some((t) =>
    /^\{[^}]+\}$/.test(t.slice(template.length + 1)) &&
    t.startsWith(`${template}/`)
  );
  return items ? plainNoun(last) : undefined;
}

/**
 * The parameter a path addresses an item of the noun's collection by:
 * `featureName` of `/projects/{projectId}/features/{featureName}` for `feature`.
 *
 * @example
 * ```ts
 * import { itemParam } from "./listed_items.ts";
 * if (itemParam("/projects/{projectId}/features/{featureName}/tags", "feature") !== "featureName") throw new Error();
 * if (itemParam("/projects/{projectId}", "feature") !== undefined) throw new Error();
 * ```
 */
export function itemParam(template: string, noun: string): string | undefined {
  const segments = template.split("/");
  for (let i = 0; i + 1 < segments.length; i++) {
    const param = /^\{([^}]+)\}$/.exec(segments[i + 1])?.[1];
    if (param !== undefined && !segments[i].startsWith("{") && plainNoun(segments[i]) === noun) {
      return param;
    }
  }
  return undefined;
}

/**
 * How deep the listed items' own delete is (`DELETE /a/{id}`: 3), the
 * shallowest of them; none when nothing deletes such an item. An operation
 * listing them runs among the deletes just before that one (`stepOrder`):
 * after the deletes of what is under the items, before the items' own.
 *
 * @example
 * ```ts
 * import { itemDeleteDepth } from "./listed_items.ts";
 * const doc = { paths: { "/p/{p}/features/{name}": { delete: {} }, "/features/{name}/tags": { delete: {} } } };
 * if (itemDeleteDepth(doc, "feature") !== 5 || itemDeleteDepth(doc, "tag") !== undefined) throw new Error();
 * ```
 */
export function itemDeleteDepth(doc: unknown, noun: string): number | undefined {
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : {};
  let found: number | undefined;
  for (const [template, item] of Object.entries(paths)) {
    if (!isNode(item) || !isNode(item.delete)) continue;
    const segments = template.replace(/\/$/, "").split("/");
    const last = segments.length - 1;
    if (last < 1 || !/^\{[^}]+\}$/.test(segments[last]) || segments[last - 1].startsWith("{")) {
      continue;
    }
    if (plainNoun(segments[last - 1]) !== noun) continue;
    found = Math.min(found ?? Infinity, segments.length);
  }
  return found;
}

/**
 * Fills a request body's lists of names of a collection's items (see
 * {@linkcode listedItems}) with the flow's own item: what `captured` gives
 * for the parameter an earlier step's path addresses that collection's
 * items by (its capture), added to `guards` (the step runs only when it
 * exists). A list the flow made no item for keeps the document's names.
 * A body that is a list of one item keyed by `id`, sent to the collection's
 * own path (`PATCH /items/articles`: many_update.ts), takes the flow's own
 * item's key so.
 *
 * @example
 * ```ts
 * import { fillListed } from "./listed_items.ts";
 * import { ymap, type YNode } from "../yaml_out.ts";
 * const body = { content: { "application/json": { schema: { properties: {
 *   features: { type: "array", items: { type: "string" } } } } } } };
 * const doc = { paths: { "/features/{name}": {}, "/bulk": { post: { requestBody: body } } } };
 * const read = { template: "/features/{name}" };
 * const parts = { fields: [["body", ymap([["features", ["a"]]])]] as [string, YNode][] };
 * const guards: string[] = [];
 * fillListed(doc, doc.paths["/bulk"].post, parts, guards, [read], (op, param) =>
 *   op === read ? `\${steps.make.capture.${param}}` : undefined);
 * if (!JSON.stringify(parts).includes('["${steps.make.capture.name}"]') || guards.length !== 1) {
 *   throw new Error(JSON.stringify(parts));
 * }
 * ```
 */
export function fillListed<O extends { template: string }>(
  doc: unknown,
  node: Node,
  body: { fields: [string, YNode][] },
  guards: string[],
  flowOps: Iterable<O>,
  captured: (op: O, param: string) => string | undefined,
): void {
  const lists = listedItems(doc, node);
  // Read only for a body that lists items: a flow's ops and the document's are many.
  let read: O[] | undefined;
  const ops = () => read ??= [...flowOps];
  body.fields = body.fields.map(([field, value]): [string, YNode] => {
    if (field === "body" && Array.isArray(value)) {
      return [field, ownInBatch(doc, node, value, guards, ops(), captured)];
    }
    if (field !== "body" || !isYMap(value) || lists.length === 0) return [field, value];
    const entries = value.entries.map(([key, listed]): [string, YNode] => {
      const noun = lists.find(([property]) => property === key)?.[1];
      const own = noun === undefined ? undefined : ownItem(ops(), noun, captured);
      if (own === undefined) return [key, listed];
      guards.push(own);
      return [key, [own]];
    });
    return [field, { ...value, entries }];
  });
}

/**
 * A list of one item keyed by `id` sent to a collection's own path (an
 * update of many: many_update.ts), its key the flow's own item's.
 */
function ownInBatch<O extends { template: string }>(
  doc: unknown,
  node: Node,
  list: YNode[],
  guards: string[],
  ops: O[],
  captured: (op: O, param: string) => string | undefined,
): YNode[] {
  const [item] = list;
  const noun = list.length === 1 && isYMap(item) ? updatedCollection(doc, node) : undefined;
  if (noun === undefined || !isYMap(item) || !item.entries.some(([k]) => k === "id")) return list;
  const own = ownItem(ops, noun, captured);
  if (own === undefined) return list;
  guards.push(own);
  return [{ ...item, entries: item.entries.map(([k, v]) => [k, k === "id" ? own : v]) }];
}

/**
 * Where a flow finds its own item of a listed collection (`fillListed`):
 * its own steps first, then each operation of the document whose path
 * reads such an item from a create of its collection (`readsCreated`),
 * which the flow may have copied in (listed_producers.ts).
 *
 * @example
 * ```ts
 * import { thenAll } from "./listed_items.ts";
 * const make = { method: "POST", template: "/features" };
 * const read = { method: "GET", template: "/features/{name}" };
 * const events = { method: "GET", template: "/events/{name}" };
 * const link = { param: "name", producer: make };
 * const got = [...thenAll(new Map([[make, "make"]]), new Map([[events, [link]], [read, [link]]]))];
 * if (got.join() !== [make, read].join()) throw new Error();
 * ```
 */
export function thenAll<O extends Made>(
  stepOf: Map<O, string>,
  params: Map<O, { param: string; producer: Made }[]>,
): Iterable<O> {
  return {
    *[Symbol.iterator]() {
      yield* stepOf.keys();
      let more = readers.get(params) as O[] | undefined;
      if (!more) {
        more = [...params].filter(([op, links]) => links.some((l) => readsCreated(op, l)))
          .map(([op]) => op);
        readers.set(params, more);
      }
      yield* more;
    },
  };
}

/** Each conversion's operations reading an item from a create (`thenAll`), by its links. */
const readers = new WeakMap<object, unknown[]>();

/** What {@linkcode readsCreated} reads of an operation. */
interface Made {
  method: string;
  template: string;
}

/**
 * Whether `reader`'s path addresses an item by `link.param` and that
 * parameter is read from a create of the collection the path names:
 * `/features/{name}` from `POST /projects/{p}/features`, not
 * `/events/{name}` (a feature's events) from a feature's create.
 *
 * @example
 * ```ts
 * import { readsCreated } from "./listed_items.ts";
 * const producer = { method: "POST", template: "/p/{p}/features" };
 * if (!readsCreated({ method: "GET", template: "/features/{name}" }, { param: "name", producer })) throw new Error();
 * if (readsCreated({ method: "GET", template: "/events/{name}" }, { param: "name", producer })) throw new Error();
 * ```
 */
export function readsCreated(reader: Made, link: { param: string; producer: Made }): boolean {
  const segments = reader.template.split("/");
  const at = segments.indexOf(`{${link.param}}`);
  const made = link.producer.template.replace(/\/$/, "").split("/").at(-1) ?? "";
  return at > 0 && link.producer.method === "POST" && !made.startsWith("{") &&
    plainNoun(segments[at - 1]) === plainNoun(made);
}

/** The first capture of a flow's step for the parameter addressing the noun's items. */
function ownItem<O extends { template: string }>(
  ops: O[],
  noun: string,
  captured: (op: O, param: string) => string | undefined,
): string | undefined {
  for (const op of ops) {
    const param = itemParam(op.template, noun);
    const got = param === undefined ? undefined : captured(op, param);
    if (got !== undefined) return got;
  }
  return undefined;
}

function isYMap(node: YNode): node is Extract<YNode, { kind: "map" }> {
  return node !== null && typeof node === "object" && !Array.isArray(node) && node.kind === "map";
}
