/**
 * OAuth2's password request names the account `username` whatever the
 * server looks it up by: RFC 6749 fixes the field's name, so it is no
 * evidence of which member of the sign-up it holds. Beside a sign-up taking
 * both a user name and an address (`format: email`), the document does not
 * say which one the login reads: a FastAPI job board registers `{username,
 * email, password}` and looks `username` up among the emails, so the suite's
 * login, sending the run's user name, was refused 401 and every flow was
 * skipped. The sign-up sends the run's email as its user name too: the
 * account then has one identity, which the login's `username` finds
 * whichever member the server reads. Not when the user name's schema says an
 * address does not fit it (a `pattern`, a `format`, a `maxLength` shorter
 * than the run's address): the run's user name is kept then.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { formRequired } from "./form_required.ts";
import { jsonBodySchema } from "./json_body.ts";
import type { Login } from "./login.ts";
import { RUN_VARS } from "./run_values.ts";
import { properties } from "./schema_properties.ts";

/** The length of the run's address (`user-${RANDOM.HEX_8}@example.com` once made). */
const ADDRESS_LENGTH = RUN_VARS.email.replace("${RANDOM.HEX_8}", "12345678").length;

/**
 * Whether the login's form `username` and its sign-up's `username` and
 * address should all hold the run's email (see the module).
 *
 * @example
 * ```ts
 * import { sharesIdentity } from "./one_identity.ts";
 * const form = { requestBody: { content: { "application/x-www-form-urlencoded": { schema: {
 *   required: ["username", "password"], properties: { username: {}, password: {} } } } } } };
 * const signUp = (username: object) => ({ requestBody: { content: { "application/json": {
 *   schema: { properties: { username, email: { format: "email" }, password: {} } } } } } });
 * const login = (u: object) => ({ op: { node: form }, register: { node: signUp(u) } }) as never;
 * if (!sharesIdentity({}, login({ type: "string" }))) throw new Error("either");
 * if (sharesIdentity({}, login({ type: "string", pattern: "^[a-z]+$" }))) throw new Error("pattern");
 * ```
 */
export function sharesIdentity(doc: Node | undefined, login: Login | undefined): boolean {
  if (doc === undefined || login?.register === undefined) return false;
  if (formRequired(doc, login.op)?.has("username") !== true) return false;
  const members = new Map(properties(doc, jsonBodySchema(doc, login.register.node)));
  const name = members.get("username");
  const address = [...members.values()].some((p) => p.format === "email");
  return name !== undefined && address && fitsAddress(name);
}

/** Whether a user name's schema takes the run's address: text with no pattern, format or short limit. */
function fitsAddress(schema: Node): boolean {
  if (schema.type !== undefined && schema.type !== "string") return false;
  if (schema.pattern !== undefined || schema.format !== undefined) return false;
  return typeof schema.maxLength !== "number" || schema.maxLength >= ADDRESS_LENGTH;
}
