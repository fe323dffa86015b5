/**
 * A session login (session_login.ts) in a document that declares no
 * security at all may still answer a token its document does not show:
 * `@nestjs/swagger` without `addBearerAuth` writes no scheme and no
 * requirement, and a NestJS Trello API's `POST /users/login`, documented as
 * answering its user entity, answers `{user: {id, email, token}}`, a JWT
 * every write wants as `Authorization: Bearer …` (4 of 21 operations
 * accepted with the token unread, 20 with it sent by hand). Nothing in such
 * a document says where a token would be, nor whether there is one; the
 * token says what it is: a JWT (RFC 7519) is three base64url parts, the
 * first a JSON object naming its `alg`. So the login's step captures,
 * `optional: true`, the first such string anywhere in its answer, and each
 * later step of its flows sends it as RFC 6750's bearer header under
 * `omit_empty_headers`, which leaves a header reading an unset capture out:
 * a login answering a session cookie and no JWT sends exactly what it sent
 * before, no bare `Authorization`. A login may hand the JWT out in a
 * response header instead, its body empty (a hapi inventory API's login
 * answers `x-auth-token: <jwt>` and no body; `hapi-swagger` shows neither:
 * 3 of 6 operations accepted with it unread, 6 with it sent): a header whose
 * whole value is a JWT, bare or after `Bearer `, is read when the body holds
 * none. The value's form is the evidence, never the header's name; a
 * `Set-Cookie` line (`name=value; …`) is never such a value, its cookie
 * being the jar's to send. A document declaring any scheme or
 * requirement says how its operations are authorised, and is read as it
 * says.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { YMap, YNode } from "../yaml_out.ts";
import { ymap } from "../yaml_out.ts";
import type { Login } from "./login.ts";
import type { OpenApiOperation } from "./operations.ts";
import { sessionOptions } from "./session_login.ts";

/**
 * A JWT as a JSON answer's text holds it, a string: its first part starts with `eyJ` (`{"`
 * encoded) and holds `"alg"` encoded at one of the three offsets base64 can put it
 * (`ImFsZy`, `JhbGci`, `iYWxnI`), then two more parts (the signature empty for `alg: none`).
 *
 * @example
 * ```ts
 * import { JWT_IN_TEXT } from "./session_token.ts";
 * const jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6MX0.c2ln";
 * const found = new RegExp(JWT_IN_TEXT).exec(`{"user":{"id":1,"token":"${jwt}"}}`);
 * if (found?.[1] !== jwt || new RegExp(JWT_IN_TEXT).test('"eyJpZCI6MX0.eyJpZCI6MX0.c2ln"')) throw new Error();
 * ```
 */
export const JWT_IN_TEXT =
  '"((?=eyJ)[A-Za-z0-9_-]*(?:ImFsZy|JhbGci|iYWxnI)[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*)"';

/**
 * A response header whose whole value is a JWT, bare or after `Bearer `, as a JSONPath filter
 * (RFC 9535's `match`, whose I-Regexp has no lookahead: the first part starts `eyJ` and names
 * `alg` at one of the offsets `JWT_IN_TEXT` allows, `hbGci` right after `eyJ` the first).
 *
 * @example
 * ```ts
 * import { JWT_HEADER } from "./session_token.ts";
 * if (!JWT_HEADER.startsWith("$.headers[?match(@, '(Bearer )?eyJ")) throw new Error();
 * ```
 */
export const JWT_HEADER =
  "$.headers[?match(@, '(Bearer )?eyJ([A-Za-z0-9_-]*(ImFsZy|JhbGci|iYWxnI)" +
  "|hbGci)[A-Za-z0-9_-]*[.][A-Za-z0-9_-]+[.][A-Za-z0-9_-]*')]";

/** The JWT itself in the header `JWT_HEADER` found (after `Bearer ` when it says one). */
const JWT_ALONE = JWT_IN_TEXT.slice(1, -1);

/**
 * The login step's `token`: the JWT its body holds (captured first as `token_in_body`), else
 * the one a response header holds whole (see the module doc); unset when neither does.
 */
function captureJwt(
  step: string,
  capture: (step: string, key: string, source: YNode) => string,
): string {
  const inBody = capture(step, "token_in_body", ymap([["regex", JWT_IN_TEXT], ["optional", true]]));
  const noBody = ymap([["value", inBody], ["exists", false]]);
  const header = ymap([["path", JWT_HEADER], ["exists", true]]);
  return capture(
    step,
    "token",
    ymap([
      ["path", JWT_HEADER],
      ["first", true],
      ["regex", JWT_ALONE],
      ["optional", true],
      ["when", [noBody, header]],
      ["otherwise", inBody],
    ]),
  );
}

/**
 * Whether `doc` declares a scheme or a requirement anywhere, as session_login.ts reads it: an
 * empty `securitySchemes` (Nest writes one) or `security: []` declares nothing.
 */
