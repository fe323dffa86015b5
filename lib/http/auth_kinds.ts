/**
 * The kinds flowrun applies, one entry each, and the handler of a step's
 * `auth` block. A new kind is a module exporting an `AuthFactory` (see
 * `auth.ts`) and one entry here.
 *
 * @module
 */
import type { Auth, AuthKind } from "../model/auth.ts";
import { evaluate, type Scope, toText } from "../expr/template.ts";
import type { AuthFactory, AuthHandler, AuthServices } from "./auth.ts";
import { AuthError } from "./auth_error.ts";
import { ownWords } from "../model/told.ts";
import { apiKey, basic, bearer } from "./auth_simple.ts";
import { digest } from "./auth_digest.ts";
import { sigv4 } from "./auth_sigv4.ts";
import { oauth2 } from "./oauth2.ts";
import { commandBearer } from "./auth_command.ts";

/**
 * The kinds flowrun applies, each the factory of a module of its own
 * (`auth_digest.ts`, `auth_sigv4.ts`, …).
 *
 * @example
 * ```ts
 * import { AUTH_HANDLERS } from "./auth_kinds.ts";
 * if (!AUTH_HANDLERS.basic || !AUTH_HANDLERS.oauth2) throw new Error();
 * ```
 */
export const AUTH_HANDLERS: Partial<Record<AuthKind, AuthFactory>> = {
  basic,
  // A token written as an expression, or printed by a program (`command`).
  bearer: (auth, render, services) =>
    ("command" in auth ? commandBearer : bearer)(auth, render, services),
  api_key: apiKey,
  digest,
  aws_sigv4: sigv4,
  oauth2,
};

/**
 * The handler of an `auth` block for a step whose templates read `scope`;
 * none for `auth: none` or no block.
 *
 * @example
 * ```ts
 * import { authHandler } from "./auth_kinds.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const scope = { env: () => undefined, vars: new Map([["pw", "open sesame"]]), steps: new Map(), runId: "r" };
 * const auth = { kind: "basic" as const, username: parseTemplate("Aladdin"), password: parseTemplate("${vars.pw}") };
 * const handler = authHandler(auth, scope, { secret: () => {}, env: () => undefined, timeoutMs: 1000 });
 * const request = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
 * await handler!.apply(request);
 * if (request.headers[0][1] !== "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==") throw new Error(request.headers[0][1]);
 * ```
 */
export function authHandler(
  auth: Auth | undefined,
  scope: Scope,
  services: AuthServices,
): AuthHandler | undefined {
  if (!auth || auth.kind === "none") return undefined;
  const factory = AUTH_HANDLERS[auth.kind];
  if (!factory) {
    throw new AuthError(ownWords(`Auth "${auth.kind}" is not available in this build of flowrun.`));
  }
  return factory(auth, (template) => toText(evaluate(template, scope)), services);
}
