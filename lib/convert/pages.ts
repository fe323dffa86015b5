/**
 * Documents that are part of the API. A server-rendered app keeps its session in pages: a login
 * form with a hidden `authenticity_token`, a `POST` that answers `303` and sets (or rotates) the
 * session cookie, a page whose `<meta name="csrf-token">`, inline JSON config (`<script
 * type="application/json">`), script variables or `data-` attributes hold the values its scripts
 * send. Such documents are dropped as "HTML document" like any other unless they take part in
 * the session:
 *
 * - a form submission (a document sent with another method than GET) on the
 *   app's hosts is one of the app's actions;
 * - a document whose cookies or page values (or, for a redirect, its `Location`'s query values)
 *   a later kept request sends is where the session's state comes from.
 *
 * Both are kept, so the flow captures what a fresh session hands out.
 *
 * @module
 */
import { isMadeUpText } from "./made_up_text.ts";
import { embedded, ID_NAME, type PageValue, secretName } from "./page_value.ts";
import type { HarRecord } from "./har_model.ts";
import { loadBodies } from "./har_bodies.ts";
import { REASON } from "./noise.ts";
import { responseHeaders } from "./handed.ts";
import { patternAt } from "./nth_match.ts";
import { escapeRegExpSlash as escape } from "../_util/regex_escape.ts";
import { sentValues } from "./sent_values.ts";
import { rowPairs, sendsRow } from "./labelled_rows.ts";
import { controlNames } from "./page_named_controls.ts";
import { scriptValues } from "./script_values.ts";
import { linkedPathIds } from "./linked_path_ids.ts";

export type { PageValue } from "./page_value.ts";

/** A box the user ticks: its value is a choice offered (a row's key), no secret. */
const CHOICE = /^(checkbox|radio)$/;

/** Attributes of one tag with where each starts, values unquoted. */
function attributes(tag: string): { name: string; value: string; at: number; quote: string }[] {
  return [...tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)].map((a) => ({
    name: a[1].toLowerCase(),
    value: a[2] ?? a[3],
    at: a.index!,
    quote: a[2] !== undefined ? '"' : "'",
  }));
}

/** Whether a hidden input holds a row's id (`post_ID` = `5`): the row the page is about, however small. */
const rowId = (name: string, value: string) => ID_NAME.test(name) && /^\d+$/.test(value);

/** `<meta name content>` and `<input name value>` pairs. */
function tagValues(html: string, out: PageValue[]): void {
  for (const tag of html.matchAll(/<(meta|input)\b[^>]{0,2000}>/gi)) {
    const kind = tag[1].toLowerCase();
    const valueAttr = kind === "meta" ? "content" : "value";
    const attrs = attributes(tag[0]);
    const named = attrs.find((a) => a.name === "name");
    const held = attrs.find((a) => a.name === valueAttr);
    // A hidden field is what the form hands back, a meta tag what the server says of the page.
    const type = kind === "input" ? attrs.find((a) => a.name === "type")?.value.toLowerCase() : "";
    const hidden = kind === "meta" || type === "hidden";
    if (!named || !held) continue;
    const min = hidden && kind === "input" && rowId(named.value, held.value) ? 1 : 8;
    if (!embedded(named.value, held.value, min, hidden)) continue;
    // The quotes the page used: a pattern reads best when it says exactly what it expects.
    const name = `${escape(named.name)}=${named.quote}${escape(named.value)}${named.quote}`;
    const value = `${valueAttr}=${held.quote}([^${held.quote}]*)${held.quote}`;
    const pattern = named.at < held.at
      ? `<${kind}[^>]*\\b${name}[^>]*\\b${value}`
      : `<${kind}[^>]*\\b${value}[^>]*\\b${name}`;
    const state = hidden && /^\d+$/.test(held.value);
    const secret = !CHOICE.test(type ?? "");
    out.push({ name: named.value, value: held.value, pattern, secret, state });
  }
}

