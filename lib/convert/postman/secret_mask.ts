/**
 * Script lines the converter shows (the comments beside a step, the lines the summary quotes) are
 * the collection's own text, and a script may hold a secret's value written out (a signing key, a
 * password a test compares with). Each value of a variable the converter keeps out of the files as
 * a secret is masked there as `***`, as the rest of flowrun masks what it prints; keys, names and
 * expressions never are, only a value's literal text.
 *
 * @module
 */
import { Redactor } from "../../secrets/redactor.ts";

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
