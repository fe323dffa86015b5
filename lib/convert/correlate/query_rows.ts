/**
 * Row numbers a save hands out only in its redirect's query: a server-rendered console
 * answers a create's form post `302 Location: host.php?action=edit&id=1`, and the journey then
 * sends that `1` to the same page as a query or body value (`host.php?action=ping_host&id=1`,
 * a form's `id=1`), as a field named for the page (`tree.php?…&tree_id=2`), or inside a field
 * NAME (a list's checkbox `chk_1=on`). A number that small is no evidence on its own; here the
 * evidence is the material's: the number first appears in the `Location` query of the answer to
 * a post that did not send it (a create, not an edit of that row), under `id` or a name ending
 * in `id`, and a later request to the same page sends it. It is captured from the live
 * `Location`, so a second run on one instance acts on its own rows.
 *
 * A `page=1`, `rows=10` or `tab=2` names no created row, and a `chk_7` of a row no save of the
 * journey answered stays as recorded, as does anything sent to another page.
 *
 * @module
 */
import { responseHeaders } from "../handed.ts";
import type { Producer, Step } from "../model.ts";
import { useProducer } from "./captures.ts";
import { heldHidden, latestPage } from "./hidden_fields.ts";
import type { Correlator } from "./state.ts";
import { shownTextPattern } from "./run_own_text.ts";
import { escapeRegExp as escape } from "../../_util/regex_escape.ts";

const ROW = /^\d{1,15}$/;
const ID_NAME = /^(?:id|[A-Za-z][A-Za-z0-9]*?(?:[_-]id|Id|ID))$/;
/** A link beside its typed label may name its row `groupid` too: the label is the evidence. */
const LINK_ID_NAME = /^(?:id|[A-Za-z][A-Za-z0-9]*?(?:[_-]?id|Id|ID))$/;

/** Where the row a save of page `path` answered under `name` is kept among the members. */
const rowKey = (path: string, name: string, value: string) =>
  `${path}?${name}\u0000${Number(value)}`;
/** Where a row a link labelled is kept for any page of the origin. */
const linkedKey = (name: string, value: string) => `linked?${name}\u0000${Number(value)}`;

/**
 * The labelled row a list's checkbox names by its number (`hostids[10559]`, `groups[20]`): the
 * link of that row named it `hostid` or `groupid`, so the field's word, its plural dropped and
 * `id` added where missing, finds it.
 */
function checkboxRow(c: Correlator, name: string) {
  const m = /^([A-Za-z][A-Za-z0-9_]*?)\[(\d{1,15})\]$/.exec(name);
  if (m === null) return undefined;
  const word = m[1].replace(/s$/, "");
  const found = c.members.get(linkedKey(/id$/i.test(word) ? word : `${word}id`, m[2]));
  return found && { word: m[1], row: m[2], found };
}

/** Whether `r` sent `name=value` itself, in its query or its urlencoded body (an edit's save). */
function sentItself(r: Step["last"], name: string, value: string): boolean {
  if (r.url.searchParams.getAll(name).includes(value)) return true;
  const body = /^[^=&\s]+=[^&]*(?:&[^=&\s]+=[^&]*)*$/.test(r.bodyText ?? "") ? r.bodyText : "";
  return new URLSearchParams(body).getAll(name).includes(value);
}

/**
 * Notes the small ids in the `Location` query a post's 201 or redirect answered (see the
 * module), each captured from the live `Location` by a pattern over its query.
 *
 * @example
 * ```ts
 * import { noteQueryRows, queryRowProducer } from "./query_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 302, url: new URL("http://a.test/host.php?header=false"),
 *   bodyText: "name=Router&id=0",
 *   raw: { response: { headers: [{ name: "Location", value: "host.php?action=edit&id=1" }] } } };
 * // deno-lint-ignore no-explicit-any
 * noteQueryRows(c, { last } as any);
 * const ping = { last: { url: new URL("http://a.test/host.php?action=ping&id=1") } };
 * // deno-lint-ignore no-explicit-any
 * if (queryRowProducer(c, "id", "1", ping as any) === undefined) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (queryRowProducer(c, "page", "1", ping as any) !== undefined) throw new Error();
 * ```
 */
