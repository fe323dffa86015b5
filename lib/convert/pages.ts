/**
 * Pages that hold session state: a server-rendered page can set the session
 * cookie and carry the CSRF token a script later sends (`<meta
 * name="csrf-token" content="…">`, `<input type="hidden"
 * name="authenticity_token" value="…">`). Such a page is dropped as an HTML
 * document like any other unless a kept request sends one of its values;
 * then it is kept, so the flow can capture what a fresh session hands out.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { loadBodies } from "./har_model.ts";

/** A value a page carries, with the regular expression that finds it again in a new copy. */
export interface PageValue {
  /** The `name` of the meta tag or input. */
  name: string;
  value: string;
  /** A JavaScript pattern whose first group is the value. */
  pattern: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * The token-like values of a page's `<meta name content>` tags and named
 * `<input value>` fields, each with a pattern that finds it in a new copy of
 * the page.
 *
 * @example
 * ```ts
 * import { pageValues } from "./pages.ts";
 * const [v] = pageValues('<head><meta name="csrf-token" content="c-4f9a2e71b8"></head>');
 * if (v.name !== "csrf-token" || v.value !== "c-4f9a2e71b8") throw new Error(JSON.stringify(v));
 * const m = new RegExp(v.pattern).exec('<meta name="csrf-token" content="new-77aa12">');
 * if (m?.[1] !== "new-77aa12") throw new Error(v.pattern);
 * ```
 */
export function pageValues(html: string): PageValue[] {
  const out: PageValue[] = [];
  for (const tag of html.matchAll(/<(meta|input)\b[^>]{0,2000}>/gi)) {
    const kind = tag[1].toLowerCase();
    const valueAttr = kind === "meta" ? "content" : "value";
    const attrs = [...tag[0].matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)]
      .map((a) => ({ name: a[1].toLowerCase(), value: a[2] ?? a[3], at: a.index! }));
    const named = attrs.find((a) => a.name === "name");
    const held = attrs.find((a) => a.name === valueAttr);
    if (!named || !held || held.value.length < 8 || /\s/.test(held.value)) continue;
    // The quotes the page used: a pattern reads best when it says exactly what it expects.
    const q = (attr: { at: number; name: string }) => tag[0][tag[0].indexOf("=", attr.at) + 1];
    const nq = /["']/.test(q(named)) ? q(named) : '"';
    const vq = /["']/.test(q(held)) ? q(held) : '"';
    const name = `${escape(named.name)}=${nq}${escape(named.value)}${nq}`;
    const value = `${valueAttr}=${vq}([^${vq}]*)${vq}`;
    const pattern = named.at < held.at
      ? `<${kind}[^>]*\\b${name}[^>]*\\b${value}`
      : `<${kind}[^>]*\\b${value}[^>]*\\b${name}`;
    out.push({ name: named.value, value: held.value, pattern });
  }
  return out;
}

/**
 * The dropped HTML pages on the kept hosts whose cookies or page values a kept
 * request sends: they are where the session's state comes from.
 *
 * @example
 * ```ts
 * import { statePages } from "./pages.ts";
 * import { parseHar } from "./har_model.ts";
 * const har = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "GET", url: "https://app.test/" },
 *     response: { status: 200, headers: [{ name: "set-cookie", value: "sid=s-1234567; Path=/" }],
 *       content: { mimeType: "text/html", text: '<meta name="csrf-token" content="t-12345678">' } } },
 *   { request: { method: "POST", url: "https://app.test/api/notes",
 *     headers: [{ name: "x-csrf-token", value: "t-12345678" }, { name: "cookie", value: "sid=s-1234567" }] } },
 * ] } }), []);
 * const [page, api] = har.records;
 * if (statePages([api], new Map([[page, "HTML document"]]))[0] !== page) throw new Error();
 * ```
 */
export function statePages(kept: HarRecord[], dropped: Map<HarRecord, string>): HarRecord[] {
  const hosts = new Set(kept.map((r) => r.url.host));
  const pages = [...dropped.keys()].filter((r) =>
    hosts.has(r.url.host) && r.method === "GET" && (r.mimeType === "text/html" ||
      r.resourceType === "document" || r.mimeType === "application/xhtml+xml")
  );
  if (pages.length === 0) return [];
  const sent = new Set<string>();
  for (const r of kept) {
    for (const c of r.cookies) sent.add(c.value);
    for (const h of r.headers) sent.add(h.value);
    for (const [, v] of r.url.searchParams) sent.add(v);
    if (r.bodyText && r.bodyText.length < 1_000_000) {
      for (const [, v] of new URLSearchParams(r.bodyText)) sent.add(v);
      for (const m of r.bodyText.matchAll(/"([^"\\]{8,200})"/g)) sent.add(m[1]);
    }
  }
  loadBodies(pages, []);
  return pages.filter((page) =>
    page.setCookies.some((c) => c.value.length >= 4 && sent.has(c.value)) ||
    (page.responseText !== undefined &&
      pageValues(page.responseText).some((v) => sent.has(v.value)))
  );
}
