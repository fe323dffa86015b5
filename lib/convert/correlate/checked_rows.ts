/**
 * A list's checkbox that ticks a row by its small number: ZoneMinder's
 * console writes each monitor as a table row holding links to it
 * (`<a href="?view=watch&amp;mid=1">Front Door</a>`) and a checkbox
 * `<input type="checkbox" name="markMids[]" value="1">`; a delete posts
 * `markMids[]=1`. The number alone is no evidence (a page, a flag), but the
 * row is: the journey already captured that number as a row it made (a link
 * labelled by text it sent, query_rows.ts's members), and on the page the
 * form was posted from, the checkbox holding the value sits in the same
 * `<tr>` as a link naming that row (`mid=1`). The checkbox then sends that
 * row's capture: the same row, however the instance numbered it.
 *
 * @module
 */
import type { Producer, Step } from "../model.ts";
import { latestPage } from "./hidden_fields.ts";
import type { Correlator } from "./state.ts";
import { escapeRegExp as escape } from "../../_util/regex_escape.ts";

const ROW = /^\d{1,15}$/;
/** Text inside one table row: anything up to its end. */
const IN_ROW = "(?:(?!</tr>)[\\s\\S])*?";

/**
 * The producer of checkbox `key`'s `value` a form of `step` sends, when a row the journey made
 * under some name was captured with that number, and the latest page holding the checkbox holds
 * it in a table row that links that name and number (see the module); else undefined.
 *
 * @example
 * ```ts
 * import { checkedRowProducer } from "./checked_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const made = { name: "open_console", last: {} };
 * const producer = { step: made, source: { kind: "regex", name: "mid", pattern: "mid=(\\d+)" }, secret: false };
 * c.members.set("linked?mid\u00001", { producer, under: "/index.php?" } as never);
 * const last = { url: new URL("http://cam.test/index.php?view=console"), mimeType: "text/html",
 *   responseText: '<tr><td><a href="?view=watch&amp;mid=1">Front Door</a></td>' +
 *     '<td><input type="checkbox" name="mark[]" value="1"></td></tr>' };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push({ name: "open_console_2", last } as any);
 * const post = { name: "delete", first: { method: "POST", url: last.url } };
 * // deno-lint-ignore no-explicit-any
 * if (checkedRowProducer(c, "mark[]", "1", post as any) !== producer) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (checkedRowProducer(c, "mark[]", "2", post as any) !== undefined) throw new Error();
 * ```
 */
export function checkedRowProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  if (!ROW.test(value)) return undefined;
  const box = new RegExp(`<input\\b[^>]*\\bname=["']${escape(key)}["'][^>]*>`, "i");
  const page = latestPage(c, step, box);
  if (!page) return undefined;
  for (const [member, { producer }] of c.members) {
    const [head, number] = member.split("\u0000");
    if (Number(number) !== Number(value) || producer.step === step) continue;
    const name = head.slice(head.lastIndexOf("?") + 1);
    const link = `\\bhref=["'][^"']*?[?&;]${escape(name)}=${value}(?![\\d])`;
    const pattern = `<tr\\b[^>]*>(?=${IN_ROW}${link})${IN_ROW}` +
      `<input\\b[^>]*\\bname=["']${escape(key)}["'][^>]*\\bvalue=["']${value}["']`;
    if (new RegExp(pattern, "i").test(page.last.responseText ?? "")) return producer;
  }
  return undefined;
}
