/**
 * The relations a document reads from the item a create makes: the last
 * segment of each GET one segment below that item's path (`GET
 * /todos/{id}/todo-list` beside `POST /todos`, LoopBack 4's `belongsTo`
 * controller). A document that reads an item's relation says the item has
 * one, so the create sends the optional id that names it (body_links.ts):
 * left out, the item belonged to nothing and the read answered 204 with no
 * body where the document promised the related item.
 *
 * @module
 */
import type { OpenApiOperation } from "./operations.ts";

/**
 * The relation segments `ops` read below the item `create` makes (none when
 * `create` is no POST to a collection).
 *
 * @example
 * ```ts
 * import { relationsRead } from "./related_reads.ts";
 * const op = (method: string, template: string) => ({ method, template }) as never;
 * const create = op("POST", "/todos");
 * const ops = [create, op("GET", "/todos/{id}/todo-list"), op("GET", "/todos/{id}"),
 *   op("DELETE", "/todos/{id}/tags"), op("GET", "/todos/{id}/tags/{tag}")];
 * if (relationsRead(create, ops).join() !== "todo-list") throw new Error();
 * ```
 */
export function relationsRead(create: OpenApiOperation, ops: OpenApiOperation[]): string[] {
  const own = segmentsOf(create.template);
  if (create.method !== "POST" || own.length === 0 || isParam(own.at(-1)!)) return [];
  return readsBelow(ops).get(own.join("/")) ?? [];
}

/** For each collection path, the relations read below its items: indexed once per document. */
const indexed = new WeakMap<OpenApiOperation[], Map<string, string[]>>();

/** Each `GET …/{param}/relation` of `ops`, by the collection path above `{param}`. */
function readsBelow(ops: OpenApiOperation[]): Map<string, string[]> {
  const known = indexed.get(ops);
  if (known) return known;
  const index = new Map<string, string[]>();
  for (const op of ops) {
    const segments = segmentsOf(op.template);
    if (op.method !== "GET" || segments.length < 3) continue;
    if (!isParam(segments.at(-2)!) || isParam(segments.at(-1)!)) continue;
    const parent = segments.slice(0, -2).join("/");
    index.set(parent, [...index.get(parent) ?? [], segments.at(-1)!]);
  }
  indexed.set(ops, index);
  return index;
}

function segmentsOf(template: string): string[] {
  return template.split("/").filter((s) => s !== "");
}

function isParam(segment: string): boolean {
  return segment.startsWith("{");
}
