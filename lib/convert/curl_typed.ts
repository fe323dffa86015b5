/**
 * What `convert curl` writes of the values a command types: the flow with
 * typed words sent as typed outside the credentials the rules replaced, and
 * summary notes masked only in the values they quote.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import { Redactor } from "../secrets/mod.ts";
import { isSecretShaped } from "./values.ts";
import { writeFlow, type WriteInput } from "./write.ts";

/**
 * The flow written with the typed secrets set aside. A command says where
 * its credentials are, and the rules replaced each there (the credential
 * field's value, `-u`'s password, an Authorization header): an ordinary word
 * equal to one elsewhere is what the user typed, sent as typed. The writer's
 * last pass would replace or mask every occurrence, keys included: with the
 * password `password`, `grant_type=password` and the key `password` became
 * `${ENV.RECORDED_SECRET}`, and the flow did not load. A value shaped like a
 * token (random text no one types twice by chance) is still kept out
 * wherever it is.
 *
 * @example
 * ```ts
 * import { writeAsTyped } from "./curl_typed.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const c = newCorrelator("a");
 * c.secrets.add("password");
 * c.steps.length = 0;
 * // deno-lint-ignore no-explicit-any
 * const { yaml } = writeAsTyped(c, { name: "x", total: 0, ordered: [], notes: [] } as any);
 * if (!yaml.includes("name: x") || !c.secrets.has("password")) throw new Error(yaml);
 * ```
 */
export function writeAsTyped(c: Correlator, input: WriteInput): ReturnType<typeof writeFlow> {
  const typed = [...c.secrets].filter((s) => !isSecretShaped(s));
  for (const s of typed) c.secrets.delete(s);
  try {
    return writeFlow(c, input);
  } finally {
    for (const s of typed) c.secrets.add(s);
  }
}

/**
 * Masks the secrets in the values a summary note quotes (`"…"`), never in
 * its own words: a note about "the password of -u" keeps the word when the
 * password is `password`.
 *
 * @example
 * ```ts
 * import { maskQuoted } from "./curl_typed.ts";
 * const mask = maskQuoted(["hunter22"]);
 * if (mask('The password of -u "ann:hunter22"') !== 'The password of -u "ann:***"') throw new Error();
 * ```
 */
export function maskQuoted(secrets: Iterable<string>): (text: string) => string {
  const redactor = new Redactor();
  for (const s of secrets) if (s.trim().length >= 6 && !/\s/.test(s.trim())) redactor.add(s);
  return (text) => text.replace(/"[^"\n]*"/g, (quoted) => redactor.redact(quoted));
}
