/**
 * A success the docs announce for a command in words: a todo API's README
 * gives each example "On success, it returns … Status code: `200`" and then
 * "On failure, it returns an error message … Status code: `404`". Read with
 * refusals alone, the failure's 404 was the one status left, and the step
 * checked it while the server answered the documented 200. A success status
 * (200 to 399) a sentence of the command's names is a second status: the
 * refusal beside it is another case's, and the step keeps its below-400 check.
 *
 * The status is written alone, as a refusal's is: never inside a port
 * (`:2000`), a path (`/200/`), a decimal (`200.5`) or a longer number.
 *
 * @module
 */

/** A status from 200 to 399 written alone. */
const SUCCESS = /(?<![\w.:/-])([23]\d\d)(?![\w/]|\.\d)/g;

/**
 * The success statuses one sentence names; the caller has already found in it a word of
 * answering ("returns", "status", "code"…) and no condition or hedge.
 *
 * @example
 * ```ts
 * import { successStatuses } from "./curl_announced_success.ts";
 * if (successStatuses("Status code: 200").join() !== "200") throw new Error();
 * if (successStatuses("The server on port 2000 returns 404.").length !== 0) throw new Error();
 * ```
 */
export function successStatuses(sentence: string): number[] {
  return [...sentence.matchAll(SUCCESS)].map((m) => Number(m[1]));
}
