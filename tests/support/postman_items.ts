/**
 * Postman collection items the sign-up tests build their collections from.
 *
 * @module
 */

/**
 * The builder of a collection's JSON posts to `base`: `post(name, path, raw, event)` is the item
 * `name` that POSTs the raw text `raw` to `base` + `path` with `Content-Type: application/json`,
 * its scripts `event` (none unless given).
 *
 * @example
 * ```ts
 * import { jsonPoster } from "./postman_items.ts";
 * const post = jsonPoster("http://127.0.0.1:8080");
 * const item = post("Log in", "/login", '{"email": "{{email}}"}');
 * if (item.request.url !== "http://127.0.0.1:8080/login" || item.event.length !== 0) {
 *   throw new Error(JSON.stringify(item));
 * }
 * ```
 */
export function jsonPoster(base: string) {
  return (name: string, path: string, raw: string, event: object[] = []) => ({
    name,
    event,
    request: {
      method: "POST",
      url: `${base}${path}`,
      header: [{ key: "Content-Type", value: "application/json" }],
      body: { mode: "raw", raw },
    },
  });
}
