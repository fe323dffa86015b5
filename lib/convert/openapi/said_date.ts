/**
 * A text whose description calls it a date, in words only: no `format`,
 * no `enum`, no `pattern`. A Sails movie API's actor create takes
 * `birthday`, "date of birth, birthday", and reads it as a `Date`; made
 * as any text (`string`), it failed 500 ("Invalid time value"), and with it
 * the API's one create. Only a description that opens by naming a date
 * ("date of birth", "The release date of the film", "Birthday"): one that
 * names a date further on ("Sort the list by date") describes something
 * else. Such a text is made as a `format: date` text is, or as a
 * `format: date-time` one where the words speak of a time too ("Completion
 * date of the task, as an RFC 3339 timestamp").
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";

// At most two words before the date's name ("The release date"), never a date-time's.
const OPENS =
  /^\s*(?:(?:the|a|an)\s+)?(?:[\w']+\s+)?(?:date|birthday|birth\s+date)\b(?![-\s]?time\b)/i;

/**
 * Whether a string schema's description calls its value a date (see the module).
 *
 * @example
 * ```ts
 * import { saysDate } from "./said_date.ts";
 * if (!saysDate({ type: "string", description: "date of birth, birthday" })) throw new Error();
 * if (saysDate({ type: "string", description: "Sort the list by date" })) throw new Error();
 * if (saysDate({ type: "string", format: "uri", description: "Date of the page" })) throw new Error();
 * ```
 */
export function saysDate(s: Node): boolean {
  const d = s.description;
  const plain = s.format === undefined && s.enum === undefined && s.pattern === undefined;
  const text = s.type === undefined || s.type === "string";
  return plain && text && typeof d === "string" && OPENS.test(d);
}

/**
 * The format a string schema's description gives it in words: `date`, `date-time` where
 * it speaks of a time too; undefined when it calls it no date (see the module).
 *
 * @example
 * ```ts
 * import { saidDate } from "./said_date.ts";
 * if (saidDate({ description: "Start date of the membership" }) !== "date") throw new Error();
 * if (saidDate({ description: "Completion date (an RFC 3339 timestamp)" }) !== "date-time") throw new Error();
 * if (saidDate({ description: "Full name" }) !== undefined) throw new Error();
 * ```
 */
export function saidDate(s: Node): "date" | "date-time" | undefined {
  if (!saysDate(s)) return undefined;
  return /\btime(?:stamp)?s?\b|\bRFC ?3339\b/i.test(String(s.description)) ? "date-time" : "date";
}
