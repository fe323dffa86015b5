/**
 * An OAuth2 password flow whose `tokenUrl` is an operation of the document
 * itself that takes JSON is that API's own login, not an OAuth2 token
 * endpoint: RFC 6749 (4.3.2) has a token request sent as a form with
 * `grant_type`, and a login that reads JSON refuses one. `@nestjs/swagger`
 * documents a JWT login so (`addBearerAuth({type: "oauth2", flows:
 * {password: {tokenUrl: "/api/auth/login"}}})`, Homebridge UI's document),
 * and its users have an account, not a client id and secret. So does a
 * login taking a form that requires the credentials alone: FastAPI's
 * `OAuth2PasswordRequestForm` (`username` and `password` required,
 * `grant_type`, `client_id` and `client_secret` optional), whose server
 * reads no client. Such a scheme is read as one the login's token serves,
 * sent as a bearer; a `tokenUrl` elsewhere, or at a form that requires
 * `grant_type` or a client (RFC 6749's token request), stays OAuth2's.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { plainName } from "./producers.ts";

/** The scheme as login.ts's `TokenScheme`: the login's token, sent as a bearer. */
export interface OwnLogin {
  bearer: true;
  prefix: "Bearer ";
  where: string;
  description: string;
  /** The path of the login `tokenUrl` names. */
  login: string;
}

/** The path of `tokenUrl` (absolute or relative), without its query. */
function pathOf(tokenUrl: string): string {
  try {
    return new URL(tokenUrl, "http://base.invalid/").pathname;
  } catch {
    return tokenUrl;
  }
}

// login.ts's password names (login.ts imports this file).
const PASSWORD = /pass(word|wd)?$|^pwd$/;

/**
 * Whether the POST at `template` is a login of the API's own: it takes a
 * JSON body and no form, or a form whose required fields are a password
 * and one name of the account and nothing else (no `grant_type`, no client).
 */
function ownLoginBody(doc: Node, template: string): boolean {
  const item = isNode(doc.paths) ? doc.paths[template] : undefined;
  const post = isNode(item) ? item.post : undefined;
  const body = isNode(post) ? deref(doc, post.requestBody) : undefined;
  const content = isNode(body) && isNode(body.content) ? body.content : {};
  const types = Object.keys(content);
  const forms = types.filter((t) => /form/i.test(t));
  if (forms.length === 0) return types.some((t) => /json/i.test(t));
  const form = content[forms[0]];
  const schema = deref(doc, isNode(form) ? form.schema : undefined);
  const required = isNode(schema) && Array.isArray(schema.required) ? schema.required : [];
  const names = required.filter((r): r is string => typeof r === "string");
  return names.length === 2 && names.filter((n) => PASSWORD.test(plainName(n))).length === 1 &&
    !names.some((n) => /grant|client/i.test(n));
}

/** A path's segments, blanks left out: `/auth/login/` is `auth`, `login`. */
function segments(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

/**
 * The document's login at `path`: the POST taking JSON there (or at a path
 * `path` ends with, under a server's path); else, when the document has no
 * operation at `path`, the one such POST whose last segments are `path`'s.
 * FastAPI writes the `tokenUrl` its code passes (`OAuth2PasswordBearer(
 * tokenUrl="login")`) while the login's router adds a prefix (`/auth/login`),
 * so the token request went where the server has nothing; two logins ending
 * so are no evidence for either.
 */
function loginAt(doc: Node, path: string, relative: boolean): string | undefined {
  const paths = Object.keys(isNode(doc.paths) ? doc.paths : {});
  const named = paths.find((t) => (path === t || path.endsWith(t)) && ownLoginBody(doc, t));
  const tail = segments(path);
  if (named !== undefined || tail.length === 0) return named;
  if (paths.some((t) => segments(t).join("/") === tail.join("/"))) return undefined;
  return endingLogin(doc, paths, tail, relative ? 1 : tail.length);
}

/**
 * The one path ending with the longest run of `tail`'s last segments any
 * path ends with, when it is a login taking JSON. The prefix a `tokenUrl`
 * writes can differ from the router's too (`tokenUrl="auth/login"`, the
 * router mounted at `/auths`, a bug tracker on FastAPI): its last segments
 * still name the login, and the one path ending with the most of them is
 * it; two ending so are no evidence for either. Only for a relative
 * `tokenUrl` (`least` 1), which the server itself answers: one with an
 * origin may be an identity provider's, matched whole or not at all.
 */
function endingLogin(
  doc: Node,
  paths: string[],
  tail: string[],
  least: number,
): string | undefined {
  for (let n = tail.length; n >= least; n--) {
    const end = tail.slice(-n).join("/");
    const ending = paths.filter((t) => segments(t).slice(-n).join("/") === end);
    if (ending.length === 0) continue;
    return ending.length === 1 && ownLoginBody(doc, ending[0]) ? ending[0] : undefined;
  }
  return undefined;
}

/**
 * The scheme `s` as the document's own login's, when it is an OAuth2
 * password flow whose `tokenUrl` names a POST of the document taking JSON
 * (the path as written, or ending with it under a server's path, or the
 * one such POST ending with a `tokenUrl` the document has nothing at).
 *
 * @example
 * ```ts
 * import { ownLoginScheme } from "./own_login.ts";
 * const json = { content: { "application/json": { schema: {} } } };
 * const doc = { paths: { "/api/auth/login": { post: { requestBody: json } } } };
 * const s = { type: "oauth2", flows: { password: { tokenUrl: "/api/auth/login" } } };
 * if (ownLoginScheme(doc, s)?.login !== "/api/auth/login") throw new Error();
 * if (ownLoginScheme(doc, { ...s, flows: { password: { tokenUrl: "/oauth/token" } } })) throw new Error();
 * const relative = { ...s, flows: { password: { tokenUrl: "login" } } };
 * if (ownLoginScheme(doc, relative)?.login !== "/api/auth/login") throw new Error();
 * const prefixed = { ...s, flows: { password: { tokenUrl: "session/login" } } };
 * if (ownLoginScheme(doc, prefixed)?.login !== "/api/auth/login") throw new Error();
 * const idp = { ...s, flows: { password: { tokenUrl: "https://idp.test/session/login" } } };
 * if (ownLoginScheme(doc, idp)) throw new Error();
 * ```
 */
export function ownLoginScheme(doc: Node, s: Node): OwnLogin | undefined {
  const flows = isNode(s.flows) ? s.flows : undefined;
  const password = isNode(flows?.password) ? flows.password : undefined;
  if (s.type !== "oauth2" || typeof password?.tokenUrl !== "string") return undefined;
  const relative = !/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(password.tokenUrl.trim());
  const login = loginAt(doc, pathOf(password.tokenUrl), relative);
  if (login === undefined) return undefined;
  const description = typeof s.description === "string" ? s.description : "";
  return { bearer: true, prefix: "Bearer ", where: "oauth2 password", description, login };
}
