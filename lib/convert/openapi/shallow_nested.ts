/**
 * Items made under their parent and addressed on their own, every key named
 * alike: an Express API makes a comment at `POST /posts/{id}/comments` (the
 * post's id) and deletes it at `DELETE /comments/{id}` (the comment's), as
 * Rails' shallow routes do. A producer never reads the parameter it produces,
 * so the links make no cycle through one parameter; but the same name after
 * another segment is another resource's key, and the comment's create is the
 * delete's producer.
 *
 * @module
 */

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
