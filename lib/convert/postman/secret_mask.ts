/**
 * Script lines the converter shows (the comments beside a step, the lines the summary quotes) are
 * the collection's own text, and a script may hold a secret's value written out (a signing key, a
 * password a test compares with). Each value of a variable the converter keeps out of the files as
 * a secret is masked there as `***`, as the rest of flowrun masks what it prints; keys, names and
 * expressions never are, only a value's literal text. And a credential the collection writes
 * out, read from a variable where an auth or a secret header sends it, is read from that variable
 * wherever else the collection writes it (`hideLiterals`).
 *
 * @module
 */
import { Redactor } from "../../secrets/redactor.ts";
import { isOrdinaryWord } from "../../secrets/public_parts.ts";
import { scrubValues } from "../write_scrub.ts";
import type { YNode } from "../yaml_out.ts";
import { isJwt, JWT_LITERAL } from "../jwt_literal.ts";
import { escapeRegExp } from "../../_util/regex_escape.ts";

/**
 * A function masking every one of `secrets` in a text.
 *
 * @example
 * ```ts
 * import { secretMask } from "./secret_mask.ts";
 * const mask = secretMask(["Pa55word!"]);
 * const line = "pm.environment.set('h', CryptoJS.SHA256('Pa55word!').toString());";
 * if (mask(line).includes("Pa55word!") || mask("password") !== "password") throw new Error(mask(line));
 * ```
 */
export function secretMask(secrets: Iterable<string>): (text: string) => string {
  const redactor = new Redactor();
  for (const s of secrets) redactor.add(s);
  return (text) => redactor.redact(text);
}

/** The variables' record of written-out credentials, and how to ask for another. */
export interface Hiding {
  hidden: ReadonlyMap<string, string>;
  secretEnv(base: string, hint: string, value?: string): string;
}

/**
 * `root` with each credential the collection writes out read from its variable wherever else
 * the collection writes it in a value (a login's body, a query parameter, another header):
 * `hidden` maps the value to the variable (`Variables.hidden`). Only where it stands apart (not
 * inside a longer word or number), only the literal text of values (never a key, a name or an
 * expression), and never an ordinary word or a value shorter than 6 characters, which a flow
 * writes as data of its own (a role `admin` beside a password `admin`). A JSON Web Token written
 * anywhere else is a credential by what it is: asked for as `JWT` (the CLI masks every token of
 * that shape in what it writes, so kept, the flow sent `***`).
 *
 * @example
 * ```ts
 * import { hideLiterals } from "./secret_mask.ts";
 * import { toYaml, ymap } from "../yaml_out.ts";
 * const root = ymap([["url", "/login?key=ak_9f8e7d6c&role=admin"], ["body", ymap([["pw", "Zq7-x9!k"]])]]);
 * const hidden = new Map([["ak_9f8e7d6c", "X_API_KEY"], ["Zq7-x9!k", "PW"], ["admin", "P2"]]);
 * const out = toYaml([], hideLiterals(root, { hidden, secretEnv: () => "JWT" }));
 * if (!out.includes("key=${ENV.X_API_KEY}&role=admin") || !out.includes("pw: ${ENV.PW}")) throw new Error(out);
 * ```
 */
export function hideLiterals<T extends YNode>(root: T, vars: Hiding): T {
  const values = [...vars.hidden.keys()].filter((v) => v.length >= 6 && !isOrdinaryWord(v));
  // The longest first, so a value that holds another is read whole.
  values.sort((a, b) => b.length - a.length);
  const pattern = values.length === 0 ? undefined : new RegExp(
    `(?<![A-Za-z0-9_])(?:${values.map(escapeRegExp).join("|")})(?![A-Za-z0-9_])`,
    "g",
  );
  const ref = (value: string) => `\${ENV.${vars.hidden.get(value) ?? ask(vars, value)}}`;
  return scrubValues(root, (text) => {
    const known = pattern ? text.replace(pattern, ref) : text;
    return known.includes("eyJ") ? known.replace(JWT_LITERAL, ref) : known;
  }) as T;
}

/** A variable for a JSON Web Token the collection writes out, named once per token. */
function ask(vars: Hiding, token: string): string {
  const n = [...vars.hidden.keys()].filter(isJwt).length;
  const hint = n === 0
    ? "a JSON Web Token written in the collection, a secret"
    : `another JSON Web Token written in the collection (number ${n + 1}), a secret`;
  return vars.secretEnv("JWT", hint, token);
}
