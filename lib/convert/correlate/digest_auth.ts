/**
 * A recorded `Authorization: Digest …` header (RFC 7616) as the step's `auth: {digest: …}`.
 * The browser computed each header from the password typed into its prompt and one nonce the
 * server issued (calibre's content server with `--enable-auth`, Apache's `AuthType Digest`), so
 * no instance accepts it again and no user can set it: the run answers the live challenge with
 * the user as recorded and the password asked once. The recorded answer hash is a secret.
 *
 * @module
 */
import type { Step } from "../model.ts";
import { ymap } from "../yaml_out.ts";
import { type Correlator, secretEnv } from "./state.ts";

/** `name="quoted"` or `name=token` pairs of a Digest answer, by lower-cased name. */
function digestFields(rest: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const m of rest.matchAll(/([\w*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g)) {
    fields.set(m[1].toLowerCase(), m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3]);
  }
  return fields;
}

/** The user a Digest answer names: `username`, or RFC 8187's `username*=UTF-8''…`. */
function digestUser(fields: Map<string, string>): string | undefined {
  const extended = fields.get("username*");
  if (extended !== undefined) {
    const m = /^UTF-8'[^']*'(.*)$/i.exec(extended);
    try {
      return m ? decodeURIComponent(m[1]) : undefined;
    } catch {
      return undefined;
    }
  }
  return fields.get("username");
}

/**
 * Whether `value` is a Digest answer the step's `auth:` can send instead, and if so sets it:
 * the user as recorded (a `userhash=true` answer hides the user, so it is asked for as
 * `DIGEST_USER`) and `DIGEST_PASSWORD`, one variable a realm and user.
 *
 * @example
 * ```ts
 * import { digestStepAuth } from "./digest_auth.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const step = { uses: new Set() };
 * const header = 'Digest username="ada", realm="r", nonce="n", uri="/", response="0a1b"';
 * // deno-lint-ignore no-explicit-any
 * if (!digestStepAuth(c, header, step as any) || !c.env.has("DIGEST_PASSWORD")) throw new Error();
 * ```
 */
export function digestStepAuth(c: Correlator, value: string, step: Step): boolean {
  const m = /^Digest\s+(.*)$/is.exec(value.trim());
  if (!m) return false;
  const fields = digestFields(m[1]);
  const hidden = fields.get("userhash")?.toLowerCase() === "true";
  const user = hidden ? undefined : digestUser(fields);
  if (!hidden && user === undefined) return false;
  const response = fields.get("response");
  if (response) c.secrets.add(response);
  c.secrets.add(value);
  c.replaced.secrets++;
  const realm = fields.get("realm") ?? "";
  const username = user === undefined
    ? c.sp.envRef(
      secretEnv(
        c,
        "DIGEST_USER",
        `${realm}\n${fields.get("username")}`,
        "the Digest user (the recording sends only its hash)",
      ),
    )
    : c.sp.lit(user);
  const password = secretEnv(
    c,
    "DIGEST_PASSWORD",
    `${realm}\n${user ?? fields.get("username")}`,
    `the password of the Digest user ${user === undefined ? "" : `"${user}" `}(realm "${realm}")`,
  );
  step.auth = ymap([[
    "digest",
    ymap([["username", username], ["password", c.sp.envRef(password)]]),
  ]]);
  return true;
}
