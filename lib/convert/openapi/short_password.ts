/**
 * The run's password when the document caps a password's length below the
 * 16 characters `${RANDOM.PASSWORD}` makes. A FastAPI booking API declares
 * its sign-up's `password` with `maxLength: 12` (pydantic's `Field`): the
 * run's password was refused 422 "at most 12 characters", nobody signed in,
 * and every operation behind the login was skipped. The evidence is a
 * password field's own schema in a request body: the smallest `maxLength`
 * any of them states (the account the sign-up makes is the one every login
 * and password change sends). The password is then exactly that long, made
 * per run of short runs of capitals, small letters, digits and a sign (`-`,
 * left out when the document says letters and digits only:
 * `plain_password.ts`), so no character repeats three times in a row and
 * every class a strength rule asks for is there from 6 characters on.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { isPasswordField } from "./password_field.ts";
import { operationsOf } from "./operations.ts";
import { findProperty } from "./schema_properties.ts";
import { PLAIN_PASSWORD, saysPlainPassword } from "./plain_password.ts";

/** The length `${RANDOM.PASSWORD}` makes: a cap at or above it needs nothing shorter. */
const MADE_LENGTH = 16;

/** The parts a short password cycles through, each with its length. */
const PARTS: [string, number][] = [
  ["${RANDOM.UPPER_1}", 1],
  ["${RANDOM.ALPHA_2}", 2],
  ["${RANDOM.DIGITS_2}", 2],
  ["-", 1],
];

/**
 * The run's password for `doc`: one `limit` characters long when a password
 * field caps it below 16 (`shortPassword`), letters and digits when the
 * document says so (`PLAIN_PASSWORD`), else `undefined` (the run's
 * `${RANDOM.PASSWORD}`).
 *
 * @example
 * ```ts
 * import { runPassword } from "./short_password.ts";
 * const doc = (password: object) => ({ paths: { "/signup": { post: { requestBody: { content: {
 *   "application/json": { schema: { properties: { username: { maxLength: 5 }, password } } } } } } } } });
 * if (runPassword(doc({ type: "string", maxLength: 8 })) !== "${RANDOM.UPPER_1}${RANDOM.ALPHA_2}${RANDOM.DIGITS_2}-${RANDOM.UPPER_1}${RANDOM.ALPHA_1}") {
 *   throw new Error();
 * }
 * if (runPassword(doc({ type: "string", maxLength: 64 })) !== undefined) throw new Error();
 * ```
 */
export function runPassword(doc: Node): string | undefined {
  const plain = saysPlainPassword(doc);
  const limit = passwordLimit(doc);
  if (limit !== undefined && limit < MADE_LENGTH) return shortPassword(limit, plain);
  return plain ? PLAIN_PASSWORD : undefined;
}

/**
 * The smallest `maxLength` a password field of a request body of `doc` states; `undefined`
 * when none does, or when it is under a `minLength` another password field states.
 *
 * @example
 * ```ts
 * import { passwordLimit } from "./short_password.ts";
 * const body = (password: object) => ({ requestBody: { content: { "application/json": {
 *   schema: { properties: { password } } } } } });
 * const doc = { paths: { "/signup": { post: body({ maxLength: 12 }) }, "/login": { post: body({ maxLength: 20 }) } } };
 * if (passwordLimit(doc) !== 12) throw new Error();
 * if (passwordLimit({ paths: { "/login": { post: body({ minLength: 8 }) } } }) !== undefined) throw new Error();
 * const code = { paths: { "/signup": { post: body({ minLength: 8 }) }, "/verify": { post: { requestBody: { content: {
 *   "application/json": { schema: { properties: { passcode: { maxLength: 6 } } } } } } } } } };
 * if (passwordLimit(code) !== undefined) throw new Error();
 * ```
 */
export function passwordLimit(doc: Node): number | undefined {
  let limit: number | undefined;
  let least = 0;
  const capped = (name: string, s: Node) => {
    if (!isPasswordField(name, s)) return false;
    if (typeof s.maxLength === "number" && s.maxLength > 0) {
      limit = Math.min(s.maxLength, limit ?? Infinity);
    }
    if (typeof s.minLength === "number") least = Math.max(least, s.minLength);
    return false; // every property is looked at
  };
  for (const op of operationsOf(doc)) {
    const body = deref(doc, op.node.requestBody);
    const content = isNode(body) && isNode(body.content) ? body.content : {};
    for (const media of Object.values(content)) {
      if (isNode(media)) findProperty(doc, media.schema, capped);
    }
  }
  // A cap under another field's minimum (a 6-digit `passcode` beside a sign-up's 8 or more) is
  // not the account's: the password it would make is refused there.
  return limit !== undefined && limit >= least ? limit : undefined;
}

/**
 * A per-run password of exactly `length` characters: a capital, two small
 * letters, two digits and a sign, again as often as it takes, the last part
 * cut to fit; without the sign when `plain`.
 *
 * @example
 * ```ts
 * import { shortPassword } from "./short_password.ts";
 * const want = "${RANDOM.UPPER_1}${RANDOM.ALPHA_2}${RANDOM.DIGITS_2}-${RANDOM.UPPER_1}${RANDOM.ALPHA_2}${RANDOM.DIGITS_2}-";
 * if (shortPassword(12, false) !== want) throw new Error(shortPassword(12, false));
 * if (shortPassword(6, true) !== "${RANDOM.UPPER_1}${RANDOM.ALPHA_2}${RANDOM.DIGITS_2}${RANDOM.UPPER_1}") throw new Error();
 * ```
 */
export function shortPassword(length: number, plain: boolean): string {
  const parts = plain ? PARTS.filter(([p]) => p !== "-") : PARTS;
  let out = "";
  let made = 0;
  for (let i = 0; made < length && i < length; i++) {
    const [part, size] = parts[i % parts.length];
    const take = Math.min(size, length - made);
    out += take === size ? part : part.replace(/_\d+\}$/, `_${take}}`);
    made += take;
  }
  return out;
}
