/**
 * A sign-in whose whole body is the credential, with no field naming it.
 * Federated Wiki's owner reclaim posts the code typed into its password
 * dialog as the `text/plain` body of `POST /auth/reclaim/`; other pages post
 * a PIN or a passphrase the same way, or as a JSON string (`"…"`). Read as a
 * form, such a body is one name without a value: no credential was found,
 * the login lost its name and the typed code was written into the flow. A
 * login whose body is one bare value that no earlier answer produced and the
 * run does not choose sends what the user typed: it is asked, never written.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import type { Step } from "../model.ts";
import { type Correlator, secretEnv } from "./state.ts";
import { typedOnce } from "./typed_once.ts";

/** One value: no spaces, no form or JSON structure, no markup; a short word up to a long code. */
const BARE = /^[^\s=&{}[\]<>"'\\]{4,512}$/;

/** An e-mail address. */
const EMAIL = /^[^@]+@[^@]+\.[a-z]{2,}$/i;

/**
 * The value a body of one bare value sends (`code` as text, or `"code"` as a
 * JSON string), `undefined` for any other body.
 *
 * @example
 * ```ts
 * import { bareValue } from "./bare_credential.ts";
 * if (bareValue("s3cretfriendcode") !== "s3cretfriendcode") throw new Error();
 * if (bareValue('"s3cretfriendcode"') !== "s3cretfriendcode") throw new Error();
 * if (bareValue("a=1&b=2") !== undefined || bareValue("two words") !== undefined) throw new Error();
 * if (bareValue("ann@example.com") !== undefined) throw new Error();
 * ```
 */
export function bareValue(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const quoted = /^"([^"]*)"$/.exec(text);
  const value = quoted ? quoted[1] : text;
  // An address (a magic link's sign-in) is the account the user names, not a secret.
  return BARE.test(value) && !EMAIL.test(value) ? value : undefined;
}

/**
 * Whether `records[i]` sends a bare value the user typed: one that no answer
 * before it held (a token posted back whole is that answer's) and the run
 * does not choose.
 *
 * @example
 * ```ts
 * import { sendsBareCredential } from "./bare_credential.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const r = { bodyText: "s3cretfriendcode", setCookies: [] };
 * // deno-lint-ignore no-explicit-any
 * if (!sendsBareCredential(c, [r] as any, 0)) throw new Error();
 * ```
 */
export function sendsBareCredential(
  c: Correlator,
  records: readonly HarRecord[],
  i: number,
): boolean {
  const value = bareValue(records[i].bodyText);
  if (value === undefined || c.generated.has(value)) return false;
  for (let j = i - 1; j >= 0; j--) {
    const o = records[j];
    if (o.responseText?.includes(value) || o.setCookies.some((k) => k.value === value)) {
      return false;
    }
  }
  return true;
}

/**
 * The body of a login `step` whose recorded `text` is one bare value that
 * `withTokens` left as it was (no answer produced it): the value asked as
 * `LOGIN_PASSWORD` (as text, or inside the JSON string's quotes);
 * `undefined` when the body is anything else.
 *
 * @example
 * ```ts
 * import { askBareCredential } from "./bare_credential.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * const step = { name: "login" } as any;
 * if (askBareCredential(c, "s3cretfriendcode", step) !== "${ENV.LOGIN_PASSWORD}") throw new Error();
 * if (!c.env.has("LOGIN_PASSWORD")) throw new Error();
 * ```
 */
export function askBareCredential(c: Correlator, text: string, step: Step): string | undefined {
  const value = bareValue(text);
  if (value === undefined || c.generated.has(value)) return undefined;
  c.replaced.secrets++;
  const about = `the whole body sent by step "${step.name}", the credential the user typed`;
  const ref = c.sp.envRef(
    typedOnce(c, value, () => secretEnv(c, "LOGIN_PASSWORD", value, about)),
  );
  return text.startsWith('"') ? `"${ref}"` : ref;
}
