/**
 * Signing in once per run, not once per flow. A flow gets its own copy of
 * the login (and the sign-up it signs in with: `prerequisites.ts`), so a
 * document split into eight flows signed in eight times; a server limiting
 * sign-ins (tududi: 5 per 15 minutes) refused the sixth 429 and every later
 * step of those flows answered 401. Newman and a person sign in once. When
 * two flows or more would sign in with the login's token, the sign-up and
 * the login go into one setup flow (`.sign_in.yaml`, which the summary's
 * command passes with `--setup`), whose `outputs` hand the token, and the
 * account's run values and whatever else the flows read of those steps, to
 * every flow as `${setup.NAME}`. The file is hidden, so `flowrun run OUT/`
 * never reads it as a flow (run alone, the flows say they need `--setup`).
 * A cookie session (`session_login.ts`) hands on its cookie, which the
 * document's one cookie apiKey scheme names (tududi's `connect.sid`): the
 * setup's login captures it and each flow's steps send it, and the token
 * cookie a browser client echoes on unsafe requests (`xsrf_cookie.ts`).
 *
 * A flow that ends or renews the session (a sign-out, a revoke, a renewal
 * with the refresh token, the signed-in account's delete) keeps its own
 * sign-in: run beside the others, it would end the session they share. A
 * cookie session whose cookie no scheme names is not shared (a setup flow's
 * cookie jar is its own), nor is a token login's where the operations
 * require a cookie too (better-auth's `apiKeyCookie` beside its bearer,
 * which its flows' jars keep from the login's answer). Nor is a sign-up
 * tried twice (`second_signup.ts`), whose first refusal is expected: a
 * setup flow that does not pass skips the run.
 * For that reason too the setup's steps check only that each is accepted
 * (2xx), not the document's exact status or schema.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { UniqueNames } from "../names.ts";
import { ymap, ymapOf, type YNode } from "../yaml_out.ts";
import { deletesAccount } from "./account_delete.ts";
import { TOKEN_CAPTURE } from "./auth_login.ts";
import { FlowBuilder } from "./flow.ts";
import type { Shared } from "./shared.ts";
import { type Login, tokenGiver } from "./login.ts";
import type { OpenApiOperation } from "./operations.ts";
import { usesLogin, withPrerequisites } from "./prerequisites.ts";
import { ownAccountGuard } from "./own_account_guard.ts";
import { runVarsOf } from "./run_values.ts";
import { requiresCookie } from "./session_login.ts";
import type { SetupSteps } from "./setup_steps.ts";
import { signsOut } from "./sign_out.ts";
import { sentToken } from "./token_refresh.ts";
import { xsrfCapture } from "./xsrf_cookie.ts";

/** The setup flow's file, in the output folder: hidden, so a run of the folder never reads it. */
export const SIGN_IN_FILE = ".sign_in.yaml";

/** Stands before a setup step's name in a flow's own map of steps. */
const SETUP_STEP = "\u2060setup\u2060";

/**
 * Whether a flow's operations end or renew the session they sign in with.
 *
 * @example
 * ```ts
 * import { endsSession } from "./sign_in_once.ts";
 * const op = (template: string) => ({ method: "POST", template, node: {} }) as never;
 * const login = { op: op("/login"), path: ["token"], schemes: new Map() };
 * if (!endsSession([op("/logout")], {}, login as never) || endsSession([op("/notes")], {}, login as never)) {
 *   throw new Error();
 * }
 * ```
 */
export function endsSession(ops: OpenApiOperation[], doc: Node, login: Login): boolean {
  return ops.some((op) =>
    signsOut(op) || (usesLogin(op.node, doc, login) &&
      (deletesAccount(doc, op, login) || sentToken(doc, op, login)[0] !== TOKEN_CAPTURE))
  );
}

/** The setup flow's builder: every step checks only that it was accepted; its steps are read. */
class SetupBuilder extends FlowBuilder {
  override assertion(): YNode {
    return ymap([["status", ymap([["gte", 200], ["lt", 300]])]]);
  }

  /** The sign-up runs for the run's own account only (own_account_guard.ts). */
  protected override conditions = (op: OpenApiOperation): YNode[] => {
    const guard = ownAccountGuard(this.shared.inferred.login, op, this.runVars);
    return guard ? [guard] : [];
  };

  get stepNames(): ReadonlyMap<OpenApiOperation, string> {
    return this.stepOf;
  }

  get runValues(): ReadonlySet<string> {
    return this.runVars;
  }

  captureOf(step: string, key: string, source: YNode): string {
    return this.capture(step, key, source);
  }
}

/** The run's one sign-in: the setup flow's steps, and what the flows read of them. */
export class SignInOnce implements SetupSteps {
  readonly #setup: SetupBuilder;
  readonly ops: ReadonlySet<OpenApiOperation>;
  readonly #outputs = new Map<string, string>();
  readonly #names = new UniqueNames();
  readonly #vars: Set<string>;
  /** A cookie session's cookie: its name, and the setup's output of its value. */
  readonly #cookie?: [string, string];
  /** The setup's output of the token cookie its sign-in set, which unsafe steps echo. */
  readonly #xsrf?: string;
  readonly #doc: Node;