function declaresSecurity(doc: Node): boolean {
  const components = isNode(doc.components) ? doc.components : {};
  const schemes = isNode(components.securitySchemes) ? components.securitySchemes : {};
  if (Object.keys(schemes).length > 0 || isNode(doc.securityDefinitions)) return true;
  const items = isNode(doc.paths) ? Object.values(doc.paths).filter(isNode) : [];
  const ops = items.flatMap((item) => Object.values(item).filter(isNode));
  const required = (s: unknown) => Array.isArray(s) && s.length > 0;
  return required(doc.security) || ops.some((op) => required(op.security));
}

/**
 * Whether `login` is a session login whose answer may hold an undocumented JWT: the document
 * declares no security at all (see the module doc).
 *
 * @example
 * ```ts
 * import { readsAnswerJwt } from "./session_token.ts";
 * const login = { session: true } as never;
 * if (!readsAnswerJwt(login, { paths: {} })) throw new Error();
 * if (readsAnswerJwt(login, { paths: {}, components: { securitySchemes: { k: {} } } })) throw new Error();
 * ```
 */
export function readsAnswerJwt(login: Login | undefined, doc: Node): boolean {
  return login?.session === true && !declaresSecurity(doc);
}

/** A step's `request.headers` map, made (after `url` and `query`) when it has none. */
function headersOf(step: YMap): YMap | undefined {
  const request = step.entries.find(([k]) => k === "request")?.[1];
  if (!isNode(request) || (request as YMap).kind !== "map") return undefined;
  const entries = (request as YMap).entries;
  const found = entries.find(([k]) => k === "headers")?.[1] as YMap | undefined;
  if (found) return found;
  const headers: YMap = { kind: "map", entries: [] };
  entries.splice(entries.findLastIndex(([k]) => k === "url" || k === "query") + 1, 0, [
    "headers",
    headers,
  ]);
  return headers;
}

/**
 * A flow's `options` (`sessionOptions`'s), with `omit_empty_headers` when its login may answer
 * an undocumented JWT; then the login's step captures it (`capture(step, key, source)`) and
 * each of `steps` after it sends it as a bearer (see the module doc).
 *
 * @example
 * ```ts
 * import { sendAnswerJwt } from "./session_token.ts";
 * import { ymap } from "../yaml_out.ts";
 * const op = { node: {} } as never;
 * const step = (name: string) => ({ node: ymap([["name", name], ["request", ymap([["url", "u"]])]]) });
 * const steps = [step("login"), step("items")];
 * const shared = { doc: { paths: {} }, inferred: { login: { session: true, op } as never } };
 * const options = sendAnswerJwt(shared, new Map([[op, "login"]]), steps, (s, k) => `\${steps.${s}.capture.${k}}`);
 * if (!JSON.stringify(options).includes("omit_empty_headers")) throw new Error();
 * if (!JSON.stringify(steps[1]).includes("Bearer ${steps.login.capture.token}")) throw new Error();
 * ```
 */
export function sendAnswerJwt(
  shared: { doc: Node; inferred: { login?: Login } },
  stepOf: ReadonlyMap<OpenApiOperation, string>,
  steps: { node: YMap; auth?: { block?: YMap } }[],
  capture: (step: string, key: string, source: YNode) => string,
): YMap | undefined {
  const { doc, inferred: { login } } = shared;
  const session = sessionOptions(login, stepOf, doc);
  const step = login && stepOf.get(login.op);
  if (!session || !step || !readsAnswerJwt(login, doc)) return session;
  const at = steps.findIndex(({ node }) =>
    node.entries.some(([k, v]) => k === "name" && v === step)
  );
  // A step authorised as the document's words say (said_auth.ts) keeps that `auth:` alone.
  const later = at < 0 ? [] : steps.slice(at + 1).filter(({ auth }) => !auth?.block)
    .map(({ node }) => headersOf(node))
    .filter((h) => h && !h.entries.some(([k]) => k.toLowerCase() === "authorization"));
  if (later.length === 0) return session;
  const token = captureJwt(step, capture);
  for (const headers of later) headers!.entries.push(["Authorization", `Bearer ${token}`]);
  return ymap([...session.entries, ["omit_empty_headers", true]]);
}

/**
 * The summary's line for a login read for an undocumented JWT, if `login` is one.
 *
 * @example
 * ```ts
 * import { answerJwtLines } from "./session_token.ts";
 * const login = { session: true, op: { method: "POST", template: "/login" } } as never;
 * if (!answerJwtLines(login, {})[0].startsWith("bearer ← POST /login")) throw new Error();
 * if (answerJwtLines(undefined, {}).length > 0) throw new Error();
 * ```
 */
export function answerJwtLines(login: Login | undefined, doc: Node): string[] {
  if (!login || !readsAnswerJwt(login, doc)) return [];
  return [
    `bearer ← ${login.op.method} ${login.op.template}: a JWT anywhere in its answer (else a ` +
    "response header that is one), when it holds one (no security is declared and no token shown), sent by each later step as " +
    "Authorization: Bearer; none sent when it holds none",
  ];
}
