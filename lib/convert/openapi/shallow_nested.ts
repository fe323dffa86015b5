/**
 * Items made under their parent and addressed on their own, every key named
 * alike: an Express API makes a comment at `POST /posts/{id}/comments` (the
 * post's id) and deletes it at `DELETE /comments/{id}` (the comment's), as
 * Rails' shallow routes do. A producer never reads the parameter it produces,
 * so the links make no cycle through one parameter; but the same name after
 * another segment is another resource's key, and the comment's create is the
 * delete's producer.
 *
 * Where the document leaves the nested create's answer undescribed, no
 * property names the item's id, and the id is searched for in the answer at
 * run time ({@linkcode shallowCreate}).
 *
 * @module
 */
import type { OpenApiOperation } from "./operations.ts";
import { isCollection } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { createdIn } from "./verb_segments.ts";

/**
 * Whether `producer` itself reads the parameter `param` of `consumer`: it
 * holds `{param}` after the same segment. The same name after another
 * segment is another resource's key (`{id}` of `/posts/{id}/comments`, the
 * post, beside `{id}` of `/comments/{id}`, the comment): an Express API
 * names every key `id` and makes a comment under its post (Rails' shallow
 * routes), and its `DELETE /comments/{id}` was sent the text `string`.
 *
 * @example
 * ```ts
 * import { readsSame } from "./shallow_nested.ts";
 * if (readsSame("/posts/{id}/comments", "/comments/{id}", "id")) throw new Error();
 * if (!readsSame("/pets/{petId}/photos", "/pets/{petId}", "petId")) throw new Error();
 * if (!readsSame("/{id}/comments", "/{id}", "id")) throw new Error();
 * ```
 */
export function readsSame(producer: string, consumer: string, param: string): boolean {
  const before = (template: string) => {
    const segments = template.split("/");
    const at = segments.indexOf(`{${param}}`);
    return at < 0 ? undefined : segments[at - 1];
  };
  const own = before(producer);
  return own !== undefined && (own === "" || own === before(consumer));
}

/**
 * The one create, nested under a parent (`POST /projects/{projectId}/items`),
 * of the collection an item's id is addressed under on its own
 * (`/items/{id}`, no parameter before it): Rails' shallow routes. A project
 * management API on Elysia documented both answers `200: {}`, so no
 * property named the item's id and `PUT /items/{id}` was taken for a create
 * at a URL the client names (404 for each made-up id). Only an id (`{id}`,
 * `{commentId}`); undefined where the item's own collection has a create,
 * which makes it, or where several nested creates end in the segment.
 *
 * @example
 * ```ts
 * import { shallowCreate } from "./shallow_nested.ts";
 * const op = (method: string, template: string) => ({ method, template }) as never;
 * const create = op("POST", "/projects/{projectId}/items");
 * const read = op("GET", "/items/{id}");
 * if (shallowCreate([create, read], read, "id") !== create) throw new Error();
 * if (shallowCreate([create, read], read, "name") !== undefined) throw new Error();
 * const own = op("POST", "/items");
 * if (shallowCreate([create, own, read], read, "id") !== undefined) throw new Error();
 * ```
 */
export function shallowCreate(
  ops: readonly OpenApiOperation[],
  op: OpenApiOperation,
  param: string,
): OpenApiOperation | undefined {
  const at = op.template.indexOf(`/{${param}}`);
  const prefix = op.template.slice(0, Math.max(at, 0));
  if (!plainName(param).endsWith("id") || at <= 0 || prefix.includes("{")) return undefined;
  const segment = prefix.split("/").at(-1);
  const last = (p: OpenApiOperation) => createdIn(p).split("/").at(-1);
  const creates = ops.filter((p) =>
    p !== op && p.method === "POST" && isCollection(p.template) && last(p) === segment
  );
  if (creates.some((p) => !p.template.includes("{"))) return undefined;
  return creates.length === 1 ? creates[0] : undefined;
}