/** `data-*` attributes of any tag: `<main data-workspace="ws_2eac70">`. */
function dataValues(html: string, out: PageValue[]): void {
  for (const a of html.matchAll(/\s(data-[\w-]{1,60})\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    const name = a[1].toLowerCase();
    const value = a[2] ?? a[3];
    const quote = a[2] !== undefined ? '"' : "'";
    if (!embedded(name.slice(5), value, 6)) continue;
    const pattern = `\\b${escape(name)}=${quote}([^${quote}]*)${quote}`;
    out.push({ name: name.slice(5), value, pattern, secret: secretName(name.slice(5)) });
  }
}

/** A link parameter's name: word characters, `-`, and the dots, colons and brackets some use. */
const LINK_NAME = /^[\w.:[\]-]{1,60}$/;

/**
 * Query values of the page's own links and forms (`href`, `action`): the revision a history page
 * links the difference with (`rev=1795723318`), the token a logout link carries. A long number
 * there is the server's state.
 */
function linkValues(html: string, out: PageValue[], origin?: string): void {
  for (const a of html.matchAll(/\s(?:href|action)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    const written = a[1] ?? a[2];
    // The attribute's character references undone in one pass: Tomcat writes a form's slashes as
    // `&#47;`, and a `#` left in the query would end it before the parameters after it.
    const full = written.replace(
      /&(?:amp|#(\d{1,6})|#x([\da-f]{1,6}));/gi,
      (_, d, x) =>
        d || x ? String.fromCodePoint(Math.min(parseInt(d ?? x, d ? 10 : 16), 0x10ffff)) : "&",
    );
    // A link of the page's own origin written whole (WordPress writes every link so) is its own.
    const url = origin && full.startsWith(`${origin}/`) ? full.slice(origin.length) : full;
    const query = url.indexOf("?");
    if (query === -1 || /^[a-z][a-z0-9+.-]*:/i.test(url)) continue;
    for (const [name, value] of new URLSearchParams(url.slice(query + 1).split("#")[0])) {
      const v = linkValue(html, written, full, name, value);
      if (v) out.push(v);
    }
  }
}

/**
 * Parameter `name`'s `value` of a link the page wrote as `written` (`full` with its character
 * references undone), as a page value; undefined when it is no value a server handed out.
 */
function linkValue(
  html: string,
  written: string,
  full: string,
  name: string,
  value: string,
): PageValue | undefined {
  // A long number, or opaque text of letters and digits (a confirmation's salted hash,
  // DAViCal's `confirm=*4f5bd340*8cc2…`): only the server could write it, whatever its name.
  const spaced = pastedName(written, name, value);
  const state = /^\d{8,}$/.test(value) || isMadeUpText(value) || spaced;
  // A name of dots, colons or brackets (Tomcat's `org.apache.catalina.filters.CSRF_NONCE`,
  // `ns:token`, `form[_token]`) is a name like any other, when the page wrote it as it is sent.
  if (!LINK_NAME.test(name) || !written.includes(`${name}=`)) return undefined;
  if (!(state || embedded(name, value, 8))) return undefined;
  // `&amp;` or `&` before the name, the value up to the next parameter or the quote.
  const end = spaced ? `[^&"'#<>]*` : `[^&"'#\\s]*`;
  const plain = `[?&;]${escape(name)}=(${end})`;
  // A value the link percent-encoded (DAViCal's `confirm=%2A4f5bd340%2A…`) is found as the
  // link wrote it and read back as the server reads a query (`as: url-decoded`).
  const encoded = linkWritten(full, name);
  const pattern = new RegExp(plain).exec(html)?.[1] === (encoded ?? value)
    ? plain
    : `${linkHead(written, name)}(${end})`;
  const url = encoded === undefined ? {} : { encoded };
  return { name, value, pattern, secret: secretName(name), state, ...url };
}

/**
 * Whether a link holds parameter `name`'s `value` with its spaces unescaped, and the value is
 * long text of letters and digits: a name the server pasted into the page as it made it (a backup
 * named after the server's clock, `restore?db=backup Mon Nov 30 2026 11:54:04 GMT….db`). A browser
 * or a form escapes a space; text of words alone is a label, not a value the server made.
 */
function pastedName(written: string, name: string, value: string): boolean {
  return /\s/.test(value) && value.length >= 16 && value.length <= 400 && /\d/.test(value) &&
    /[a-z]/i.test(value) && !/[<>"'&]/.test(value) && written.includes(`${name}=${value}`);
}

/** The text `link` writes for parameter `name`, when it is percent-encoded; else undefined. */
function linkWritten(link: string, name: string): string | undefined {
  const written = new RegExp(`[?&;]${escape(name)}=([^&#]*)`).exec(link)?.[1];
  return written !== undefined && /[%+]/.test(written) ? written : undefined;
}

/**
 * The pattern of a link up to parameter `name`'s value, as the page wrote it, its numbers any
 * number: a trash link `post.php?post=5&amp;action=trash&amp;_wpnonce=` when the page's
 * log-out link carries a `_wpnonce` before it.
 *
 * @example
 * ```ts
 * import { linkHead } from "./pages.ts";
 * if (linkHead("/a.php?t=c&amp;user_no=1001", "user_no") !== "a\\.php\\?t=c&amp;user_no=") {
 *   throw new Error(linkHead("/a.php?t=c&amp;user_no=1001", "user_no"));
 * }
 * ```
 */
export function linkHead(written: string, name: string): string {
  const at = written.search(new RegExp(`[?&;]${escape(name)}=`));
  const start = written.lastIndexOf("/", at) + 1;
  const head = written.slice(start, written.indexOf("=", at) + 1);
  return head.split(/\d+/).map(escape).join("\\d+");
}

/**
 * The values a page carries that a script or a form may send back: tokens of
 * `<meta name content>` tags and named `<input value>` fields, `data-`
 * attributes, string values of inline scripts (JSON config, script
 * variables), and the query values of the page's own links and forms (those
 * written whole too, given the page's `origin`). Each
 * comes with a pattern that finds it in a new copy of the page; a value
 * whose pattern would find another one first is left out. Paths, URLs,
 * words and sentences are not page values.
 *
 * @example
 * ```ts
 * import { pageValues } from "./pages.ts";
 * const html = '<head><meta name="csrf-token" content="c-4f9a2e71b8"></head>' +
 *   '<input type="hidden" name="next" value="/dashboard">' +
 *   '<main data-workspace="ws_2eac70">' +
 *   '<script type="application/json" id="config">{"sessionKey":"sk_91ab3c7d","pageSize":2}</script>';
 * const [meta, data, config, ...rest] = pageValues(html);
 * if (meta.name !== "csrf-token" || meta.value !== "c-4f9a2e71b8" || !meta.secret) throw new Error();
 * if (data.name !== "workspace" || data.secret || config.value !== "sk_91ab3c7d" || rest.length) {
 *   throw new Error(JSON.stringify([data, config, rest]));
 * }
 * const m = new RegExp(meta.pattern).exec('<meta name="csrf-token" content="new-77aa12">');
 * if (m?.[1] !== "new-77aa12") throw new Error(meta.pattern);
 * ```
 */
export function pageValues(html: string, origin?: string): PageValue[] {
  const found: PageValue[] = [];
  tagValues(html, found);
  dataValues(html, found);
  scriptValues(html, found);
  linkValues(html, found, origin);
  controlNames(html, found);
  const seen = new Set<string>();
  return found.flatMap((v) => {
    if (seen.has(v.value)) return [];
    seen.add(v.value);
    // A capture takes the first match: the pattern must find this value in the recorded page.
    const pattern = patternAt(html, v.pattern, v.encoded ?? v.raw ?? v.value);
    return pattern === undefined ? [] : [{ ...v, pattern }];
  });
}

/** Whether `a` was sent before `b`: by start time when both have one, else by file order. */
const before = (a: HarRecord, b: HarRecord) =>
  a.started !== undefined && b.started !== undefined && a.started !== b.started
    ? a.started < b.started
    : a.index < b.index;

/**
 * The documents dropped as "HTML document" on the kept hosts that are part
 * of the API: form submissions (non-GET documents), and documents whose
 * cookies or page values a later kept request sends (found again as more
 * documents are kept, so a login form page counts through the `POST` that
 * sends its token).
 *
 * @example
 * ```ts
 * import { statePages } from "./pages.ts";
 * import { parseHar } from "./har_model.ts";
 * const har = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "GET", url: "https://app.test/login" },
 *     response: { status: 200, headers: [{ name: "set-cookie", value: "sid=s-1234567; Path=/" }],
 *       content: { mimeType: "text/html", text: '<input name="authenticity_token" value="t-12345678">' } } },
 *   { request: { method: "POST", url: "https://app.test/login", headers: [{ name: "cookie", value: "sid=s-1234567" }],
 *       postData: { mimeType: "application/x-www-form-urlencoded", text: "authenticity_token=t-12345678" } },
 *     response: { status: 303, headers: [{ name: "set-cookie", value: "sid=s-7654321; Path=/" }],
 *       content: { mimeType: "text/html", text: "" } } },
 *   { request: { method: "GET", url: "https://app.test/api/notes", headers: [{ name: "cookie", value: "sid=s-7654321" }] },
 *     response: { status: 200, content: { mimeType: "application/json", text: "[]" } } },
 * ] } }), []);
 * const [form, login, api] = har.records;
 * const dropped = new Map([[form, "HTML document"], [login, "HTML document"]]);
 * const kept = statePages([api], dropped);
 * if (kept.length !== 2 || !kept.includes(form) || !kept.includes(login)) throw new Error();
 * ```
 */
export function statePages(kept: HarRecord[], dropped: Map<HarRecord, string>): HarRecord[] {
  const hosts = new Set(kept.map((r) => r.url.host));
  const documents = [...dropped].filter(([r, reason]) =>
    reason === REASON.html && hosts.has(r.url.host)
  ).map(([r]) => r);
  if (documents.length === 0) return [];
  loadBodies(documents, []);
  const chosen = new Set(documents.filter((r) => r.method !== "GET" && r.method !== "HEAD"));
  for (const r of linkActions(documents, kept)) chosen.add(r);
  const sent = new Map<HarRecord, Set<string>>();
  const sends = (r: HarRecord, value: string) => {
    if (!sent.has(r)) sent.set(r, sentValues(r));
    return sent.get(r)!.has(value);
  };
  const held = new Map(documents.map((page) => [
    page,
    new Set([
      ...page.setCookies.filter((c) => c.value.length >= 4).map((c) => c.value),
      ...(page.responseText === undefined ? [] : pageValues(page.responseText, page.url.origin))
        .map((v) => v.value),
      ...locationValues(page),
      // An id a server made in a link's path, which a later request sends (linked_path_ids.ts).
      ...(page.responseText === undefined ? [] : linkedPathIds(page.responseText)),
    ]),
  ]));
  const rows = rowPairs(documents, kept, before);
  // Each round keeps at least one more document, so it ends within documents.length rounds.
  for (let round = 0; round <= documents.length; round++) {
    const senders = [...kept, ...chosen];
    const more = documents.filter((page) => {
      if (chosen.has(page)) return false;
      const pairs = rows.get(page)!;
      return senders.some((r) =>
        before(page, r) && ([...held.get(page)!].some((v) => sends(r, v)) ||
          sendsRow(r, pairs))
      );
    });
    if (more.length === 0) break;
    for (const page of more) chosen.add(page);
  }
  return documents.filter((r) => chosen.has(r));
}

/**
 * The query values a redirect's `Location` hands out that the server made up (Roundcube's compose
 * answers 302 `?_task=mail&_action=compose&_id=13765…`): the page it leads to and the forms after
 * it send them back, so the redirect is where the fresh value comes from.
 */
function locationValues(page: HarRecord): string[] {
  if (page.status === undefined || page.status < 300 || page.status >= 400) return [];
  const location = responseHeaders(page).find((h) => h.name.toLowerCase() === "location")?.value;
  if (!location || !URL.canParse(location, page.url)) return [];
  return [...new URL(location, page.url).searchParams]
    .filter(([name, value]) => embedded(name, value, 8)).map(([, value]) => value);
}

/**
 * The GET documents that send back, in their query, a token an earlier page
 * linked (a trash or log-out link's `_wpnonce`): actions the user clicked,
 * however they answer, so they are steps like a form's submission.
 */
function linkActions(documents: HarRecord[], kept: HarRecord[]): HarRecord[] {
  const pages = [...documents, ...kept].filter((r) =>
    r.responseText !== undefined && /html/.test(r.mimeType)
  );
  const tokens = new Map(pages.map((p) => [
    p,
    new Set(
      pageValues(p.responseText!, p.url.origin).filter((v) => v.secret).map((v) => v.value),
    ),
  ]));
  return documents.filter((r) =>
    r.method === "GET" &&
    [...r.url.searchParams.values()].some((v) =>
      pages.some((p) => p !== r && before(p, r) && tokens.get(p)!.has(v))
    )
  );
}
