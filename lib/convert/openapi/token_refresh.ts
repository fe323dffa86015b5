/**
 * A token renewal: an operation signed in with the login's token that takes
 * no body and answers the login's token anew (a NestJS boilerplate's `POST
 * /api/v1/auth/refresh`, bearer, answering `{token, refreshToken}`). When
 * the login's answer holds a refresh token (RFC 6749's `refresh_token`, in
 * any spelling: `refreshToken`), that is what the renewal is sent in the
 * scheme's place: sent the access token, that server answered 401, as a
 * server that renews only against the refresh token it issued does.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { ymap, type YNode } from "../yaml_out.ts";
import { TOKEN_CAPTURE, withLoginStep } from "./auth_login.ts";
import { type Login, TOKEN_KEYS, tokenSource } from "./login.ts";
import type { OpenApiOperation } from "./operations.ts";
import { capturePath, findProperty, plainName, responseSchemas } from "./producers.ts";

/**
 * The capture a step signed in with the login's token reads, and where from: the login's
 * refresh token for a renewal, else its token.
 *
 * @example
 * ```ts
 * import { sentToken } from "./token_refresh.ts";
 * const login = { op: { node: {} }, path: ["token"], schemes: new Map() };
 * if (sentToken({}, { node: {} } as never, login as never)[0] !== "token") throw new Error();
 * ```
 */
export function sentToken(doc: Node, op: OpenApiOperation, login: Login): [string, YNode] {
  const renew = refreshTokenPath(doc, op, login);
  if (renew) return ["refresh_token", capturePath(renew)];
  if (renewsUnsaid(op, login)) return ["refresh_token", REFRESH_BY_NAME];
  const said = saysRefreshToken(op) ? loginRefreshPath(doc, login) : undefined;
  if (said) return ["refresh_token", capturePath(said)];
  return [TOKEN_CAPTURE, tokenSource(login)];
}

/**
 * Whether `op` says it takes the refresh token and not the access token ("Revoke a refresh
 * token, used mainly for logout": flask-jwt-extended's `jwt_required(refresh=True)` answers the
 * access token 422), with no body to carry it in.
 */
function saysRefreshToken(op: OpenApiOperation): boolean {
  const said = [op.node.summary, op.node.description].filter((t) => typeof t === "string").join(
    "\n",
  );
  return op.node.requestBody === undefined && /\brefresh[ _-]?tokens?\b/i.test(said) &&
    !/\baccess[ _-]?tokens?\b/i.test(said);
}

/** The path of a refresh token in the login's described answer. */
function loginRefreshPath(doc: Node, login: Login): string[] | undefined {
  for (const schema of responseSchemas(doc, login.op)) {
    const path = findProperty(doc, schema, (name) => plainName(name) === "refreshtoken");
    if (path) return path;
  }
  return undefined;
}

/** The names a refresh token is answered under (RFC 6749's `refresh_token`, simplejwt's `refresh`). */
const REFRESH_KEYS = "refresh_token|refreshToken|refresh";

/**
 * A refresh token read by name from a login whose answer is undescribed, or, when the answer holds
 * none, its token as before (Homebridge UI's `POST /api/auth/refresh` renews the access token): one
 * group, whichever the body holds. Optional: a body with neither skips the renewal, never fails
 * the login.
 */
const REFRESH_BY_NAME = ymap([
  [
    "regex",
    `^(?:(?=[\\s\\S]*?"(?:${REFRESH_KEYS})"\\s*:\\s*")[\\s\\S]*?"(?:${REFRESH_KEYS})"|` +
    `(?![\\s\\S]*?"(?:${REFRESH_KEYS})"\\s*:\\s*")[\\s\\S]*?"(?:${TOKEN_KEYS})")\\s*:\\s*"([^"]+)"`,
  ],
  ["optional", true],
]);

/**
 * Whether `op` renews a token its login reads by name (the login's answer is undescribed), by
 * what its path says: a last segment `refresh` and no body (flasgger's `GET /user/token/refresh`
 * under flask-jwt-extended's `jwt_required(refresh=True)`, which takes only the refresh token).
 */
function renewsUnsaid(op: OpenApiOperation, login: Login): boolean {
  if (login.path !== undefined || login.session || op === login.op) return false;
  return op.node.requestBody === undefined && /(^|\/)refresh(_?token)?\/?$/i.test(op.template);
}