  constructor(readonly login: Login, shared: Shared) {
    this.#doc = shared.doc;
    this.#setup = new SetupBuilder(SIGN_IN_FILE, shared);
    const { ops } = withPrerequisites([tokenGiver(login)], shared.doc, shared.inferred);
    for (const op of ops) this.#setup.add(op);
    this.ops = new Set(ops);
    this.#vars = new Set(runVarsOf(this.#setup.runValues).map(([k]) => k));
    const cookie = login.session ? sessionCookie(shared.doc) : undefined;
    if (cookie === undefined) return;
    const step = this.#setup.stepNames.get(login.op)!;
    const value = this.#setup.captureOf(step, "session", ymap([["cookie", cookie]]));
    this.#cookie = [cookie, this.#output("session", value)];
    // A browser client echoes the sign-in's readable token cookie: xsrf_cookie.ts.
    this.#xsrf = this.#output("xsrf", this.#setup.captureOf(step, "xsrf", xsrfCapture()));
  }

  /** The session cookie a step sends, when it needs the session: none for a token login. */
  cookies(op: OpenApiOperation): [string, string][] {
    const needs = this.#cookie && usesLogin(op.node, this.#doc, this.login);
    return needs ? [this.#cookie!] : [];
  }

  /** The token cookie's value an unsafe step echoes when it sends the session cookie. */
  xsrf(op: OpenApiOperation): string | undefined {
    return this.cookies(op).length > 0 ? this.#xsrf : undefined;
  }

  /** Whether a flow of these operations signs in here: it reads the token and keeps the session. */
  serves(ops: OpenApiOperation[], doc: Node): boolean {
    return ops.includes(tokenGiver(this.login)) && !endsSession(ops, doc, this.login);
  }

  /** A flow's name for the setup's step of `op`, which {@linkcode capture} knows. */
  stepOf(op: OpenApiOperation): string {
    return SETUP_STEP + this.#setup.stepNames.get(op)!;
  }

  /** `${setup.NAME}` for a capture of a setup step (named by {@linkcode stepOf}); else none. */
  capture(step: string, key: string, source: YNode): string | undefined {
    if (!step.startsWith(SETUP_STEP)) return undefined;
    return this.#output(key, this.#setup.captureOf(step.slice(SETUP_STEP.length), key, source));
  }

  /** `${setup.NAME}` for a run value the setup made too (the account's email, its password). */
  shared(name: string): string | undefined {
    return this.#vars.has(name) ? this.#output(name, `\${vars.${name}}`) : undefined;
  }

  #output(key: string, value: string): string {
    let name = this.#outputs.get(value);
    if (name === undefined) this.#outputs.set(value, name = this.#names.take(key));
    return `\${setup.${name}}`;
  }

  /** The setup flow's text, once every flow has been written (they name its outputs). */
  text(header: string[]): string {
    const outputs = [...this.#outputs].map(([value, name]): [string, YNode] => [name, value]);
    return this.#setup.text("sign in", header, ymapOf(outputs));
  }
}

/**
 * The run's one sign-in, when two flows or more (of `flows`, each one's operations) would sign in
 * with the login's token or session; none for a session whose cookie no scheme names, a token
 * whose operations require a cookie too, or a sign-up tried twice (see the module).
 *
 * @example
 * ```ts
 * import { signInOnce } from "./sign_in_once.ts";
 * if (signInOnce({ inferred: { params: new Map() } } as never, []) !== undefined) throw new Error();
 * ```
 */
export function signInOnce(shared: Shared, flows: OpenApiOperation[][]): SignInOnce | undefined {
  const { login } = shared.inferred;
  if (!login || login.alternate) return undefined;
  if (login.session && sessionCookie(shared.doc) === undefined) return undefined;
  // A cookie a token login's operations require is kept by each flow's jar from its login's answer.
  if (!login.session && requiresCookie(shared.doc, flows.flat())) return undefined;
  const giver = tokenGiver(login);
  const signing = flows.filter((ops) =>
    ops.includes(giver) && !endsSession(ops, shared.doc, login)
  );
  return signing.length >= 2 ? new SignInOnce(login, shared) : undefined;
}

/** The name of the cookie the document's one cookie apiKey scheme sends: a session's. */
function sessionCookie(doc: Node): string | undefined {
  const components = isNode(doc.components) ? doc.components : {};
  const schemes = isNode(components.securitySchemes) ? components.securitySchemes : {};
  const names = new Set(
    Object.values(schemes).filter((s) => isNode(s) && s.type === "apiKey" && s.in === "cookie")
      .map((s) => (s as Node).name).filter((n) => typeof n === "string" && n !== ""),
  );
  return names.size === 1 ? [...names][0] as string : undefined;
}
