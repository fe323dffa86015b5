/**
 * An error report that gives a code and its message beside a few plain
 * facts: a key-value store's API page prints `{"errorCode": 105, "message":
 * "Key already exists", "cause": "/k", "index": 12}` under a create-only
 * write it expects refused (412), no status line. Its `cause` and `index`
 * are no error words, so the error-object rule (curl_status_default.ts)
 * read it as data and the step checked a status below 400. A non-zero error
 * code and a message in words say what the answer is whatever sits beside
 * them, so long as nothing beside them is data: every member a plain value,
 * never an object or a list (a result would be one). A code of 0 is many
 * APIs' success.
 *
 * @module
 */

/** A member naming an error's code: `errorCode`, `error_code`, `errno`, `errorNumber`. */
const ERROR_CODE = /^(?:error_?(?:code|no|num|number)|errno)$/i;

/** A member saying in words what went wrong. */
const MESSAGE = /^(?:message|msg|error_?message|error_?description|description|reason)$/i;

/** Whether `v` is an error code that reports a failure: a non-zero number or a text not "0". */
const failureCode = (v: unknown) =>
  (typeof v === "number" && v !== 0) || (typeof v === "string" && !/^\s*0*\s*$/.test(v));

/**
 * Whether a pasted JSON answer is an error report by its code: a non-zero
 * error code and a non-empty message, every member a plain value.
 *
 * @example
 * ```ts
 * import { isCodedError } from "./curl_error_code.ts";
 * if (!isCodedError({ errorCode: 105, message: "Key already exists", cause: "/k", index: 12 })) {
 *   throw new Error();
 * }
 * if (isCodedError({ errorCode: 0, message: "done" })) throw new Error();
 * if (isCodedError({ errorCode: 3, message: "partly", items: [1] })) throw new Error();
 * ```
 */
export function isCodedError(json: unknown): boolean {
  if (!json || typeof json !== "object" || Array.isArray(json)) return false;
  const entries = Object.entries(json);
  if (entries.some(([, v]) => v !== null && typeof v === "object")) return false;
  const code = entries.some(([k, v]) => ERROR_CODE.test(k) && failureCode(v));
  return code &&
    entries.some(([k, v]) => MESSAGE.test(k) && typeof v === "string" && v.trim() !== "");
}
