/**
 * An apiKey header the document's own login says it hands out. A
 * restaurant's Express API (measured by hand) declares `{type: apiKey, in:
 * header, name: auth-token}` with no description and requires it nowhere;
 * its `POST /users/login` says "This endpoint responses a token. This
 * token must be used in the Headers with auth-token key", its answer's
 * schema showing nothing. A key with no word of a token is one the user is
 * given (token_schemes.ts), so the summary asked for `API_KEY` and no step
 * signed in. The evidence, all of it: a document that requires no scheme
 * anywhere; a POST taking a password whose summary or description names
 * the header, as written, and says `token`. Such a scheme is read as
 * described by that sentence, which names the login (so login.ts reads the
 * token from the login's answer), and login_security.ts then requires it
 * where the document leaves writes bare, the login and its sign-up none.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { bodyFields } from "./login.ts";
import { withLoginSecurity } from "./login_security.ts";
import { type OpenApiOperation, operationsOf } from "./operations.ts";

/** Whether a `security` value requires a scheme. */
function requires(security: unknown): boolean {
  return Array.isArray(security) && security.some((r) => isNode(r) && Object.keys(r).length > 0);
}

/** The words of a POST taking a password that name header `name` and a token, if it says so. */
function saysKey(doc: Node, op: OpenApiOperation, name: string): string | undefined {
  if (op.method !== "POST" || !bodyFields(doc, op).has("\0password")) return undefined;
  const words = [op.node.summary, op.node.description].filter((w) => typeof w === "string");
  const header = new RegExp(`(^|[^\\w-])${name.replace(/[^\w-]/g, "\\$&")}([^\\w-]|$)`, "i");
  return words.find((w) => header.test(w) && /token/i.test(w));
}

/**
 * `doc`, or a copy whose apiKey header schemes of no description are
 * described by the login that says it hands them out, with the security
 * that login implies (see the module doc).
 *
 * @example
 * ```ts
 * import { withSaidKeyLogin } from "./said_key_login.ts";
 * const json = { content: { "application/json": { schema: { properties: { password: {} } } } } };
 * const doc = { components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "auth-token" } } },
 *   paths: { "/login": { post: { description: "Use the token as the auth-token header.", requestBody: json } },
 *     "/items": { post: {} } } };
 * const read = withSaidKeyLogin(doc) as typeof doc & { security?: unknown };
 * if (JSON.stringify(read.security) !== '[{"key":[]}]') throw new Error();
 * if (withSaidKeyLogin({ ...doc, security: [{ key: [] }] }).paths !== doc.paths) throw new Error();
 * ```
 */
export function withSaidKeyLogin(doc: Node): Node {
  const ops = operationsOf(doc);
  if (requires(doc.security) || ops.some((op) => requires(op.node.security))) return doc;
  const schemes = isNode(doc.components) && isNode(doc.components.securitySchemes)
    ? doc.components.securitySchemes
    : {};
  const described: Node = { ...schemes };
  let said = false;
  for (const [key, s] of Object.entries(schemes)) {
    if (!isNode(s) || s.type !== "apiKey" || (s.in ?? "header") !== "header") continue;
    if (typeof s.name !== "string" || s.name === "" || s.description) continue;
    const name = s.name;
    const login = ops.map((op) => ({ op, words: saysKey(doc, op, name) })).find((l) => l.words);
    if (!login) continue;
    described[key] = { ...s, description: `${login.op.template}: ${login.words}` };
    said = true;
  }
  if (!said) return doc;
  const components = { ...(doc.components as Node), securitySchemes: described };
  return withLoginSecurity({ ...doc, components });
}
