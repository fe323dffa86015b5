/**
 * The operations of an OpenAPI document and the one a request reached: by
 * its method and its URL's path under a server's base path, the template
 * with the most literal characters winning (`/items/new` over
 * `/items/{id}`), and a status's documented response (exact, `2XX`, then
 * `default`). Shared by `openapi:` checks and the run's coverage. The
 * document is the user's JSON: every member is read as what it may be, own
 * members only, so a null path item or a "constructor" method is "no
 * operation".
 *
 * @module
 */

/** A JSON object of the document. */
export type Node = Record<string, unknown>;

/** The HTTP methods an OpenAPI path item may hold, in the order documents list them. */
export const OPENAPI_METHODS = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
] as const;

/** One documented operation. */
export interface Operation {
  /** Upper case: `GET`. */
  method: string;
  /** The path template as the document writes it: `/items/{id}`. */
  template: string;
  /** The documented response keys, as written (`200`, `4XX`, `default`). */
  statuses: string[];
}

/**
 * Every operation of a document, in the document's order.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./openapi_operations.ts";
 * const ops = operationsOf({ paths: { "/a": { get: { responses: { "200": {} } }, summary: "x" } } });
 * if (ops.length !== 1 || ops[0].method !== "GET" || ops[0].statuses[0] !== "200") throw new Error();
 * ```
 */
export function operationsOf(doc: unknown): Operation[] {
  const paths = member(doc, "paths");
  if (!isNode(paths)) return [];
  const found: Operation[] = [];
  for (const template of Object.keys(paths)) {
    for (const method of OPENAPI_METHODS) {
      const operation = member(paths[template], method);
      if (!isNode(operation)) continue;
      const responses = member(operation, "responses");
      const statuses = isNode(responses) ? Object.keys(responses) : [];
      found.push({ method: method.toUpperCase(), template, statuses });
    }
  }
  return found;
}

/**
 * The operation a request reached, or the path (under the base path) that
 * no operation of its method serves.
 *
 * @example
 * ```ts
 * import { matchOperation } from "./openapi_operations.ts";
 * const doc = { servers: [{ url: "/v1" }], paths: { "/items/{id}": { get: {} }, "/items/new": { get: {} } } };
 * const got = matchOperation(doc, "GET", "http://x.test/v1/items/new");
 * if (!("template" in got) || got.template !== "/items/new") throw new Error();
 * const none = matchOperation(doc, "DELETE", "http://x.test/v1/items/7");
 * if (!("path" in none) || none.path !== "/items/7") throw new Error();
 * // Paths that already begin with the server's path, as convert openapi sends them.
 * const held = { servers: [{ url: "/api" }], paths: { "/api/users": { get: {} } } };
 * if (!("template" in matchOperation(held, "GET", "http://x.test/api/users"))) throw new Error();
 * ```
 */
export function matchOperation(
  doc: unknown,
  method: string,
  requestUrl: string,
): { template: string; operation: Node } | { path: string } {
  const path = requestPath(requestUrl, doc);
  // A document whose paths all hold the server's path is sent them as written (convert openapi).
  const best = bestMatch(doc, method, path) ?? bestMatch(doc, method, new URL(requestUrl).pathname);
  return best ? { template: best.template, operation: best.operation } : { path };
}

/** The operation of `method` whose template matches `path` best, if any. */
function bestMatch(doc: unknown, method: string, path: string) {
  const candidates = indexOf(doc).get(`${method.toLowerCase()} ${path.split("/").length}`);
  let best: { template: string; operation: Node; score: number } | undefined;
  for (const { template, operation } of candidates ?? []) {
    const score = pathScore(slashed(template), path);
    if (score > (best?.score ?? -1)) best = { template, operation, score };
  }
  return best;
}

/**
 * A template as a path: one written without its leading slash is the path
 * with it (Elysia's generator writes a route at the root as `""`, which
 * served no request, not even `/`).
 */
const slashed = (template: string) => template.startsWith("/") ? template : `/${template}`;

/** A document's operations by method and number of path segments: a request tries only those. */
type OperationIndex = Map<string, { template: string; operation: Node }[]>;

// Built once per parsed document: a run matches every response against the same few.
const INDEXES = new WeakMap<object, OperationIndex>();

