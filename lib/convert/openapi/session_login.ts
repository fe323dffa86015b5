/**
 * A login that signs its client in by a session cookie: in a document that
 * declares no security at all (no scheme, no requirement), or none a
 * client can meet (a scheme no requirement names, requirements naming only
 * schemes it does not declare: Ts.ED's Passport.js example), a POST needing
 * no credentials, taking a password and an identity, named for signing in
 * (`/auth/login`, `signIn`), whose answers show no token. The only way such
 * a login can let its client in is the cookie its answer sets (the official
 * Fastify demo's `@fastify/session`: `POST /api/auth/login {email,
 * password}` answers `{success: true}`, and its tasks answer 401 without the
 * cookie). Every other operation of the document is then read as needing
 * that session: each flow signs in first and keeps a cookie jar
 * (`options: {cookie_jar: true}`), as the account a sign-up taking the
 * login's fields makes for the run, else as the user's own
 * (`login_account.ts`). So is a document whose every requirement a cookie
 * apiKey scheme meets (tududi's `cookieAuth`, `connect.sid`): that cookie is
 * the session (`cookie_schemes.ts`). A document declaring another scheme is
 * read by its schemes (`login.ts`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import {
  answersAToken,
  bodyFields,
  findLogin,
  type Login,
  needsNoCredentials,
  registerFor,
} from "./login.ts";
import { makesItem } from "./makes_item.ts";
import type { OpenApiOperation } from "./operations.ts";
import { type YMap, ymap } from "../yaml_out.ts";
import { cookieRequired, sessionSecured } from "./cookie_schemes.ts";

/** `/auth/login`, `/signin`, `POST /session`, an operationId `logIn`. */
const SIGN_IN = /log_?in|sign_?in|session/i;

/**
 * Whether the document declares security a client can meet: a requirement naming a declared
 * scheme, or (none required anywhere) a declared scheme. A requirement naming only undeclared
 * schemes can be met by nothing, and a scheme no requirement names protects nothing: a document
 * holding only those declares nothing its login could stand for (Ts.ED's Passport.js example).
 */
function declaresSecurity(doc: Node, ops: OpenApiOperation[]): boolean {
  const components = isNode(doc.components) ? doc.components : {};
  const schemes = isNode(components.securitySchemes) ? components.securitySchemes : {};
  const names = (s: unknown) =>
    Array.isArray(s) ? s.filter(isNode).flatMap((r) => Object.keys(r)) : [];
  const named = [doc.security, ...ops.map((op) => op.node.security)].flatMap(names);
  if (named.length === 0) {
    return Object.keys(schemes).length > 0 || isNode(doc.securityDefinitions);
  }
  return named.some((name) => Object.hasOwn(schemes, name));
}

/** Whether `op` can be the session's login (see the module doc). */
function signsInByCookie(doc: Node, op: OpenApiOperation): boolean {
  // A cookie required of the login too is a blanket requirement: only its answer can set it.
  const open = needsNoCredentials(doc, op) || cookieRequired(doc, op);
  if (op.method !== "POST" || !open || makesItem(doc, op)) return false;
  const fields = bodyFields(doc, op);
  if (!fields.has("\0password") || fields.size < 2) return false;
  return SIGN_IN.test(`${op.template} ${op.name}`) && !answersAToken(doc, op);
}

/**
 * The document's session login, if it has one (see the module doc).
 *
 * @example
 * ```ts
 * import { sessionLogin } from "./session_login.ts";
 * import { operationsOf } from "./operations.ts";
 * const json = (properties: object) => ({ content: { "application/json": { schema: { properties } } } });
 * const doc = { paths: {
 *   "/auth/login": { post: { requestBody: json({ email: {}, password: {} }), responses: { "200": json({ success: { type: "boolean" } }) } } },
 *   "/tasks": { get: { responses: { "200": {} } } } } };
 * const login = sessionLogin(doc, operationsOf(doc));
 * if (!login?.session || login.op.template !== "/auth/login") throw new Error();
 * if (sessionLogin({ ...doc, security: [{ key: [] }] }, operationsOf(doc))) throw new Error();
 * ```
 */
