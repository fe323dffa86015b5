/**
 * Where to get the token of an OAuth2 scheme a run cannot sign in to
 * (issue 52): its `authorizationCode` or `implicit` flow needs a person at a
 * browser, so the flows read a token from `API_TOKEN`, and the summary and
 * the flows' comments say where one comes from: the flow's
 * `authorizationUrl` (and the `tokenUrl` the code is exchanged at), a
 * relative one resolved against the document's first server, with the
 * scopes the document's operations ask of the scheme. One variable serves
 * every step of the suite, so its token must carry them all: the scopes
 * are every operation's (the first alternative of its `security`, else the
 * document's, as `auth.ts` sends), not one step's.
 *
 * @module
 */
import { isNode, type Node, OPENAPI_METHODS } from "../../check/openapi_operations.ts";

/** The browser flows, the one described first: OAuth 2.1 drops `implicit`. */
const BROWSER_FLOWS = ["authorizationCode", "implicit"] as const;

/**
 * How to get a token of `scheme`, an OAuth2 scheme: "OAuth2 implicit flow:
 * get one at URL, scopes a b"; undefined when no browser flow of it names
 * an http(s) `authorizationUrl` (and, for authorizationCode, `tokenUrl`).
 *
 * @example
 * ```ts
 * import { browserHint } from "./auth_browser.ts";
 * const scheme = { flows: { implicit: { authorizationUrl: "/oauth/authorize", scopes: {} } } };
 * const hint = browserHint(scheme, "https://api.test/v1", ["read:pets"]);
 * if (hint !== "OAuth2 implicit flow: get one at https://api.test/oauth/authorize, scopes read:pets") {
 *   throw new Error(hint);
 * }
 * if (browserHint({ flows: { clientCredentials: { tokenUrl: "/t" } } }, undefined, []) !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function browserHint(
  scheme: Node,
  server: string | undefined,
  scopes: readonly string[],
): string | undefined {
  const flows = isNode(scheme.flows) ? scheme.flows : {};
  for (const key of BROWSER_FLOWS) {
    const flow = Object.hasOwn(flows, key) ? flows[key] : undefined;
    if (!isNode(flow)) continue;
    const signIn = shown(flow.authorizationUrl, server);
    const exchange = shown(flow.tokenUrl, server);
    if (signIn === undefined || (key === "authorizationCode" && exchange === undefined)) continue;
    const where = key === "implicit"
      ? `get one at ${signIn}`
      : `sign in at ${signIn}, then exchange the code at ${exchange}`;
    return `OAuth2 ${key} flow: ${where}${scopes.length > 0 ? `, scopes ${scopes.join(" ")}` : ""}`;
  }
  return undefined;
}

/**
 * The scopes the document's operations ask of scheme `name`, in document
 * order, each once: the first alternative of each operation's `security`
 * (else the document's) that names it.
 *
 * @example
 * ```ts
 * import { schemeScopes } from "./auth_browser.ts";
 * const doc = { security: [{ o: ["read"] }], paths: { "/a": { get: {}, post: { security: [{ o: ["write", "read"] }] },
 *   put: { security: [{ k: [] }, { o: ["admin"] }] } } } };
 * if (schemeScopes(doc, "o").join(" ") !== "read write") throw new Error();
 * ```
 */
export function schemeScopes(doc: Node, name: string): string[] {
  const found = new Set<string>();
  const paths = isNode(doc.paths) ? doc.paths : {};
  for (const item of Object.values(paths)) {
    for (const method of OPENAPI_METHODS) {
      const operation = isNode(item) ? item[method] : undefined;
      if (!isNode(operation)) continue;
      const security = Array.isArray(operation.security) ? operation.security : doc.security;
      const first = Array.isArray(security) ? security[0] : undefined;
      const listed = isNode(first) && Object.hasOwn(first, name) ? first[name] : undefined;
      if (Array.isArray(listed)) { for (const scope of listed) found.add(String(scope)); }
    }
  }
  return [...found];
}

/** An http(s) URL as absolute as the first server lets it be; undefined for none. */
function shown(url: unknown, server: string | undefined): string | undefined {
  if (typeof url !== "string" || url.trim() === "") return undefined;
  try {
    const resolved = new URL(url.trim(), server);
    return /^https?:$/.test(resolved.protocol) ? resolved.href : undefined;
  } catch {
    // Relative, and no absolute server to resolve it against: as the document writes it.
    return /^[a-z][a-z0-9+.-]*:/i.test(url.trim()) ? undefined : url.trim();
  }
}
