/**
 * A password the docs send only to show it refused. Tutorials log in with a
 * wrong password first (`-d '{"password":"wrong"}'`, answered 401), then
 * with the right one: the wrong word was asked as `LOGIN_PASSWORD` and the
 * right one as `LOGIN_PASSWORD_2`, so a reader set the first to their own
 * password and the refusal the docs show became a pass. A password field
 * whose command the docs show refused (a 401 or 403, pasted or stated:
 * curl_announced.ts) is no credential of the user's when no command the docs
 * do not show refused sends that value: it is sent as written unless its
 * variable is set, as `-u`'s is (curl_auth.ts). One a command the docs show
 * accepted also sends is the account's own (a role's 403), and stays asked.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import type { Step } from "./model.ts";
import { bodyFields, PASSWORD_KEY } from "./curl_body_fields.ts";
import { envName } from "./names.ts";

import type { HarRecord } from "./har_model.ts";

const refused = (r: HarRecord) => r.status === 401 || r.status === 403;

/**
 * The values the bodies of the commands the docs do not show refused send: a password among
 * them is the account's own, wherever else it is refused.
 *
 * @example
 * ```ts
 * import { acceptedValues } from "./curl_refused_password.ts";
 * const records = [{ status: 200, headers: [], bodyText: '{"password":"pw"}' }];
 * // deno-lint-ignore no-explicit-any
 * if (!acceptedValues(records as any).has("pw")) throw new Error();
 * ```
 */
export function acceptedValues(records: readonly HarRecord[]): Set<string> {
  return new Set(
    records.filter((r) => !refused(r)).flatMap((r) => bodyFields(r).map(([, v]) => v)),
  );
}

/**
 * The reference a refused command's password is written as, or `undefined` when `key` holds
 * no password, the step is not shown refused, or an accepted command sends `value` too.
 *
 * @example
 * ```ts
 * import { refusedPassword } from "./curl_refused_password.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const c = newCorrelator("a");
 * const step = { name: "login", first: { status: 401, headers: [], bodyText: "" } };
 * // deno-lint-ignore no-explicit-any
 * const ref = refusedPassword(c, ["password", "wrong"], step as any, new Set());
 * if (ref !== "${ENV.LOGIN_REFUSED_PASSWORD:-wrong}") throw new Error(ref);
 * ```
 */
export function refusedPassword(
  c: Correlator,
  [key, value]: [string, string],
  step: Step,
  accepted: ReadonlySet<string>,
): string | undefined {
  if (value === "" || !PASSWORD_KEY.test(key) || !refused(step.first) || accepted.has(value)) {
    return undefined;
  }
  const base = `${envName(step.name)}_REFUSED_PASSWORD`;
  let name = base;
  for (let n = 2; c.env.has(name) && c.env.get(name)!.fallback !== value; n++) {
    name = `${base}_${n}`;
  }
  const about = `the "${key}" field sent by step "${step.name}", which the docs show refused`;
  c.env.set(name, { about, fallback: value });
  return c.sp.envRef(name, c.sp.lit(value));
}
