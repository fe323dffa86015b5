/**
 * RFC 7617's credentials sent in a header of the page's own: `X-Authorization:
 * Basic base64(user:password)` (a script builds it from a login form, so the
 * browser's own prompt never shows), or the bare base64 in a token header when
 * the user typed that password into a form the recording sent. Asked whole,
 * the user had to base64-encode `user:password` by hand; now the step's
 * `auth: basic` names the header (`header:`, and `scheme: ""` for bare
 * base64), the user name as recorded and the password one variable (the
 * form's, when it was typed there), and the run builds the header.
 *
 * Evidence, never the header's name: the word `Basic` before base64 of
 * `user:password` in UTF-8 that no answer gave; without the word, the
 * password typed in a form too, since a colon inside a server's token says
 * nothing.
 *
 * @module
 */
import type { Step } from "../model.ts";
import { ymap } from "../yaml_out.ts";
import { userAndPassword } from "./login_copies.ts";
import { type Correlator, secretEnv } from "./state.ts";

/** `Basic` (any case) and canonical base64, or the base64 alone. */
const SHAPE = /^(?:(basic)[ \t]+)?([A-Za-z0-9+/]{4,}={0,2})$/i;

/**
 * Whether `value`, sent in header `name`, is Basic credentials the step's `auth: basic` now
 * sends (set on `step`, the header then left out).
 *
 * @example
 * ```ts
 * import { basicHeader } from "./basic_header.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const step = { uses: new Set() };
 * // deno-lint-ignore no-explicit-any
 * if (!basicHeader(c, "x-authorization", `Basic ${btoa("ada:pw-1")}`, step as any)) throw new Error();
 * if (!c.env.has("BASIC_PASSWORD") || !c.secrets.has("pw-1")) throw new Error();
 * // Bare base64 whose password no form sent: a token, asked whole elsewhere.
 * // deno-lint-ignore no-explicit-any
 * if (basicHeader(c, "x-token", btoa("id7:ab"), step as any)) throw new Error();
 * ```
 */
export function basicHeader(c: Correlator, name: string, value: string, step: Step): boolean {
  const m = SHAPE.exec(value.trim());
  const pair = m ? userAndPassword(m[2]) : undefined;
  if (!m || !pair || !canonical(m[2], pair)) return false;
  // An answer gave the page its credentials: a capture (the caller's), not what the user typed.
  if (c.rules.producerFor(m[2])) return false;
  const [user, password] = pair;
  const typed = typedEnv(c, password);
  if (!m[1] && typed === undefined) return false;
  c.secrets.add(value.trim());
  c.secrets.add(m[2]);
  c.secrets.add(password);
  c.replaced.secrets++;
  const env = typed ??
    secretEnv(c, "BASIC_PASSWORD", password, `the password of the Basic user "${user}"`);
  const scheme = m[1] === undefined ? "" : m[1] === "Basic" ? undefined : m[1];
  step.auth = ymap([[
    "basic",
    ymap([
      ["username", c.sp.lit(user)],
      ["password", c.sp.envRef(env)],
      ["header", name],
      ["scheme", scheme],
    ]),
  ]]);
  return true;
}

/** Whether `base64` is what encoding the pair gives back: one text, one encoding. */
function canonical(base64: string, [user, password]: [string, string]): boolean {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  return btoa(String.fromCharCode(...bytes)) === base64;
}

/** The variable a form's typed password was asked as (`LOGIN_PASSWORD`), if one was. */
function typedEnv(c: Correlator, password: string): string | undefined {
  if (!c.typed.has(password)) return undefined;
  const key = c.envByValue.endingWith(password)[0];
  return key === undefined ? undefined : c.envByValue.get(key);
}