export function noteQueryRows(c: Correlator, step: Step): void {
  const r = step.last;
  if (r.method !== "POST" && r.method !== "PUT") return;
  const created = r.status === 201 || (r.status !== undefined && r.status >= 300 && r.status < 400);
  const location = responseHeaders(r).find((h) => h.name.toLowerCase() === "location")?.value;
  if (!created || !location || !URL.canParse(location, r.url)) return;
  const to = new URL(location, r.url);
  if (to.origin !== r.url.origin) return;
  const page = to.pathname.slice(to.pathname.lastIndexOf("/") + 1);
  for (const [name, value] of to.searchParams) {
    if (!ROW.test(value) || !ID_NAME.test(name) || sentItself(r, name, value)) continue;
    const key = rowKey(to.pathname, name, value);
    if (c.members.has(key)) continue;
    const pattern = `${escape(page)}\\?(?:[^#]*&)?${escape(name)}=(\\d+)(?:[&#]|$)`;
    const source = { kind: "header" as const, name: "location", regex: pattern };
    c.members.set(key, { producer: { step, source, secret: false }, under: `${to.pathname}?` });
  }
}

/** The folder of a path, its last slash kept. */
const folder = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);

/**
 * Notes the pages a created row's own page links with the row's number (see
 * {@linkcode noteQueryRows}): a tracker's create answers `Location: Display.html?id=1`, and the
 * ticket's page links `Modify.html?id=1` and `Update.html?Action=comment&id=1`, where the user
 * edits and comments. The page the `Location` led to naming them so, in its own folder, is the
 * evidence that they address the same row; each is then captured from that `Location` too.
 *
 * @example
 * ```ts
 * import { noteQueryRows, noteRowPages, queryRowProducer } from "./query_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 302, url: new URL("http://a.test/Ticket/Create.html"),
 *   raw: { response: { headers: [{ name: "Location", value: "Display.html?id=1" }] } } };
 * // deno-lint-ignore no-explicit-any
 * noteQueryRows(c, { last } as any);
 * const shown = { last: { method: "GET", status: 200, url: new URL("http://a.test/Ticket/Display.html?id=1"),
 *   mimeType: "text/html", responseText: '<a href="/Ticket/Modify.html?id=1">Basics</a>' } };
 * // deno-lint-ignore no-explicit-any
 * noteRowPages(c, shown as any);
 * const edit = { last: { url: new URL("http://a.test/Ticket/Modify.html?id=1") } };
 * // deno-lint-ignore no-explicit-any
 * if (queryRowProducer(c, "id", "1", edit as any) === undefined) throw new Error();
 * ```
 */
export function noteRowPages(c: Correlator, step: Step): void {
  const r = step.last;
  if (r.method !== "GET" || !isHtmlPage(r)) return;
  for (const [name, value] of r.url.searchParams) {
    if (!ROW.test(value) || !ID_NAME.test(name)) continue;
    const member = c.members.get(rowKey(r.url.pathname, name, value));
    if (member === undefined || member.producer.step === step) continue;
    for (const to of linksWith(r, name, value)) {
      const key = rowKey(to.pathname, name, value);
      if (!c.members.has(key)) c.members.set(key, { ...member, under: `${to.pathname}?` });
    }
  }
}

/** Whether `r` was answered a 2xx HTML page whose text the recording holds. */
function isHtmlPage(r: Step["last"]): boolean {
  if (r.status === undefined || r.status < 200 || r.status > 299) return false;
  return r.responseText !== undefined && /html/.test(r.mimeType);
}

