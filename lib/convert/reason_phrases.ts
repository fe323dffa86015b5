/**
 * The standard reason phrases (RFC 9110 §15) that material writes beside or instead of a status
 * code: a README's `# Response: 201 Created`, a Postman test's `pm.response.to.have.status("Created")`.
 * One table, so the curl and Postman readers know the same phrases.
 *
 * @module
 */
import { table } from "./table.ts";

const CODES = table<number>({
  "ok": 200,
  "created": 201,
  "accepted": 202,
  "no content": 204,
  "moved permanently": 301,
  "found": 302,
  "see other": 303,
  "not modified": 304,
  "bad request": 400,
  "unauthorized": 401,
  "forbidden": 403,
  "not found": 404,
  "method not allowed": 405,
  "conflict": 409,
  "gone": 410,
  "unprocessable entity": 422,
  "unprocessable content": 422,
  "too many requests": 429,
  "internal server error": 500,
  "service unavailable": 503,
});

/**
 * The status code a reason phrase names, whatever its case; `undefined` for any other text.
 *
 * @example
 * ```ts
 * import { codeOfReason } from "./reason_phrases.ts";
 * if (codeOfReason("Created") !== 201 || codeOfReason("NOT FOUND") !== 404) throw new Error();
 * if (codeOfReason("constructor") !== undefined || codeOfReason("fine") !== undefined) throw new Error();
 * ```
 */
export function codeOfReason(reason: string): number | undefined {
  return CODES[reason.trim().toLowerCase()];
}
