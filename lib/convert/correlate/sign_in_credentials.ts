/**
 * Which credentials a request carries and which answers handed them out,
 * read from the values alone: a session is a token or cookie an earlier
 * answer produced and later requests send back, whatever the header or
 * cookie is called (`Authorization: Bearer …`, a header of the app's own
 * such as `X-Auth-Token`, a cookie the sign-in set). chosen_passwords.ts
 * reads it to tell a signed-in user adding an account (the request carries a
 * credential a sign-in answered, its answer hands out none) from a sign-in.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";

/** Shorter values are words and counts, not session secrets: they would match by chance. */
const MIN_LENGTH = 16;

/** Headers a browser sends of itself, never a credential an answer handed out. */
const PLAIN = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "connection",
  "content-length",
  "content-type",
  "cookie",
  "host",
  "origin",
  "pragma",
  "referer",
  "user-agent",
]);

/**
 * The values `r` sends that could be a session: its cookies' values and the
 * other headers' values (an `Authorization` header's without its scheme word).
 *
 * @example
 * ```ts
 * import { sentCredentials } from "./sign_in_credentials.ts";
 * const r = { headers: [{ name: "Authorization", value: "Bearer a1b2c3d4e5f60718293a" },
 *   { name: "Accept", value: "application/json; charset=utf-8" }], cookies: [] };
 * // deno-lint-ignore no-explicit-any
 * if (sentCredentials(r as any).join() !== "a1b2c3d4e5f60718293a") throw new Error();
 * ```
 */
export function sentCredentials(r: HarRecord): string[] {
  const headers = (r.headers ?? []).filter((h) => !PLAIN.has(h.name.toLowerCase()))
    .map((h) => h.value.trim().replace(/^(bearer|token|jwt)\s+/i, ""));
  return [...headers, ...(r.cookies ?? []).map((c) => c.value)]
    .filter((v) => v.length >= MIN_LENGTH);
}

/** Whether `answer`'s body or the cookies it set hold `value`. */
function handedOut(answer: HarRecord, value: string): boolean {
  return (answer.setCookies ?? []).some((c) => c.value === value) ||
    (answer.responseText?.includes(value) ?? false);
}

/**
 * Whether `r` carries a credential one of `signIns` (earlier records) answered.
 *
 * @example
 * ```ts
 * import { carriesCredentialOf } from "./sign_in_credentials.ts";
 * const token = "a1b2c3d4e5f60718293a";
 * const signIn = { headers: [], cookies: [], setCookies: [], responseText: `{"token":"${token}"}` };
 * const add = { headers: [{ name: "X-Auth-Token", value: token }], cookies: [], setCookies: [] };
 * // deno-lint-ignore no-explicit-any
 * if (!carriesCredentialOf(add as any, [signIn] as any)) throw new Error();
 * ```
 */
export function carriesCredentialOf(r: HarRecord, signIns: readonly HarRecord[]): boolean {
  return sentCredentials(r).some((v) => signIns.some((o) => handedOut(o, v)));
}

/**
 * Whether the answer of `records[i]` hands the caller a credential: it sets a
 * cookie to a value other than the one sent, or a later request sends back a
 * value its body held as a header or cookie (a sign-in's token).
 *
 * @example
 * ```ts
 * import { handsOutCredential } from "./sign_in_credentials.ts";
 * const token = "a1b2c3d4e5f60718293a";
 * const signIn = { headers: [], cookies: [], setCookies: [], responseText: `{"token":"${token}"}` };
 * const read = { headers: [{ name: "Authorization", value: `Bearer ${token}` }], cookies: [], setCookies: [] };
 * // deno-lint-ignore no-explicit-any
 * if (!handsOutCredential([signIn, read] as any, 0) || handsOutCredential([signIn, read] as any, 1)) {
 *   throw new Error();
 * }
 * ```
 */
export function handsOutCredential(records: readonly HarRecord[], i: number): boolean {
  const r = records[i];
  const sent = new Map((r.cookies ?? []).map((c) => [c.name, c.value]));
  if ((r.setCookies ?? []).some((c) => sent.get(c.name) !== c.value)) return true;
  const text = r.responseText ?? "";
  return text !== "" &&
    records.slice(i + 1).some((o) => sentCredentials(o).some((v) => text.includes(v)));
}
