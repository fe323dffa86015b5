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
 * Rows are read as a browser reads them (row_markup.ts): a link written unquoted
 * (`<a href=ct.pl?action=edit&id=10069&db=customer>`, SQL-Ledger's Perl CGI) and a typed name
 * padded by `&nbsp;` are the row's link and text, captured by patterns of that form.
 *
 * @module
 */
import type { Producer, Step } from "../model.ts";
import { singular, snake } from "../names.ts";
import { multipartParts } from "../uploads.ts";
import { createdIdProducer, createdKey } from "./created_ids.ts";
import { heldHiddenProducer } from "./hidden_fields.ts";
import { jsonRowNumber, noteJsonRowLink, rawQueryValue } from "./json_rows.ts";
import { noteLinkedRow, queryRowProducer } from "./query_rows.ts";
import type { Correlator } from "./state.ts";
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";
import { shownTextPattern } from "./run_own_text.ts";
import { cellPad, cellText, hrefHead, hrefNumberEnd, hrefQuery, rowHrefs } from "./row_markup.ts";

const ROW = /^\d{1,15}$/;
const ID_NAME = /^(?:id|[A-Za-z][A-Za-z0-9]*?(?:[_-]?id|Id|ID))$/;
const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
/** How many rows of one page are read: a list longer than that is searched, not scanned. */
const ROWS = 2000;

/** The query and urlencoded or multipart text fields `r` sent. */
function sentFields(r: Step["last"]): [string, string][] {
  const text = r.bodyText ?? "";
  // A multipart body opens with its boundary line (Express Admin's forms are multipart).
  const boundary = /^multipart\//.test(r.bodyMime ?? "") ? /^--([^\r\n]+)\r?\n/.exec(text) : null;
  if (boundary) {
    const parts = multipartParts(text, boundary[1]) ?? [];
    return [
      ...r.url.searchParams,
      ...parts.flatMap((p): [string, string][] =>
        p.fileName === undefined && p.value !== undefined ? [[p.name, p.value]] : []
      ),
    ];
  }
  const body = /^[^=&\s]+=[^&]*(?:&[^=&\s]+=[^&]*)*$/.test(text) ? text : "";
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

/** The whole text of each element of `row`, without the whitespace around it (`&nbsp;` too). */
const elementTexts = (row: string) =>
  new Set([...row.matchAll(/>([^<>]+)</g)].map((m) => cellText(m[1])).filter((t) => t !== ""));

/** How the row writes its text and the link: the text's padding, the link quoted or bare. */
type Markup = { pad: string; quoted: boolean; linkFirst: boolean };

/** The pattern whose first group is `name`'s number in the `tag` row that shows `shown`. */
function rowPattern(tag: string, shown: string, page: string, name: string, m: Markup) {
  const query = hrefQuery(m.quoted);
  const href = hrefHead(
    m.quoted,
    `${escape(page)}\\?(?:${query}[&;])?${escape(name)}=(\\d+)${hrefNumberEnd(m.quoted)}`,
  );
  return inRowPattern(tag, shown, href, m);
}

/** The pattern whose first group is the number ending a link to `under/N` in the row of `shown`. */
function pathRowPattern(tag: string, shown: string, under: string, m: Markup) {
  const host = m.quoted ? `[^/"']+` : `[^/"'\\s>]+`;
  const end = m.quoted ? `[?#"']` : `[?#\\s>]`;
  const href = `\\bhref\\s*=\\s*${m.quoted ? `["']` : ""}(?:https?://${host})?${
    escape(under)
  }/(\\d+)${end}`;
  return inRowPattern(tag, shown, href, m);
}

/**
 * `href` (its group the number) and the text `shown` finds (a pattern: the typed text, or the
 * run's own version of it, run_own_text.ts), in that order or the other, in one row.
 */
function inRowPattern(tag: string, shown: string, href: string, m: Omit<Markup, "quoted">) {
  const inRow = `(?:(?!</${tag}>)[\\s\\S])*?`;
  const text = `>${m.pad}${shown}${m.pad}<`;
  return `<${tag}\\b[^>]*>${inRow}${
    m.linkFirst ? `${href}${inRow}${text}` : `${text}${inRow}${href}`
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
  const pad = cellPad(whole, text);
  for (const link of rowHrefs(inner)) {
    const href = link.value.replace(/&amp;/g, "&");
    if (!URL.canParse(href, r.url)) continue;
    const to = new URL(href, r.url);
    if (to.origin !== r.url.origin) continue;
    const page = to.pathname.slice(to.pathname.lastIndexOf("/") + 1);
    const linkFirst = whole.indexOf(link.attr) < whole.search(new RegExp(`>${pad}${escape(text)}`));
    const m = { pad, quoted: link.quoted, linkFirst };
    const shown = shownTextPattern(c, text);
    for (const [name, value] of to.searchParams) {
      if (before.has(`${name}=${value}`)) continue;
      // A row named by JSON in the value (phpLiteAdmin's `pk=[1]`): json_rows.ts.
      const raw = ROW.test(value) || jsonRowNumber(value) === undefined
        ? undefined
        : rawQueryValue(link.value, name);
      if (raw !== undefined) {
        const inRow = (href: string) => inRowPattern(tag.toLowerCase(), shown, href, m);
        noteJsonRowLink(c, step, { page, name, raw }, ID_NAME.test(name), inRow);
      }
      if (!ROW.test(value) || !ID_NAME.test(name)) continue;
      const pattern = rowPattern(tag.toLowerCase(), shown, page, name, m);
      noteLinkedRow(c, step, to, name, value, pattern);
    }
    // A path that ends in the row's number (`/tides/1`, Express Admin's list): kept as a create's
    // row is, so the segment a later request sends right under the collection is captured.
    const under = to.pathname.slice(0, to.pathname.lastIndexOf("/"));
    if (ROW.test(page) && under !== "" && to.search === "") {
      const pattern = pathRowPattern(tag.toLowerCase(), shown, under, m);
      noteLinkedPathRow(c, step, under, page, pattern);
    }
  }
}

/** Keeps `number` of the link under `under` as a row `step`'s page names by `pattern`. */
function noteLinkedPathRow(
  c: Correlator,
  step: Step,
  under: string,
  number: string,
  pattern: string,
): void {
  const key = createdKey(under, String(Number(number)));
  if (c.members.has(key)) return;
  if (new RegExp(pattern, "i").exec(step.last.responseText!)?.[1] !== number) return;
  const noun = singular(snake(under.slice(under.lastIndexOf("/") + 1))) || "row";
  const source = { kind: "regex" as const, name: `${noun}_id`, pattern };
  c.members.set(key, { producer: { step, source, secret: false }, under });
}

/**
 * The hidden field `key` of a save whose path ends in a row the journey made or a page linked
 * (`POST /tides/1`), when the form's page held the same number (`pk=1`): captured from that
 * page by the field's name, so a second run sends its own row's; else undefined.
 *
 * @example
 * ```ts
 * import { heldRowProducer, noteRowLinks } from "./row_links.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const add = { last: { method: "POST", status: 302, url: new URL("http://a.test/tides/add"),
 *   bodyText: "note=high+water", mimeType: "text/html", responseText: "" } };
 * const list = { last: { method: "GET", status: 200, url: new URL("http://a.test/tides"),
 *   mimeType: "text/html", responseText:
 *     "<table><tr><td><a href='/tides/1'>1</a></td><td>high water</td></tr></table>" } };
 * const form = { last: { method: "GET", status: 200, url: new URL("http://a.test/tides/1"),
 *   mimeType: "text/html", responseText: "<input type='hidden' name='pk' value='1' />" } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(add as any, list as any);
 * // deno-lint-ignore no-explicit-any
 * noteRowLinks(c, list as any);
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(form as any);
 * const sent = { method: "POST", url: new URL("http://a.test/tides/1") };
 * const save = { first: sent, last: sent };
 * // deno-lint-ignore no-explicit-any
 * if (heldRowProducer(c, "pk", "1", save as any)?.step !== form) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (heldRowProducer(c, "height", "1", save as any) !== undefined) throw new Error();
 * ```
 */
export function heldRowProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  // A bare step (a unit's) has no request: nothing to read a row from.
  const path = step.last?.url.pathname ?? "";
  const at = path.lastIndexOf("/");
  if (!ROW.test(value) || path.slice(at + 1) !== value) return undefined;
  // Captured from the form by its field's name, not assumed to be the path's number: a page may
  // hold another `1` beside it (Redmine's `issue[lock_version]` on issue 1's form).
  return createdIdProducer(c, path.slice(0, at), value) && heldHiddenProducer(c, key, value, step);
}

/**
 * The producer of a small row id sent as `key=value`: a save's redirect or a row's link named
 * it in a query (query_rows.ts), or the form's page held it for the row its path names.
 *
 * @example
 * ```ts
 * import { linkedRowProducer } from "./row_links.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const save = { last: { method: "POST", url: new URL("http://a.test/tides/1") } };
 * // deno-lint-ignore no-explicit-any
 * if (linkedRowProducer(emptyCorrelator("a", true), "pk", "1", save as any)) throw new Error();
 * ```
 */
export function linkedRowProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  return queryRowProducer(c, key, value, step) ?? heldRowProducer(c, key, value, step);
}
