/**
 * A list page that names a new row only by a small number in a link beside
 * the name the user typed: ZoneMinder answers a monitor's create with a
 * redirect to its console, whose `<a href="?view=watch&mid=1">Lobby
 * Camera</a>` is the only place the new monitor's `1` shows, and the journey
 * then opens `?view=monitor&mid=1`. A number that small is no evidence on its
 * own; here it is the label (text a request before the page sent, on one link
 * of the page only) and the pair (`mid=1`) a later request sends again under
 * the same name, which no request before the page sent (an edit of a row that
 * was there). Such a page is kept as a step (pages.ts), so the id rules
 * (correlate/query_rows.ts) capture the row from it by its label.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { sentValues } from "./sent_values.ts";

const ROW = /^\d{1,15}$/;
/** A query name of a row's id: `id`, `mid`, `uid`, `groupid`, `host_id`, `userId`. */
const ID_NAME = /^(?:id|[A-Za-z][A-Za-z0-9]*?(?:[_-]?id|Id|ID))$/;

/** The `name=value` pairs a request sends in its query or urlencoded body. */
function sentPairs(r: HarRecord): Set<string> {
  const body = /^[^=&\s]+=[^&]*(?:&[^=&\s]+=[^&]*)*$/.test(r.bodyText ?? "") ? r.bodyText : "";
  return new Set(
    [...r.url.searchParams, ...new URLSearchParams(body)].map(([k, v]) => `${k}=${v}`),
  );
}

/**
 * The small row ids `page` links under an id's name, each with its link's label (text with a
 * letter, on one link of the page only), as `name=value` pairs.
 */
function rowLinks(page: HarRecord): { label: string; pair: string }[] {
  if (page.responseText === undefined || !/html/.test(page.mimeType)) return [];
  const links = [
    ...page.responseText.matchAll(/<a\b[^>]*\bhref=["']([^"']*)["'][^>]*>([^<]*)<\/a>/gi),
  ]
    .map((a) => ({ href: a[1].replace(/&amp;/g, "&"), label: a[2].trim() }))
    .filter((a) => /\p{L}/u.test(a.label) && URL.canParse(a.href, page.url));
  const count = new Map<string, number>();
  for (const { label } of links) count.set(label, (count.get(label) ?? 0) + 1);
  return links.filter(({ label }) => count.get(label) === 1)
    .flatMap(({ href, label }) => {
      const to = new URL(href, page.url);
      if (to.origin !== page.url.origin) return [];
      return [...to.searchParams].filter(([name, value]) => ROW.test(value) && ID_NAME.test(name))
        .map(([name, value]) => ({ label, pair: `${name}=${value}` }));
    });
}

/**
 * Each document's labelled small row ids (see the module), given what the records `before` it
 * (of `documents` and `kept`) sent: its label, and no pair of its own.
 *
 * @example
 * ```ts
 * import { rowPairs } from "./labelled_rows.ts";
 * const form = { url: new URL("http://cam.test/index.php?view=monitor"), bodyText: "name=Lobby+Camera",
 *   mimeType: "text/html", index: 0, cookies: [], headers: [] };
 * const list = { url: new URL("http://cam.test/index.php?view=console"), mimeType: "text/html", index: 1,
 *   responseText: '<a href="?view=watch&amp;mid=1">Lobby Camera</a><a href="?page=2">Next</a>' };
 * const before = (a: { index: number }, b: { index: number }) => a.index < b.index;
 * // deno-lint-ignore no-explicit-any
 * const rows = rowPairs([list] as any, [form] as any, before);
 * if ([...rows.get(list as never)!].join() !== "mid=1") throw new Error();
 * ```
 */
export function rowPairs(
  documents: HarRecord[],
  kept: HarRecord[],
  before: (a: HarRecord, b: HarRecord) => boolean,
): Map<HarRecord, Set<string>> {
  const all = [...documents, ...kept];
  // Each record's values are read once, however many pages ask (a long recording's).
  const memo = new Map<HarRecord, [Set<string>, Set<string>]>();
  const sentOf = (r: HarRecord) => {
    if (!memo.has(r)) memo.set(r, [sentValues(r), sentPairs(r)]);
    return memo.get(r)!;
  };
  return new Map(documents.map((page) => {
    const links = rowLinks(page);
    if (links.length === 0) return [page, new Set<string>()];
    const earlier = all.filter((r) => before(r, page)).map(sentOf);
    const pairs = links.filter(({ label, pair }) =>
      earlier.some(([values]) => values.has(label)) && !earlier.some(([, p]) => p.has(pair))
    ).map(({ pair }) => pair);
    return [page, new Set(pairs)];
  }));
}

/**
 * Whether `r` sends one of `pairs` (`name=value`) in its query or urlencoded body.
 *
 * @example
 * ```ts
 * import { sendsRow } from "./labelled_rows.ts";
 * const open = { url: new URL("http://cam.test/index.php?view=monitor&mid=1") };
 * // deno-lint-ignore no-explicit-any
 * if (!sendsRow(open as any, new Set(["mid=1"])) || sendsRow(open as any, new Set(["uid=1"]))) {
 *   throw new Error();
 * }
 * ```
 */
export function sendsRow(r: HarRecord, pairs: ReadonlySet<string>): boolean {
  return pairs.size > 0 && [...sentPairs(r)].some((p) => pairs.has(p));
}
