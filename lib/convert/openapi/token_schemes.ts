/**
 * The security schemes a login's token can serve, read from a document: an
 * http bearer, an apiKey that says it takes a token (or is the
 * `Authorization` header), and an OAuth2 scheme whose token URL is the
 * document's own login; with the word each writes before the token.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { ownLoginScheme } from "./own_login.ts";

/** A scheme a token serves: a bearer block, or an apiKey with the text before the token. */
export interface TokenScheme {
  bearer: boolean;
  /** `Token `, `Bearer ` or "". */
  prefix: string;
  /** `http bearer`, `apiKey header Authorization`. */
  where: string;
  /** The scheme's description, or "". */
  description: string;
  /** The path of the document's own login an OAuth2 password flow names as its `tokenUrl`. */
  login?: string;
}

/**
 * Whether a scheme names the operation at `template` as where its token is got.
 *
 * @example
 * ```ts
 * import { namesLogin } from "./token_schemes.ts";
 * const scheme = { bearer: true, prefix: "Bearer ", where: "http bearer", description: "From POST /login." };
 * if (!namesLogin(scheme, "/login") || namesLogin(scheme, "/users")) throw new Error();
 * ```
 */
export function namesLogin(scheme: TokenScheme, template: string): boolean {
  return scheme.login === template || scheme.description.includes(template);
}

/**
 * The schemes a token can serve: http bearer, apiKeys, and OAuth2 at the document's own login.
 *
 * @example
 * ```ts
 * import { tokenSchemes } from "./token_schemes.ts";
 * const doc = { components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" }, key: { type: "apiKey", name: "X-Key" } } } };
 * if ([...tokenSchemes(doc).keys()].join() !== "jwt") throw new Error();
 * ```
 */
export function tokenSchemes(doc: Node): Map<string, TokenScheme> {
  const schemes = isNode(doc.components) && isNode(doc.components.securitySchemes)
    ? doc.components.securitySchemes
    : {};
  const out = new Map<string, TokenScheme>();
  for (const [name, raw] of Object.entries(schemes)) {
    const s = deref(doc, raw);
    const scheme = isNode(s) ? tokenScheme(s) ?? ownLoginScheme(doc, s) : undefined;
    if (scheme) out.set(name, scheme);
  }
  return out;
}

/** How a token is sent to one security scheme, if the scheme takes a token at all. */
function tokenScheme(s: Node): TokenScheme | undefined {
  const description = typeof s.description === "string" ? s.description : "";
  if (s.type === "http" && String(s.scheme ?? "").toLowerCase() === "bearer") {
    return { bearer: true, prefix: "Bearer ", where: "http bearer", description };
  }
  if (s.type === "apiKey" && typeof s.name === "string" && s.name !== "") {
    return apiKeyScheme(s, s.name, description);
  }
  return undefined;
}

/** An apiKey scheme (named `name`) as a token's, with the word sent before the token. */
function apiKeyScheme(s: Node, name: string, description: string): TokenScheme | undefined {
  const said = schemeWord(description);
  const header = s.in === "header" || s.in === undefined;
  const authorization = header && name.toLowerCase() === "authorization";
  // A key the user is given (X-API-Key) is no login's token: only a scheme that says so.
  if (!said && !authorization && !/token|jwt|log ?in|sign ?in/i.test(description)) return undefined;
  const prefix = said ?? (authorization ? "Bearer" : undefined);
  return {
    bearer: false,
    prefix: prefix === undefined ? "" : `${prefix} `,
    where: `apiKey ${s.in ?? "header"} ${name}`,
    description,
  };
}

/**
 * The word a scheme's description writes before a token: `Token
 * xxxxxx.yyyyyyy.zzzzzz`, `Bearer <token>`, `JWT {token}`, or names as its
 * prefix (`required prefix "Token"`).
 *
 * @example
 * ```ts
 * import { schemeWord } from "./token_schemes.ts";
 * if (schemeWord("The header:\n\n    Token xxxxxx.yyyyyyy.zzzzzz\n") !== "Token") throw new Error();
 * if (schemeWord("Send `Bearer <your token>`") !== "Bearer" || schemeWord("a key") !== undefined) throw new Error();
 * if (schemeWord('Token-based authentication with required prefix "Token"') !== "Token") throw new Error();
 * ```
 */
export function schemeWord(description: string): string | undefined {
  // "with required prefix \"Token\"" (drf-spectacular's words for DRF's TokenAuthentication).
  const named = description.match(/\bprefix(?:ed)?(?: with)?:? +[`'"]?([A-Z][A-Za-z-]{1,20})\b/);
  if (named) return named[1];
  const m = description.match(
    /(?:^|[\s`'"])([A-Z][A-Za-z-]{1,20}) +(?:<[^>\n]{1,40}>|\{[^}\n]{1,40}\}|[xX]{3,}[.\w-]*|[\w-]+\.[\w-]+\.[\w-]+)/,
  );
  return m?.[1];
}