/** The links of `r`'s page, in its own folder of its origin, that send `name=value`. */
function linksWith(r: Step["last"], name: string, value: string): URL[] {
  const found: URL[] = [];
  for (const a of r.responseText!.matchAll(/\bhref\s*=\s*["']([^"']*)["']/gi)) {
    const href = a[1].replace(/&amp;/g, "&");
    if (!URL.canParse(href, r.url)) continue;
    const to = new URL(href, r.url);
    // Perl's CGI takes `;` between fields as `&`: RT links `Update.html?Action=Comment;id=1`.
    const fields = new URLSearchParams(to.search.slice(1).replace(/;(?=[\w.[\]-]+=)/g, "&"));
    if (to.origin !== r.url.origin || !fields.getAll(name).includes(value)) continue;
    // Another folder is another kind of row (a queue's `/Admin/Queues/Modify.html?id=1`).
    if (folder(to.pathname) === folder(r.url.pathname)) found.push(to);
  }
  return found;
}

/** The fields a request sent in its query and urlencoded body: what the user typed there. */
function sentFields(r: Step["last"]): [string, string][] {
  const body = /^[^=&\s]+=[^&]*(?:&[^=&\s]+=[^&]*)*$/.test(r.bodyText ?? "") ? r.bodyText : "";
  return [...r.url.searchParams, ...new URLSearchParams(body)];
}

/** The links of `r`'s page to its own origin whose text is one the journey sent, once each. */
function labelledLinks(
  r: Step["last"],
  sent: Set<string>,
): { to: URL; label: string; href: string }[] {
  const links = [
    ...r.responseText!.matchAll(/<a\b[^>]*\bhref=["']([^"']*)["'][^>]*>([^<]*)<\/a>/gi),
  ]
    .map((a) => ({ href: a[1].replace(/&amp;/g, "&"), label: a[2].trim() }))
    .filter((a) => /\p{L}/u.test(a.label) && URL.canParse(a.href, r.url));
  return links.filter(({ label }) =>
    sent.has(label) && links.filter((l) => l.label === label).length === 1
  ).map(({ href, label }) => ({ to: new URL(href, r.url), label, href }))
    .filter(({ to }) => to.origin === r.url.origin);
}

/**
 * Notes the small ids a 2xx HTML page links in a query (`<a href="groups.php?form=update&
 * groupid=20">Harbour</a>`) by a text the journey sent (the post answered so, or an earlier
 * request): a console that answers a create with its list, not a redirect, names the new row
 * only there, beside the name the user typed. Each is captured from the page by that text, for
 * the same page and for any page sent the same name; a label two links share, or a number a
 * request sent under that name before (an edit), is left alone.
 *
 * @example
 * ```ts
 * import { noteLinkedQueryRows, queryRowProducer } from "./query_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 200, url: new URL("http://a.test/groups.php"),
 *   bodyText: "name=Harbour&groupid=0", mimeType: "text/html",
 *   responseText: '<a href="groups.php?form=update&groupid=20">Harbour</a>' };
 * // deno-lint-ignore no-explicit-any
 * noteLinkedQueryRows(c, { last } as any);
 * const open = { last: { url: new URL("http://a.test/groups.php?form=update&groupid=20") } };
 * // deno-lint-ignore no-explicit-any
 * if (queryRowProducer(c, "groupid", "20", open as any) === undefined) throw new Error();
 * ```
 */
export function noteLinkedQueryRows(c: Correlator, step: Step): void {
  const r = step.last;
  if (r.status === undefined || r.status < 200 || r.status > 299) return;
  if (r.responseText === undefined || !/html/.test(r.mimeType)) return;
  if (r.method !== "POST" && r.method !== "GET") return;
  // A list the user opens later names the row by what an earlier request sent (a host's name).
  const before = c.steps.filter((s) => s !== step).flatMap((s) => sentFields(s.last));
  const sent = new Set([...before, ...sentFields(r)].map(([, v]) => v));
  const sentBefore = new Set(before.map(([k, v]) => `${k}=${v}`));
  for (const { to, label, href } of labelledLinks(r, sent)) {
    for (const [name, value] of to.searchParams) {
      if (!ROW.test(value) || !LINK_ID_NAME.test(name) || sentItself(r, name, value)) continue;
      if (!sentBefore.has(`${name}=${value}`)) noteLink(c, step, to, href, [name, value], label);
    }
  }
}

