/**
 * A cookie parameter the document gives no value for is the server's to
 * set. A cookie is state a server hands a client with `Set-Cookie` (RFC
 * 6265), which the client sends back; a value made up from its schema
 * (`refreshToken=string`) is one no server ever issued. An Express social
 * API's `POST /auth/refresh` requires the `in: cookie` parameter
 * `refreshToken` (a plain string, "the refresh token stored in the
 * browser's cookie"), and its login, documented as answering
 * `{accessToken}`, sets that cookie without the document saying so: sent
 * `string`, the renewal was refused (500 `jwt malformed`). The sign-in is
 * the one step every flow runs first whose answer hands out the session, so
 * the login's step captures the cookie of the parameter's name from its
 * answer's `Set-Cookie` (empty text when it sets none, as a setup's output
 * must be evaluated), and the step sends that. A cookie the document gives a
 * value for (an `example`, a `default`, an `enum`) is sent that value, and
 * a step before any login is sent what it was.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { type YMap, ymap } from "../yaml_out.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { givenExample, literal, simpleText } from "./params.ts";
import type { Shared } from "./shared.ts";

/** What of a flow's builder this reads (`flow_session.ts`'s `SessionBuilder`, without a cycle). */
interface CookieFlow {
  readonly shared: Shared;
  readonly stepOf: ReadonlyMap<OpenApiOperation, string>;
  /** `${steps.<step>.capture.<key>}`, the capture added to that step. */
  capture(step: string, key: string, source: YMap): string;
}

/** Whether the document gives parameter `p` a value: an example of its own, or its schema's. */
function gives(doc: unknown, p: Node): boolean {
  if (givenExample(doc, p).given) return true;
  const schema = deref(doc, p.schema);
  return isNode(schema) &&
    ["example", "default", "const", "examples", "enum"].some((k) => Object.hasOwn(schema, k));
}

/**
 * What step `op` sends as its cookie parameter `p`: the cookie the login's answer set, captured
 * on the login's step (which ran before `op`, in the flow or its setup), when the document gives
 * the cookie no value; else `value`, the one it gives. Each such cookie is named in the summary.
 *
 * @example
 * ```ts
 * import { sentCookie } from "./server_cookie.ts";
 * const [login, refresh] = [{ method: "POST", template: "/login" }, { method: "POST", template: "/refresh" }];
 * const flow = {
 *   shared: { doc: {}, inferred: { params: new Map(), login: { op: login } } },
 *   stepOf: new Map([[login, "post_login"]]),
 *   capture: (step: string, key: string) => "${steps." + step + ".capture." + key + "}",
 * } as never;
 * const sent = sentCookie(flow, refresh as never, { in: "cookie", name: "rt" }, "string");
 * if (sent !== "${steps.post_login.capture.rt}") throw new Error(String(sent));
 * if (sentCookie(flow, refresh as never, { in: "cookie", name: "rt", example: "a" }, "a") !== "a") throw new Error();
 * ```
 */
export function sentCookie(
  flow: CookieFlow,
  op: OpenApiOperation,
  p: Node,
  value: unknown,
): string {
  const login = flow.shared.inferred.login?.op;
  const step = login && login !== op ? flow.stepOf.get(login) : undefined;
  if (!login || step === undefined || gives(flow.shared.doc, p)) return literal(simpleText(value));
  const name = String(p.name);
  const key = /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : "cookie";
  (flow.shared.inferred.serverCookies ??= new Set()).add(serverCookieLine(op, name, login));
  return flow.capture(step, key, serverCookieCapture(name));
}

/**
 * The login step's capture of the cookie `name` its answer sets: its value
 * when a `Set-Cookie` line names it, else empty text.
 *
 * @example
 * ```ts
 * import { serverCookieCapture } from "./server_cookie.ts";
 * const text = JSON.stringify(serverCookieCapture("refreshToken"));
 * if (!text.includes('"cookie","refreshToken"') || !text.includes("refreshToken=")) throw new Error(text);
 * ```
 */
export function serverCookieCapture(name: string): YMap {
  const set = ymap([["path", "$.headers.set-cookie"], ["matches", `${escaped(name)}=`]]);
  return ymap([["cookie", name], ["optional", true], ["when", set], ["otherwise", ""]]);
}

/**
 * The summary's line for the cookie `name` `op` is sent from `login`'s answer.
 *
 * @example
 * ```ts
 * import { serverCookieLine } from "./server_cookie.ts";
 * const op = (method: string, template: string) => ({ method, template }) as never;
 * const line = serverCookieLine(op("POST", "/auth/refresh"), "refreshToken", op("POST", "/auth/login"));
 * if (!line.startsWith("cookie refreshToken of POST /auth/refresh ← POST /auth/login")) throw new Error(line);
 * ```
 */
export function serverCookieLine(
  op: { method: string; template: string },
  name: string,
  login: { method: string; template: string },
): string {
  return `cookie ${name} of ${op.method} ${op.template} ← ${login.method} ${login.template} ` +
    "its Set-Cookie (the document gives the cookie no value; empty when it sets none)";
}

/** `name` as a regular expression matches it literally. */
function escaped(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