/**
 * The path of the refresh token in the login's answer, when `op` renews the login's token.
 *
 * @example
 * ```ts
 * import { refreshTokenPath } from "./token_refresh.ts";
 * import { operationsOf } from "./operations.ts";
 * const answers = (properties: object) => ({ responses: { "200": { content: { "application/json": { schema: { properties } } } } } });
 * const doc = { paths: {
 *   "/login": { post: { requestBody: {}, ...answers({ token: {}, refresh_token: {} }) } },
 *   "/refresh": { post: answers({ token: {} }) },
 *   "/me": { get: answers({ name: {} }) },
 * } };
 * const ops = operationsOf(doc);
 * const login = { op: ops[0], path: ["token"], schemes: new Map() };
 * if (refreshTokenPath(doc, ops[1], login)?.join() !== "refresh_token") throw new Error();
 * if (refreshTokenPath(doc, ops[2], login) !== undefined) throw new Error();
 * ```
 */
export function refreshTokenPath(
  doc: Node,
  op: OpenApiOperation,
  login: Login,
): string[] | undefined {
  const token = login.path?.at(-1);
  if (op === login.op || token === undefined || op.node.requestBody !== undefined) return undefined;
  const renews = responseSchemas(doc, op).some((schema) =>
    findProperty(doc, schema, (name) => name === token) !== undefined
  );
  return renews ? loginRefreshPath(doc, login) : undefined;
}

/**
 * A block (any YAML node) whose token reference `from` reads `to` instead.
 *
 * @example
 * ```ts
 * import { withToken } from "./token_refresh.ts";
 * import { ymap } from "../yaml_out.ts";
 * const block = ymap([["token", "${steps.login.capture.token}"]]);
 * const got = withToken(block, "${steps.login.capture.token}", "${steps.login.capture.refresh}");
 * if (!JSON.stringify(got).includes("capture.refresh")) throw new Error();
 * ```
 */
export function withToken(node: YNode, from: string, to: string): YNode {
  return typeof node === "string"
    ? node.replaceAll(from, to)
    : Array.isArray(node)
    ? node.map((n) => withToken(n, from, to))
    : node !== null && typeof node === "object" && node.kind === "map"
    ? { ...node, entries: node.entries.map(([k, v]) => [k, withToken(v, from, to)]) }
    : node;
}

/**
 * A block naming the login's step as `step` whose token reads `sent` (see {@linkcode sentToken}).
 *
 * @example
 * ```ts
 * import { LOGIN_STEP } from "./auth_login.ts";
 * import { signedIn } from "./token_refresh.ts";
 * import { ymap } from "../yaml_out.ts";
 * const block = ymap([["token", `\${steps.${LOGIN_STEP}.capture.token}`]]);
 * const got = signedIn(block, "login", "${steps.login.capture.refresh_token}");
 * if (!JSON.stringify(got).includes("steps.login.capture.refresh_token")) throw new Error();
 * ```
 */
export function signedIn(block: YNode, step: string, sent: string): YNode {
  return withToken(withLoginStep(block, step), `\${steps.${step}.capture.${TOKEN_CAPTURE}}`, sent);
}

/**
 * What a step's comment says of its scheme when the step renews the token: the login's refresh
 * token it is sent, and where the login answers it. The scheme's own note names the access
 * token, which a renewal is not sent (an Express template's `POST /api/auth/refresh`, its
 * `x-refresh-token` sent `refresh_token`, was commented as sent `$.json.data.access_token`).
 *
 * @example
 * ```ts
 * import { renewalNote } from "./token_refresh.ts";
 * const login = { op: { method: "POST", template: "/signin" } };
 * const note = renewalNote('"Refresh" (apiKey header x-refresh-token): the token the login …', login as never, "$.json.refresh_token");
 * if (!note.includes("the refresh token the login POST /signin ($.json.refresh_token)")) throw new Error(note);
 * ```
 */
export function renewalNote(note: string, login: Login, source: YNode): string {
  const at = note.indexOf("): the token the login ");
  if (at === -1) return note;
  const where = typeof source === "string" ? source : "a member named like a refresh token";
  return `${
    note.slice(0, at)
  }): the refresh token the login ${login.op.method} ${login.op.template} (${where}) answers with, this operation renewing the token`;
}
