/**
 * An apiKey scheme that is the only place the document's login's token can
 * go. An Express API documented by `tsoa` (measured by hand) declares
 * `api_key: {type: apiKey, in: header, name: x-api-key}` with no
 * description; its `POST /login` needs no credentials, takes a password and
 * answers `{success, token}`; its server verifies `x-api-key` as that JWT.
 * A key with no word of a token is one the user is given (token_schemes.ts),
 * so the summary asked for `API_KEY`, which no user of that API has. The
 * evidence, all of it: an open POST taking a password whose answer's schema
 * shows a token, and one declared scheme only, an apiKey with no
 * description (a bearer, a key that says token or an OAuth2 flow would take
 * the token instead; a described key says what it is). Such a scheme is
 * read as described by the login, so login.ts sends the token as the key,
 * where the scheme says (header, query or cookie).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { answersAToken, bodyFields, needsNoCredentials } from "./login.ts";
import { operationsOf } from "./operations.ts";

/**
 * `doc`, or a copy whose one undescribed apiKey scheme is described as the
 * token its open login answers (see the module doc).
 *
 * @example
 * ```ts
 * import { withAnsweredKeyLogin } from "./answered_key_login.ts";
 * const json = (properties: object) => ({ content: { "application/json": { schema: { properties } } } });
 * const doc = { components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "x-api-key" } } },
 *   paths: { "/login": { post: { security: [], requestBody: json({ password: {} }),
 *     responses: { "200": json({ token: { type: "string" } }) } } } } };
 * const read = withAnsweredKeyLogin(doc) as { components: { securitySchemes: { key: { description: string } } } };
 * if (!read.components.securitySchemes.key.description.includes("/login")) throw new Error();
 * ```
 */
export function withAnsweredKeyLogin(doc: Node): Node {
  const schemes = isNode(doc.components) && isNode(doc.components.securitySchemes)
    ? doc.components.securitySchemes
    : {};
  const entries = Object.entries(schemes);
  if (entries.length !== 1) return doc;
  const [key, raw] = entries[0];
  const s = deref(doc, raw);
  if (!isNode(s) || s.type !== "apiKey" || typeof s.name !== "string" || s.name === "") return doc;
  if (typeof s.description === "string" && s.description.trim() !== "") return doc;
  const login = operationsOf(doc).find((op) =>
    op.method === "POST" && needsNoCredentials(doc, op) &&
    bodyFields(doc, op).has("\0password") && answersAToken(doc, op)
  );
  if (!login) return doc;
  // The words name the login's path (token_schemes.ts's `namesLogin`) and a token.
  const description = `The token the answer of POST ${login.template} holds.`;
  const securitySchemes = { [key]: { ...s, description } };
  return { ...doc, components: { ...(doc.components as Node), securitySchemes } };
}
