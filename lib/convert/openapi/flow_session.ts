/**
 * How a step of a flow is signed in: a block sending the login's token reads the login step's
 * capture, and an unsafe step of a cookie session echoes the XSRF token cookie its sign-in set.
 * Functions over what {@linkcode SessionBuilder} gives of the flow being built (flow.ts).
 *
 * @module
 */
import type { YMap, YNode } from "../yaml_out.ts";
import type { StepAuth } from "./auth.ts";
import { LOGIN_STEP, TOKEN_CAPTURE } from "./auth_login.ts";
import { adminBlock } from "./for_admins.ts";
import { tokenGiver } from "./login.ts";
import type { OpenApiOperation } from "./operations.ts";
import { withSaidAuth } from "./said_auth.ts";
import type { SetupSteps } from "./setup_steps.ts";
import type { Shared } from "./shared.ts";
import { renewalNote, sentToken, signedIn } from "./token_refresh.ts";
/** A cookie parameter's value, the login's own cookie where the document gives none. */
export { sentCookie } from "./server_cookie.ts";
import { echoesXsrf, withXsrfEcho, xsrfCapture } from "./xsrf_cookie.ts";

/**
 * What the flow being built gives the session's blocks: its steps so far and its captures.
 *
 * @example
 * ```ts
 * import type { SessionBuilder } from "./flow_session.ts";
 * const b: SessionBuilder = {
 *   shared: { inferred: {} } as never,
 *   stepOf: new Map(),
 *   runVars: new Set(),
 *   capture: (step, key) => `\${steps.${step}.capture.${key}}`,
 * };
 * const got = b.capture("login", "token", "$.json.token");
 * if (got !== "${steps.login.capture.token}") throw new Error(got);
 * ```
 */
export interface SessionBuilder {
  readonly shared: Shared;
  readonly stepOf: ReadonlyMap<OpenApiOperation, string>;
  readonly runVars: Set<string>;
  readonly setup?: SetupSteps;
  /** `${steps.<step>.capture.<key>}`, the capture added to that step. */
  capture(step: string, key: string, source: YNode): string;
}

/**
 * `step`, echoing the token cookie a browser client echoes (xsrf_cookie.ts) when it is unsafe:
 * the one the setup's sign-in set, or else the one this flow's own session login (or the sign-up
 * before it, which a FoalTS server signs in too) set.
 *
 * @example
 * ```ts
 * import { withXsrf } from "./flow_session.ts";
 * import { ymap } from "../yaml_out.ts";
 * const login = { method: "POST", node: {} };
 * const b = {
 *   shared: { inferred: { login: { op: login, session: true } } },
 *   stepOf: new Map([[login, "sign_in"]]),
 *   capture: (step: string, key: string) => `\${steps.${step}.capture.${key}}`,
 * } as never;
 * const step = ymap([["request", ymap([["method", "DELETE"], ["url", "u"]])]]);
 * withXsrf(b, { method: "DELETE", node: {} } as never, step);
 * if (!JSON.stringify(step).includes('"X-XSRF-TOKEN","${steps.sign_in.capture.xsrf}"')) {
 *   throw new Error(JSON.stringify(step));
 * }
 * ```
 */
export function withXsrf(b: SessionBuilder, op: OpenApiOperation, step: YMap): YMap {
  const { login } = b.shared.inferred;
  if (!echoesXsrf(op.method)) return step;
  // The session's latest answer before this step: the login's, or the sign-up's before it.
  const own = login?.session
    ? [login.op, login.register].filter((o) => o && o !== op).map((o) => b.stepOf.get(o!))
      .find((s) => s !== undefined)
    : undefined;
  const xsrf = b.setup ? b.setup.xsrf(op) : own && b.capture(own, "xsrf", xsrfCapture());
  if (xsrf) withXsrfEcho(step, xsrf);
  return step;
}

/**
 * A block sending the login's token names the login's step in this flow, and reads its capture;
 * an administrators' step's sends `ADMIN_TOKEN` instead, when set (for_admins.ts).
 *
 * @example
 * ```ts
 * import { fromLogin } from "./flow_session.ts";
 * import { LOGIN_STEP, TOKEN_CAPTURE } from "./auth_login.ts";
 * import { ymap } from "../yaml_out.ts";
 * const login = { method: "POST", node: {} };
 * const block = ymap([["bearer", ymap([["token", `\${steps.${LOGIN_STEP}.capture.token}`]])]]);
 * const b = {
 *   shared: {
 *     doc: {},
 *     auth: { forOperation: () => ({ block }) },
 *     inferred: { login: { op: login, path: ["token"], schemes: new Map() } },
 *   },
 *   stepOf: new Map([[login, "sign_in"]]),
 *   runVars: new Set(),
 *   capture: (step: string, key: string) => `\${steps.${step}.capture.${key}}`,
 * } as never;
 * const guards: string[] = [];
 * const got = fromLogin(b, { method: "GET", node: {} } as never, guards, []);
 * if (!JSON.stringify(got.block).includes("steps.sign_in.capture.token")) throw new Error();
 * if (guards[0] !== "${steps.sign_in.capture.token}") throw new Error(guards.join());
 * ```
 */
export function fromLogin(
  b: SessionBuilder,
  op: OpenApiOperation,
  guards: string[],
  ifs: YNode[],
): StepAuth {
  const auth = withSaidAuth(op, b.shared.auth, b.runVars);
  const { login } = b.shared.inferred;
  if (!auth.block || !login || !JSON.stringify(auth.block).includes(LOGIN_STEP)) return auth;
  const admin = adminBlock(b.shared, op, auth.block, ifs);
  if (admin) return { ...auth, ...admin };
  // Always there: the login (or the sign-up answering the token) precedes what it serves.
  const step = b.stepOf.get(login.op) ?? b.stepOf.get(tokenGiver(login)) ?? login.op.name;
  const [key, source] = sentToken(b.shared.doc, op, login);
  const sent = b.capture(step, key, source);
  guards.push(sent);
  const notes = key === TOKEN_CAPTURE
    ? auth.notes
    : auth.notes.map((note) => renewalNote(note, login, source));
  return { ...auth, notes, block: signedIn(auth.block, step, sent) as YMap };
}