export function sessionLogin(doc: Node, ops: OpenApiOperation[]): Login | undefined {
  if (declaresSecurity(doc, ops) && !sessionSecured(doc, ops)) return undefined;
  const op = ops.find((o) => signsInByCookie(doc, o));
  if (!op) return undefined;
  const register = registerFor(doc, ops, op);
  return { op, register, registerAnswers: false, schemes: new Map(), session: true };
}

/**
 * The document's login: the one its token schemes name (`login.ts`), else its session login.
 *
 * @example
 * ```ts
 * import { loginOf } from "./session_login.ts";
 * if (loginOf({ paths: {} }, []) !== undefined) throw new Error();
 * ```
 */
export function loginOf(doc: Node, ops: OpenApiOperation[]): Login | undefined {
  return findLogin(doc, ops) ?? sessionLogin(doc, ops);
}

/**
 * The summary's line for a session login, if `login` is one.
 *
 * @example
 * ```ts
 * import { sessionLines } from "./session_login.ts";
 * const [line] = sessionLines({ op: { method: "POST", template: "/login" }, schemes: new Map(), session: true } as never);
 * if (!line.startsWith("session cookie ← POST /login") || sessionLines(undefined).length > 0) throw new Error(line);
 * ```
 */
export function sessionLines(login: Login | undefined, doc: Node = {}): string[] {
  if (!login?.session) return [];
  const why = declaresSecurity(doc, [])
    ? "the cookie the operations require is the one its answer sets, and it answers no token"
    : "no security is declared and it answers no token";
  const name = (op: OpenApiOperation) => `${op.method} ${op.template}`;
  const as = login.register
    ? `the account ${name(login.register)} registers`
    : "your account (LOGIN_… below)";
  return [
    `session cookie ← ${name(login.op)} (${why}), ` +
    `kept by each flow's cookie jar; signed in as ${as}`,
  ];
}

/**
 * A flow's `options` when it signs in to a session: a cookie jar, which
 * keeps the cookie the login's answer sets.
 *
 * @example
 * ```ts
 * import { sessionOptions } from "./session_login.ts";
 * const op = {} as never;
 * const steps = new Map<never, string>([[op, "login"]]);
 * if (!JSON.stringify(sessionOptions({ op, session: true } as never, steps)).includes("cookie_jar")) throw new Error();
 * ```
 */
export function sessionOptions(
  login: Login | undefined,
  steps: ReadonlyMap<OpenApiOperation, string>,
  doc: Node = {},
): YMap | undefined {
  if (!login || !steps.has(login.op)) return undefined;
  return login.session || requiresCookie(doc, [...steps.keys()])
    ? ymap([["cookie_jar", true]])
    : undefined;
}

/**
 * Whether a security requirement of the document or of `ops` names an apiKey scheme sent in a
 * cookie: a session cookie, which only the login's answer can set, so a token login's flow keeps
 * it too (better-auth requires its `apiKeyCookie` with its bearer, and reads only the cookie).
 *
 * @example
 * ```ts
 * import { requiresCookie } from "./session_login.ts";
 * const doc = { components: { securitySchemes: { sid: { type: "apiKey", in: "cookie", name: "sid" } } } };
 * if (!requiresCookie({ ...doc, security: [{ sid: [] }] }, []) || requiresCookie(doc, [])) throw new Error();
 * ```
 */
export function requiresCookie(doc: Node, ops: OpenApiOperation[]): boolean {
  const components = isNode(doc.components) ? doc.components : {};
  const schemes = isNode(components.securitySchemes) ? components.securitySchemes : {};
  const cookie = (name: string) => isNode(schemes[name]) && schemes[name].in === "cookie";
  const names = (s: unknown) => Array.isArray(s) ? s.filter(isNode).flatMap(Object.keys) : [];
  return [doc.security, ...ops.map((op) => op.node.security)].some((s) => names(s).some(cookie));
}