/**
 * Notes row `value` of link `to`'s `name` as captured by `label`, unless a member already. A link
 * written as its query alone (`href="?view=watch&amp;mid=1"`, ZoneMinder's) names its page so.
 */
function noteLink(
  c: Correlator,
  step: Step,
  to: URL,
  href: string,
  [name, value]: [string, string],
  label: string,
) {
  const page = to.pathname.slice(to.pathname.lastIndexOf("/") + 1);
  const head = href.startsWith("?") ? "" : `[^"']*?${escape(page)}`;
  const pattern = `<a\\b[^>]*\\bhref=["']${head}\\?(?:[^"']*?[&;])?` +
    `${escape(name)}=(\\d+)[^>]*>\\s*${shownTextPattern(c, label, escape)}\\s*</a>`;
  noteLinkedRow(c, step, to, name, value, pattern);
}

/**
 * Notes row `value`, linked by `to` under `name` on `step`'s page, as captured there by
 * `pattern` (its first group the number) for the same page and for any page sent the same name,
 * unless a member already or the pattern does not find the value in the recorded page.
 *
 * @example
 * ```ts
 * import { noteLinkedRow, queryRowProducer } from "./query_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { responseText: "<tr><td>Quay</td><td><a href='cmd.cgi?com_id=2'>x</a></td></tr>" };
 * const to = new URL("http://a.test/cmd.cgi?com_id=2");
 * // deno-lint-ignore no-explicit-any
 * noteLinkedRow(c, { last } as any, to, "com_id", "2", "com_id=(\\d+)");
 * const open = { last: { url: new URL("http://a.test/cmd.cgi?com_id=2") } };
 * // deno-lint-ignore no-explicit-any
 * if (queryRowProducer(c, "com_id", "2", open as any) === undefined) throw new Error();
 * ```
 */
export function noteLinkedRow(
  c: Correlator,
  step: Step,
  to: URL,
  name: string,
  value: string,
  pattern: string,
): void {
  const key = rowKey(to.pathname, name, value);
  if (c.members.has(key) || new RegExp(pattern, "i").exec(step.last.responseText!)?.[1] !== value) {
    return;
  }
  const source = { kind: "regex" as const, name, pattern };
  const member = { producer: { step, source, secret: false }, under: `${to.pathname}?` };
  c.members.set(key, member);
  // The label names the row wherever the journey sends it under that name (another page).
  if (!c.members.has(linkedKey(name, value))) c.members.set(linkedKey(name, value), member);
}

/**
 * The save whose row a request to the same page sends as `key=value`: under the name the
 * `Location` used, or as `<page>_id` for an `id` (`tree_id` to `tree.php`); else undefined.
 *
 * @example
 * ```ts
 * import { noteQueryRows, queryRowProducer } from "./query_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 302, url: new URL("http://a.test/tree.php"),
 *   raw: { response: { headers: [{ name: "Location", value: "tree.php?action=edit&id=2" }] } } };
 * // deno-lint-ignore no-explicit-any
 * noteQueryRows(c, { last } as any);
 * const node = { last: { url: new URL("http://a.test/tree.php?action=get_node&tree_id=2") } };
 * // deno-lint-ignore no-explicit-any
 * if (queryRowProducer(c, "tree_id", "2", node as any) === undefined) throw new Error();
 * const other = { last: { url: new URL("http://a.test/graphs.php?tree_id=2") } };
 * // deno-lint-ignore no-explicit-any
 * if (queryRowProducer(c, "tree_id", "2", other as any) !== undefined) throw new Error();
 * ```
 */
export function queryRowProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  // Only names of rows are members: a `page=1` finds none.
  if (!ROW.test(value) || !(LINK_ID_NAME.test(key) || /\[\d+\]$/.test(key))) return undefined;
  const box = checkboxRow(c, key);
  if (box !== undefined && box.row === value && box.found.producer.step !== step) {
    return box.found.producer;
  }
  const path = step.last.url.pathname;
  const stem = path.slice(path.lastIndexOf("/") + 1).replace(/\.[A-Za-z0-9]+$/, "").toLowerCase();
  const noun = /^(.+?)(?:[_-]id|Id|ID)$/.exec(key)?.[1]?.toLowerCase();
  const found = c.members.get(rowKey(path, key, value)) ??
    (noun !== undefined && noun === stem ? c.members.get(rowKey(path, "id", value)) : undefined) ??
    c.members.get(linkedKey(key, value));
  return found !== undefined && found.producer.step !== step ? found.producer : undefined;
}

