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
  return ops.flatMap((op) => {
    const segments = segmentsOf(op.template);
    const below = op.method === "GET" && segments.length === own.length + 2 &&
      own.every((s, i) => segments[i] === s) && isParam(segments[own.length]) &&
      !isParam(segments.at(-1)!);
    return below ? [segments.at(-1)!] : [];
  });
}

function segmentsOf(template: string): string[] {
  return template.split("/").filter((s) => s !== "");
}

function isParam(segment: string): boolean {
  return segment.startsWith("{");
}
