/**
 * Small row numbers a server-rendered page links only from the row that shows what the journey
 * typed. Nagios' host page lists a comment added through a form post (answered "submitted", no
 * id anywhere) as a table row whose last cell is an icon linking `cmd.cgi?cmd_typ=2&com_id=1`;
 * the user clicks it and confirms. A one-digit number is no evidence of an id on its own (a
 * page, a mode, a tab), and the link's label is an image, not a name (`query_rows.ts` reads
 * links labelled by a typed name). The evidence here is the row: a text the journey itself sent
 * (a field of a write that no answer before it held, so the user typed it) is the whole text
 * of one element of exactly one row of the page (`<tr>` or `<li>`), and that row links a page
 * with a small number under `id` or a name ending in `id`. The number is captured from the live
 * page by that row's text, so a second run on one instance acts on its own row, not on the
 * first run's (gone: Nagios refuses in words on a 200 page, and the run passed regardless).
 *
 * A row that shows no text the journey sent (a seeded row it deletes), a text two rows show,
 * and a number a request sent under that name before (an edit) are left as they were.
 *
 * @module
 */
import type { Step } from "../model.ts";
import { noteLinkedRow } from "./query_rows.ts";
import type { Correlator } from "./state.ts";

const ROW = /^\d{1,15}$/;
const ID_NAME = /^(?:id|[A-Za-z][A-Za-z0-9]*?(?:[_-]?id|Id|ID))$/;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
/** How many rows of one page are read: a list longer than that is searched, not scanned. */
const ROWS = 2000;

/** The query and urlencoded body fields `r` sent. */
function sentFields(r: Step["last"]): [string, string][] {
  const body = /^[^=&\s]+=[^&]*(?:&[^=&\s]+=[^&]*)*$/.test(r.bodyText ?? "") ? r.bodyText : "";
  return [...r.url.searchParams, ...new URLSearchParams(body)];
}

/**
 * The texts the journey typed before `step`: values of the fields its writes sent with a
 * letter, 3 to 200 characters, held by no answer before the write that first sent them (a
 * host's name the first page listed was chosen, not typed), and `name=value` of every field
 * sent before `step`.
 */
function typedTexts(c: Correlator, step: Step): { typed: string[]; before: Set<string> } {
  const typed = new Set<string>();
  const before = new Set<string>();
  const seen = new Set<string>();
  const steps = c.steps.includes(step) ? c.steps : [...c.steps, step];
  for (const [i, s] of steps.entries()) {
    if (s === step) break;
    const write = s.last.method !== "GET" && s.last.method !== "HEAD";
    for (const [name, value] of sentFields(s.last)) {
      before.add(`${name}=${value}`);
      if (!write || seen.has(value)) continue;
      seen.add(value);
      if (value.length < 3 || value.length > 200 || !/\p{L}/u.test(value)) continue;
      const answered = steps.slice(0, i).some((p) => p.last.responseText?.includes(value));
      if (!answered) typed.add(value);
    }
  }
  return { typed: [...typed], before };
}

/** The whole text of each element of `row`, trimmed. */
const elementTexts = (row: string) =>
  new Set([...row.matchAll(/>([^<>]+)</g)].map((m) => m[1].trim()).filter((t) => t !== ""));

/** The pattern whose first group is `name`'s number in the `tag` row that shows `shown`. */
function rowPattern(tag: string, shown: string, page: string, name: string, linkFirst: boolean) {
  const inRow = `(?:(?!</${tag}>)[\\s\\S])*?`;
  const text = `>\\s*${escape(shown)}\\s*<`;
  const href = `\\bhref\\s*=\\s*["'][^"']*?${escape(page)}\\?(?:[^"']*?[&;])?${
    escape(name)
  }=(\\d+)[&#"']`;
  return `<${tag}\\b[^>]*>${inRow}${
    linkFirst ? `${href}${inRow}${text}` : `${text}${inRow}${href}`
  }`;
}

/**
 * Notes the small ids a 2xx HTML page links from the one row that shows a text the journey
 * typed (see the module), each captured from the page by that row's text.
 *
 * @example
 * ```ts
 * import { noteRowLinks } from "./row_links.ts";
 * import { queryRowProducer } from "./query_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const add = { last: { method: "POST", status: 200, url: new URL("http://a.test/cmd.cgi"),
 *   bodyText: "com_data=Disk+swap+tonight", mimeType: "text/html", responseText: "ok" } };
 * const host = { last: { method: "GET", status: 200, url: new URL("http://a.test/host.cgi"),
 *   mimeType: "text/html", responseText:
 *     "<table><tr><td>Disk swap tonight</td><td><a href='cmd.cgi?com_id=2'>x</a></td></tr></table>" } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(add as any, host as any);
 * // deno-lint-ignore no-explicit-any
 * noteRowLinks(c, host as any);
 * const open = { last: { url: new URL("http://a.test/cmd.cgi?com_id=2") } };
 * // deno-lint-ignore no-explicit-any
 * if (queryRowProducer(c, "com_id", "2", open as any) === undefined) throw new Error();
 * ```
 */
export function noteRowLinks(c: Correlator, step: Step): void {
  const r = step.last;
  if (r.status === undefined || r.status < 200 || r.status > 299) return;
  if (r.responseText === undefined || !/html/.test(r.mimeType)) return;
  if (r.method !== "POST" && r.method !== "GET") return;
  const rows = [...r.responseText.matchAll(/<(tr|li)\b[^>]*>([\s\S]*?)<\/\1>/gi)].slice(0, ROWS);
  if (rows.length === 0) return;
  const { typed, before } = typedTexts(c, step);
  const texts = rows.map((row) => elementTexts(row[2]));
  const shownIn = (t: string) => texts.flatMap((set, i) => (set.has(t) ? [i] : []));
  // The longest typed text names its row best: a short one (a host) may be another row's too.
  const shown = typed.flatMap((t) => [t, t.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch])])
    .filter((t) => shownIn(t).length === 1).sort((a, b) => b.length - a.length);
  const done = new Set<number>();
  for (const text of shown) {
    const at = shownIn(text)[0];
    if (!done.has(at)) noteRow(c, step, rows[at], text, before);
    done.add(at);
  }
}

/** Notes the small ids the links of `row` (its whole text, tag and inside) send, by `text`. */
function noteRow(
  c: Correlator,
  step: Step,
  [whole, tag, inner]: RegExpMatchArray,
  text: string,
  before: Set<string>,
): void {
  const r = step.last;
  for (const link of inner.matchAll(/\bhref\s*=\s*["']([^"']*)["']/gi)) {
    const href = link[1].replace(/&amp;/g, "&");
    if (!URL.canParse(href, r.url)) continue;
    const to = new URL(href, r.url);
    if (to.origin !== r.url.origin) continue;
    const page = to.pathname.slice(to.pathname.lastIndexOf("/") + 1);
    const linkFirst = whole.indexOf(link[0]) < whole.search(new RegExp(`>\\s*${escape(text)}`));
    for (const [name, value] of to.searchParams) {
      if (!ROW.test(value) || !ID_NAME.test(name) || before.has(`${name}=${value}`)) continue;
      const pattern = rowPattern(tag.toLowerCase(), text, page, name, linkFirst);
      noteLinkedRow(c, step, to, name, value, pattern);
    }
  }
}
