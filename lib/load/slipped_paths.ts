/**
 * Path keys written without their leading slash. The specification says a
 * path begins with `/`, so such a key is no path as written: joined to the
 * server's path it made `/api/v1register`. A hand-written YAML document
 * shows where it belongs when a slip of indentation left a path empty and
 * put its operations under the next key: an Express social API's
 * swagger.yaml writes `/auth/register:` with nothing under it, then
 * `register:` holding the sign-up (and `login`, `refresh`, `logout` the
 * same way). The evidence is the empty path item (no operations) right
 * before: each key without a slash in the run that follows it is read under
 * its folder (`/auth/register`, `/auth/refresh`), and takes the empty
 * item's place when it names the same path. Any other such key is read
 * from the root (`users` → `/users`), as the `openapi:` checks already
 * matched it (Elysia's `""` is `/`); `x-` keys are extensions, and a key whose reading is already
 * a path with operations stays as written. Read so both where
 * `convert openapi` reads the document and where an `openapi:` check
 * compiles it.
 *
 * @module
 */
type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Whether a path item holds no operation (and names no other item). */
function isEmpty(item: unknown): boolean {
  return !isNode(item) || (!("$ref" in item) && METHODS.every((m) => !isNode(item[m])));
}

/** The path each key of `paths` is read as, in order (see the module). */
function readKeys(paths: Node): [string, string][] {
  const read: [string, string][] = [];
  let folder = "/";
  for (const key of Object.keys(paths)) {
    if (key.startsWith("/")) {
      folder = isEmpty(paths[key]) ? key.slice(0, key.lastIndexOf("/") + 1) : "/";
      read.push([key, key]);
    } else if (key.startsWith("x-")) read.push([key, key]);
    else read.push([key, key === "" ? "/" : folder + key]); // `""`: Elysia's route at the root
  }
  return read;
}

/**
 * Renames (in place) each key of `document.paths` written without its
 * leading slash to the path it is read as (see the module), keeping the
 * order of the rest.
 *
 * @example
 * ```ts
 * import { placeSlippedPaths } from "./slipped_paths.ts";
 * const post = { post: { responses: {} } };
 * const doc = { paths: { "/auth/login": null, login: post, logout: post, users: post } };
 * placeSlippedPaths(doc);
 * if (Object.keys(doc.paths).join() !== "/auth/login,/auth/logout,/auth/users") throw new Error();
 * ```
 */
export function placeSlippedPaths(document: unknown): void {
  const paths = isNode(document) ? document.paths : undefined;
  if (!isNode(paths)) return;
  const read = readKeys(paths);
  if (read.every(([key, path]) => key === path)) return;
  const held = read.filter(([key]) => key.startsWith("/") && !isEmpty(paths[key]));
  const taken = new Set(held.map(([key]) => key));
  const named = new Set(read.filter(([key, path]) => key !== path).map(([, path]) => path));
  const placed: Node = {};
  for (const [key, path] of read) {
    // An empty item a slipped key names: the key takes its place.
    if (key === path && named.has(key) && isEmpty(paths[key])) continue;
    const to = taken.has(path) ? key : path;
    taken.add(to);
    placed[to] = paths[key];
  }
  for (const key of Object.keys(paths)) delete paths[key];
  Object.assign(paths, placed);
}
