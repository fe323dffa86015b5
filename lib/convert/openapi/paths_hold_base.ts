/**
 * A document whose paths already hold its server URL's path. The
 * specification joins the server's URL and a path, so the flows add the
 * server's path (`/v1`) before each; but when every path already begins
 * with that whole path, the document meant them as full paths: Signal K's
 * radar document gives `/signalk/v2/api/vessels/self/radars` as its server
 * and as its first path, and every joined request got 404. Of the 2,639
 * documents of APIs.guru's directory, the 5 like it (Ticketmaster's
 * `/discovery/v2` and `/discovery/v2/attractions`, dev.to's `/api` and
 * `/api/admin/users`, NASA's `/api`) are all served at the paths as
 * written. One path outside the server's path shows the paths are
 * relative, and the server's path is added as before.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";

/**
 * The base path the flows add before each path: `base`, or none when
 * every path of `doc` is `base` or begins with `base/` (see the module).
 *
 * @example
 * ```ts
 * import { keptBasePath } from "./paths_hold_base.ts";
 * const held = { paths: { "/api": {}, "/api/users": {} } };
 * if (keptBasePath(held, "/api") !== "") throw new Error();
 * if (keptBasePath({ paths: { "/api/users": {}, "/login": {} } }, "/api") !== "/api") throw new Error();
 * if (keptBasePath({ paths: { "/apiary": {} } }, "/api") !== "/api") throw new Error();
 * ```
 */
export function keptBasePath(doc: unknown, base: string): string {
  const paths = isNode(doc) && isNode(doc.paths) ? Object.keys(doc.paths) : [];
  if (base === "" || paths.length === 0) return base;
  return paths.every((path) => path === base || path.startsWith(`${base}/`)) ? "" : base;
}

/**
 * How the summary says what the flows add before each path: the base path,
 * or "no path", saying why when the server's URL has one (see the module).
 *
 * @example
 * ```ts
 * import { addedPath } from "./paths_hold_base.ts";
 * if (addedPath("https://x.test/v1", "/v1") !== "/v1") throw new Error();
 * if (addedPath("/api", "") !== "no path: the paths already begin with it") throw new Error();
 * if (addedPath("https://x.test", "") !== "no path") throw new Error();
 * ```
 */
export function addedPath(server: string, basePath: string): string {
  if (basePath !== "") return basePath;
  let path = "";
  try {
    path = new URL(server, "http://base.invalid/").pathname.replace(/\/+$/, "");
  } catch {
    // Not a URL: the summary says only that no path is added.
  }
  return path === "" ? "no path" : "no path: the paths already begin with it";
}
