/**
 * The run's password when the document says its passwords are letters and
 * digits only. `${RANDOM.PASSWORD}` holds a sign (most strength rules want
 * one), and a server whose rule is `^[a-zA-Z0-9]{5,30}$` refuses it: an
 * Express API documented with `swagger-jsdoc` describes its register's
 * `password` as "Must have 5-30 alphanumeric characters" and answered 400
 * "fails to match the required pattern", so nobody signed in and every
 * operation behind the login was skipped. The evidence is a password field's
 * own schema in a request body: a `pattern` that refuses a password with a
 * sign and takes one of letters and digits, or a description that calls it
 * alphanumeric (or letters and digits only) without also asking for signs.
 * The password is then 16 letters and digits, both cases and a digit always
 * there, still made per run.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { isPasswordField } from "./password_field.ts";
import { operationsOf } from "./operations.ts";
import { findProperty } from "./schema_properties.ts";
import { ecmaPattern } from "../../_util/regex_dialect.ts";

/** A password of letters and digits only, made per run: `Pw`, 6 digits, 8 hex digits. */
export const PLAIN_PASSWORD = "Pw${RANDOM.DIGITS_6}${RANDOM.HEX_8}";

/** A password as `${RANDOM.PASSWORD}` makes them, and one as {@linkcode PLAIN_PASSWORD} does. */
const SIGNED_SAMPLE = "Aa1!Bb2-Cc3_Dd4!";
const PLAIN_SAMPLE = "Pw4821907f3a9c1e";

/** "alphanumeric", "letters and digits only", "only letters and numbers". */
const SAYS_PLAIN =
  /\balpha-?numeric\b|\bonly (?:latin )?letters and (?:numbers|digits)\b|\bletters and (?:numbers|digits) only\b/i;

/** A description that asks for signs too: "alphanumeric and special characters". */
const SAYS_SIGNS = /\bspecial\b|\bsymbols?\b|\bsigns?\b|\bpunctuation\b|[!@#$%^&*]/i;

/**
 * Whether a request body of the document says its password takes letters and digits only.
 *
 * @example
 * ```ts
 * import { saysPlainPassword } from "./plain_password.ts";
 * const body = (password: object) => ({ requestBody: { content: { "application/json": {
 *   schema: { properties: { email: { type: "string" }, password } } } } } });
 * const doc = (password: object) => ({ paths: { "/register": { post: body(password) } } });
 * if (!saysPlainPassword(doc({ type: "string", description: "Must have 5-30 alphanumeric characters." }))) throw new Error();
 * if (!saysPlainPassword(doc({ type: "string", pattern: "^[a-zA-Z0-9]{5,30}$" }))) throw new Error();
 * if (saysPlainPassword(doc({ type: "string", description: "At least 8 characters, alphanumeric and a special character." }))) {
 *   throw new Error();
 * }
 * if (saysPlainPassword(doc({ type: "string", minLength: 8 }))) throw new Error();
 * ```
 */
export function saysPlainPassword(doc: Node): boolean {
  let said = SAID.get(doc);
  if (said === undefined) SAID.set(doc, said = findPlain(doc));
  return said;
}

/** Each document's answer: every flow of a document asks, and a document has thousands of bodies. */
const SAID = new WeakMap<Node, boolean>();

/** Whether some password field of a request body says letters and digits only. */
function findPlain(doc: Node): boolean {
  for (const op of operationsOf(doc)) {
    const body = deref(doc, op.node.requestBody);
    const content = isNode(body) && isNode(body.content) ? body.content : {};
    for (const media of Object.values(content)) {
      const schema = isNode(media) ? media.schema : undefined;
      const found = findProperty(doc, schema, (name, s) => isPasswordField(name, s) && plain(s));
      if (found) return true;
    }
  }
  return false;
}

/** Whether a password field's schema says letters and digits only. */
function plain(s: Node): boolean {
  if (typeof s.pattern === "string") {
    const rule = compiled(s.pattern);
    if (rule) return !rule.test(SIGNED_SAMPLE) && rule.test(PLAIN_SAMPLE);
  }
  const said = typeof s.description === "string" ? s.description : "";
  return SAYS_PLAIN.test(said) && !SAYS_SIGNS.test(said);
}

/** A schema's pattern as a JavaScript expression, if it is one. */
function compiled(pattern: string): RegExp | undefined {
  try {
    return new RegExp(ecmaPattern(pattern), "u");
  } catch {
    return undefined;
  }
}