/**
 * The template of a field NAME that carries a row a save of the same page answered under `id`
 * (a list's checkbox `chk_1`), its word kept and its number captured; else undefined.
 *
 * @example
 * ```ts
 * import { noteQueryRows, rowFieldName } from "./query_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * import { UniqueNames } from "../names.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 302, url: new URL("http://a.test/host.php"),
 *   raw: { response: { headers: [{ name: "Location", value: "host.php?action=edit&id=1" }] } } };
 * const save = { name: "save", noun: "host", captures: [], captureNames: new UniqueNames(),
 *   captureByPath: new Map(), last };
 * // deno-lint-ignore no-explicit-any
 * noteQueryRows(c, save as any);
 * const list = { name: "bulk", uses: new Set(), last: { url: new URL("http://a.test/host.php") } };
 * // deno-lint-ignore no-explicit-any
 * if (rowFieldName(c, "chk_1", list as any)?.startsWith("chk_${") !== true) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (rowFieldName(c, "chk_7", list as any) !== undefined) throw new Error();
 * ```
 */
export function rowFieldName(c: Correlator, name: string, step: Step): string | undefined {
  const box = c.linking ? checkboxRow(c, name) : undefined;
  if (box !== undefined && box.found.producer.step !== step) {
    const row = useProducer(c, box.found.producer, step);
    return `${c.sp.lit(`${box.word}[`)}${row}${c.sp.lit("]")}`;
  }
  const m = /^([A-Za-z][A-Za-z0-9]*[_-])(\d{1,15})$/.exec(name);
  if (m === null || !c.linking) return undefined;
  const found = c.members.get(rowKey(step.last.url.pathname, "id", m[2]));
  if (found === undefined || found.producer.step === step) return undefined;
  picked.set(c, (picked.get(c) ?? new Set()).add(step));
  return `${c.sp.lit(m[1])}${useProducer(c, found.producer, step)}`;
}

/** The steps whose field names carried a created row, by correlator: their pages echo the pick. */
const picked = new WeakMap<Correlator, Set<Step>>();

/**
 * The template of hidden field `key` a confirmation page held with `value` when that page
 * answered a post whose field names carried created rows (`chk_4=on`): the page wrote which
 * rows were picked (`selected_items=a:1:{i:0;s:1:"4";}`), so a second run's page names its
 * own; captured from that page; else undefined.
 *
 * @example
 * ```ts
 * import { pickedHidden } from "./query_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const confirm = { method: "POST", url: new URL("http://a.test/users.php") };
 * const save = { first: confirm, last: confirm };
 * // No post picked a created row: the hidden field is left to the other rules.
 * // deno-lint-ignore no-explicit-any
 * if (pickedHidden(c, "selected_items", "4", save as any) !== undefined) throw new Error();
 * ```
 */
export function pickedHidden(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): string | undefined {
  const pickers = picked.get(c);
  if (value === "" || pickers === undefined || step.first.method === "GET") return undefined;
  const page = latestPage(c, step, new RegExp(`<input\\b[^>]*\\bname=["']${escape(key)}["']`));
  if (page === undefined || !pickers.has(page) || !heldHidden(c, key, value, step)) {
    return undefined;
  }
  const html = page.last.responseText!;
  for (const q of [`'`, `"`]) {
    const pattern = `<input[^>]*\\bname=${q}${escape(key)}${q}[^>]*\\bvalue=${q}([^${q}]*)${q}`;
    if (new RegExp(pattern).exec(html)?.[1] !== value) continue;
    const source = { kind: "regex" as const, name: key, pattern };
    return useProducer(c, { step: page, source, secret: false }, step);
  }
  return undefined;
}
