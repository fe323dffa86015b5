/**
 * The index of a document's creates that producers.ts looks a parameter's
 * producer up in: by collection, by noun, by the property names their
 * answers hold, with the listings and item reads beside them.
 *
 * @module
 */
import { singular } from "../names.ts";
import { isCollection, type OpenApiOperation } from "./operations.ts";
import { propertyPaths } from "./response_paths.ts";
import { itemKey, itemNames as names } from "./item_key.ts";
import { handleEvidence } from "./described_id.ts";
import { plainName } from "./required_props.ts";
import { createdIn } from "./verb_segments.ts";
import { afterNoun } from "./after_noun.ts";

/**
 * The creates of a document (POSTs to a collection) and what their responses hold.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { Creates } from "./creates.ts";
 * const json = (schema: object) => ({ content: { "application/json": { schema } } });
 * const doc = { paths: {
 *   "/pets": { post: { responses: { 201: json({ properties: { id: { type: "integer" } } }) } } },
 *   "/pets/{petId}": { get: { responses: { 200: { description: "ok" } } } },
 * } };
 * const ops = operationsOf(doc);
 * const creates = new Creates(doc, ops);
 * if (creates.byNoun.get("pet")?.[0] !== ops[0]) throw new Error("no create of pets");
 * if (creates.pathIn(ops[0], "petId")?.join() !== "id") throw new Error("no id");
 * ```
 */
export class Creates {
  readonly props = new Map<OpenApiOperation, Map<string, string[]>>();
  /** Plain property name → the creates holding it, shallowest first, then in document order. */
  readonly byName = new Map<string, { producer: OpenApiOperation; path: string[] }[]>();
  /** Collection path → its first POST; plain singular noun → its creates. */
  readonly byCollection = new Map<string, OpenApiOperation>();
  readonly byNoun = new Map<string, OpenApiOperation[]>();
  /** Collection path (one with no parameter) → its GET, a listing. */
  readonly lists = new Map<string, OpenApiOperation>();
  /** Item path (one ending in a parameter) → its GET. */
  readonly reads = new Map<string, OpenApiOperation>();

  /** `itemNames`: collection path → the names its items' parameter has (item_key.ts). */
  constructor(
    readonly doc: unknown,
    readonly ops: OpenApiOperation[],
    readonly itemNames = names(ops, doc),
  ) {
    for (const op of ops) {
      if (op.method === "GET") this.#read(op);
      if (op.method !== "POST") continue;
      const collection = createdIn(op);
      if (!this.byCollection.has(collection)) this.byCollection.set(collection, op);
      if (!isCollection(op.template)) continue;
      const props = propertyPaths(doc, op);
      this.props.set(op, props);
      for (const [name, path] of props) {
        const list = this.byName.get(name) ?? [];
        list.push({ producer: op, path });
        this.byName.set(name, list);
      }
      const last = collection.split("/").filter((s) => s !== "").at(-1) ?? "";
      for (const noun of new Set([plainName(singular(last)), plainName(last)])) {
        this.byNoun.set(noun, [...this.byNoun.get(noun) ?? [], op]);
      }
    }
    for (const list of this.byName.values()) list.sort((a, b) => a.path.length - b.path.length);
  }

  /** A GET: a listing (a path of no parameter) or an item's read (one ending in a parameter). */
  #read(op: OpenApiOperation): void {
    const path = op.template.replace(/\/$/, "");
    const index = !op.template.includes("{")
      ? this.lists
      : !isCollection(op.template)
      ? this.reads
      : undefined;
    if (index && !index.has(path)) index.set(path, op);
  }

  /** The path of the property a parameter names after the collection's noun, if its handle. */
  #afterNoun(
    producer: OpenApiOperation,
    param: string,
    props: Map<string, string[]>,
  ): string[] | undefined {
    const name = afterNoun(producer, param);
    const path = props.get(name);
    return path?.length === 1 && handleEvidence(this.doc, producer, name) ? path : undefined;
  }

  /**
   * The path of the parameter's own name, else of the property it names
   * after the collection's noun (`{featureName}` of `/features/` ← `name`),
   * else of `id`, whichever is shallower (the named one on a tie).
   */
  pathIn(producer: OpenApiOperation, param: string): string[] | undefined {
    const props = this.props.get(producer) ?? propertyPaths(this.doc, producer);
    this.props.set(producer, props);
    const own = props.get(plainName(param)) ?? this.#afterNoun(producer, param, props);
    const id = props.get("id");
    // No id and no property of its name: the key item_key.ts reads (its sole required text, …).
    if (own && (!id || own.length <= id.length)) return own;
    if (id || this.#namesAnother(producer, param)) return id;
    return itemKey(this.doc, producer, param, props, this.itemNames);
  }

  /**
   * Whether `param` names the id of another noun the document creates (`{operation_id}` under
   * `/facts`, beside `POST /operations`): that create's, never `producer`'s key (item_key.ts).
   */
  #namesAnother(producer: OpenApiOperation, param: string): boolean {
    const plain = plainName(param);
    if (plain === "id" || !plain.endsWith("id")) return false;
    const makers = this.byNoun.get(plain.slice(0, -2)) ?? [];
    return makers.length > 0 && !makers.includes(producer);
  }
}