function indexOf(doc: unknown): OperationIndex {
  const known = isNode(doc) ? INDEXES.get(doc) : undefined;
  if (known) return known;
  const index: OperationIndex = new Map();
  const found = member(doc, "paths");
  const paths: Node = isNode(found) ? found : {};
  for (const template of Object.keys(paths)) {
    for (const method of OPENAPI_METHODS) {
      const operation = member(paths[template], method);
      if (!isNode(operation)) continue;
      const key = `${method} ${slashed(template).split("/").length}`;
      const bucket = index.get(key);
      if (bucket) bucket.push({ template, operation });
      else index.set(key, [{ template, operation }]);
    }
  }
  if (isNode(doc)) INDEXES.set(doc, index);
  return index;
}

/**
 * The response key that documents a status: exact, then its class (`4XX`),
 * then `default`; none when the operation documents none of them.
 *
 * @example
 * ```ts
 * import { responseKey } from "./openapi_operations.ts";
 * if (responseKey(["200", "4XX"], 404) !== "4XX" || responseKey(["200"], 500) !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function responseKey(keys: readonly string[], status: number): string | undefined {
  const code = String(status);
  return [code, `${code[0]}XX`, `${code[0]}xx`, "default"].find((c) => keys.includes(c));
}

/**
 * A member of a document's object, or undefined for anything else.
 *
 * @example
 * ```ts
 * import { member } from "./openapi_operations.ts";
 * if (member({ a: 1 }, "a") !== 1 || member([1], "0") !== undefined || member({}, "constructor") !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function member(node: unknown, key: string): unknown {
  return isNode(node) && Object.hasOwn(node, key) ? node[key] : undefined;
}

/**
 * Whether a value is a JSON object (not an array or null).
 *
 * @example
 * ```ts
 * import { isNode } from "./openapi_operations.ts";
 * if (!isNode({}) || isNode([]) || isNode(null)) throw new Error();
 * ```
 */
export function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The request's path, without the base path of the first server whose base it is under. */
function requestPath(url: string, doc: unknown): string {
  const path = new URL(url).pathname;
  for (const base of basePaths(doc)) {
    if (base && path.startsWith(`${base}/`)) return path.slice(base.length);
  }
  return path;
}

/**
 * The base paths a document's operations are under, without a trailing
 * slash ("" for the root): each server's URL path, its variables at their
 * defaults (`https://{region}.api.test/{version}`), or a Swagger 2.0
 * `basePath`. None when the document names no server.
 *
 * @example
 * ```ts
 * import { basePaths } from "./openapi_operations.ts";
 * const doc = { servers: [{ url: "https://{host}/api/{v}", variables: { v: { default: "v2" } } }, { url: "/" }] };
 * if (basePaths(doc).join() !== "/api/v2,") throw new Error(basePaths(doc).join());
 * if (basePaths({ swagger: "2.0", basePath: "/v1/" }).join() !== "/v1") throw new Error();
 * ```
 */
export function basePaths(doc: unknown): string[] {
  const servers = member(doc, "servers");
  const bases: string[] = [];
  for (const server of Array.isArray(servers) ? servers : []) {
    const url = member(server, "url");
    if (typeof url !== "string") continue;
    const variables = member(server, "variables");
    const filled = url.replace(/\{([^}]*)\}/g, (_, name: string) => {
      const value = member(member(variables, name), "default");
      return typeof value === "string" ? value : name;
    });
    try {
      bases.push(new URL(filled, "http://x").pathname.replace(/\/$/, ""));
    } catch {
      // A server URL no variable default makes a URL serves no path.
    }
  }
  const basePath = member(doc, "basePath");
  if (typeof basePath === "string") bases.push(basePath.replace(/\/$/, ""));
  return bases;
}

/**
 * How well a path template matches a path: -1 for no match, else the
 * number of literal characters, so `/items/new` beats `/items/{id}` and a
 * segment like `{name}.json` matches `report.json`.
 */
function pathScore(template: string, path: string): number {
  const t = template.split("/");
  const p = path.split("/");
  if (t.length !== p.length) return -1;
  let score = 0;
  for (let i = 0; i < t.length; i++) {
    const matched = segmentScore(t[i], p[i]);
    if (matched < 0) return -1;
    score += matched;
  }
  return score;
}

/**
 * One segment: literal text must match, each `{param}` takes at least one
 * character. Literal parts are placed leftmost in order (optimal for
 * wildcards), so the time is linear, whatever the document's templates are.
 */
function segmentScore(template: string, segment: string): number {
  if (!template.includes("{")) return template === segment ? template.length + 1 : -1;
  const parts = template.split(/\{[^}]*\}/);
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (!segment.startsWith(first)) return -1;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = segment.indexOf(part, at + 1);
    if (found < 0) return -1;
    at = found + part.length;
  }
  const end = segment.length - last.length;
  if (end < at + 1 || !segment.endsWith(last)) return -1;
  return parts.join("").length;
}
