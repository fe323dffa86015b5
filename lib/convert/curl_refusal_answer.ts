/**
 * A pasted answer that is only a refusal's message: a security engine's TLS
 * page sends a request with a certificate the server must turn down and
 * prints `{"message":"access forbidden"}` under it, no status line. The step
 * checked a status below 400 and the documented refusal failed the run. An
 * answer whose one member is a text ending in a standard reason phrase of
 * 400 or more (`access forbidden`, `Not Found`, `Unauthorized.`; at most two
 * words before it) says the status itself: the step checks it. A message
 * beside other members, one naming no such phrase, and an answer whose
 * status a pasted head, curl's error line or the prose already gave keep
 * what they had.
 *
 * @module
 */
import type { CurlRecord } from "./curl_request.ts";
import { codeOfReason } from "./reason_phrases.ts";

/** The status a refusal's message names: its last one, two or three words a reason phrase. */
function refusalIn(message: string): number | undefined {
  const words = message.trim().replace(/[.!]+$/, "").split(/\s+/);
  for (let k = Math.max(0, words.length - 3); k < words.length; k++) {
    const code = codeOfReason(words.slice(k).join(" "));
    // Two words before the phrase at most: "access forbidden", "resource not found".
    if (code !== undefined) return code >= 400 && k <= 2 ? code : undefined;
  }
  return undefined;
}

/** The status a pasted JSON answer names when it is only a refusal's message. */
function refusalStatus(json: unknown): number | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const values = Object.values(json);
  return values.length === 1 && typeof values[0] === "string" ? refusalIn(values[0]) : undefined;
}

/**
 * Sets the status of each command whose pasted answer is only a refusal's
 * message and whose status nothing else gave, with a note; how many.
 *
 * @example
 * ```ts
 * import { refusalAnswers } from "./curl_refusal_answer.ts";
 * const record = { url: new URL("https://a.test/x"), setCookies: [], hasJson: true, json: { message: "access forbidden" } };
 * // deno-lint-ignore no-explicit-any
 * const built = [{ records: [{ record } as any], notes: [] as string[] }];
 * if (refusalAnswers(built) !== 1 || (record as { status?: number }).status !== 403) throw new Error();
 * ```
 */
export function refusalAnswers(
  built: readonly { records: CurlRecord[]; notes: string[] }[],
): number {
  let count = 0;
  for (const b of built) {
    const record = b.records.at(-1)?.record;
    if (!record?.hasJson || record.status !== undefined || record.failureAnnounced) continue;
    const status = refusalStatus(record.json);
    if (status === undefined) continue;
    record.status = status;
    count++;
    b.notes.push(
      `the docs print ${
        JSON.stringify(record.json)
      } under it, a refusal's message alone: the step checks ${status}, as documented.`,
    );
  }
  return count;
}
