/**
 * `207 Multi-Status` answers (WebDAV): the status line says only that
 * statuses follow, one per resource or property, in the XML body
 * (`<status>HTTP/1.1 403 Forbidden</status>`). A replay the server refuses
 * inside a 207 passes a check of the status alone, so an answer whose
 * recorded inner statuses were all 2xx gets a check that they still are.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import type { Check } from "./model.ts";

/** The inner statuses that are not 2xx, counted by XPath (namespaces kept, so by local name). */
export const NOT_2XX_INSIDE =
  "count(//*[local-name()='status'][not(starts-with(substring-after(normalize-space(.), ' '), '2'))])";

/** A `<status>` element's text, whatever its namespace prefix. */
const STATUS = /<(?:[\w.-]+:)?status\b[^>]*>([^<]*)<\/(?:[\w.-]+:)?status>/g;

/**
 * The check that a 207 answer holds no inner status but 2xx; `undefined`
 * for any other answer, one with no inner status, or one whose recording
 * held another status inside (a property a resource lacks: 404), as it
 * answered so then too.
 *
 * @example
 * ```ts
 * import { multistatusCheck } from "./multistatus.ts";
 * const answer = (s: string) => ({ status: 207, responseText: `<d:multistatus xmlns:d="DAV:"><d:response><d:status>HTTP/1.1 ${s}</d:status></d:response></d:multistatus>` });
 * // deno-lint-ignore no-explicit-any
 * if (multistatusCheck(answer("200 OK") as any)?.value !== 0) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (multistatusCheck(answer("404 Not Found") as any) !== undefined) throw new Error();
 * ```
 */
export function multistatusCheck(r: HarRecord): Check | undefined {
  const text = r.responseText;
  if (r.status !== 207 || !text || !/<(?:[\w.-]+:)?multistatus\b/.test(text)) return undefined;
  const statuses = [...text.matchAll(STATUS)].map((m) => m[1].trim());
  if (statuses.length === 0) return undefined;
  if (!statuses.every((s) => /^HTTP\/[\d.]+\s+2\d\d\b/.test(s))) return undefined;
  return { path: [], xpath: NOT_2XX_INSIDE, op: "equals", value: 0 };
}
