/**
 * A server-rendered app: every request of its own that a recording holds is a
 * page (a PHP wiki, a Rails or Django admin without a JSON API). Its login,
 * its saves and its deletes are form submissions that answer a redirect, its
 * scripts post forms to an endpoint that answers HTML, and the pages between
 * them are what the user opened (a page's history, a difference). Dropped as
 * "HTML document" like any page of an app with an API, nothing is left and
 * the conversion fails with "no API requests"; so when nothing else is kept
 * and the page's own site submitted a form, or followed a link that acts (a
 * query answered with a redirect: Supervisor's `index.html?action=stop&…`,
 * answered `301`), its pages are the journey.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { REASON } from "./noise.ts";
import { actingGet } from "./acting_get.ts";

/**
 * The pages to keep when a recording holds nothing but pages (`kept` is
 * empty, or holds only calls answered with script): every document dropped as "HTML document" on `ownHosts`, in file
 * order, once one of them is a submission (sent with another method than
 * GET or HEAD); else none, and a recording of pages only is still one with
 * no API requests.
 *
 * @example
 * ```ts
 * import { renderedAppPages } from "./rendered_app.ts";
 * import { parseHar } from "./har_model.ts";
 * const page = (method: string, path: string) => ({
 *   request: { method, url: `http://wiki.test${path}` },
 *   response: { status: method === "POST" ? 302 : 200, content: { mimeType: "text/html", text: "<p>" } },
 *   _resourceType: "document",
 * });
 * const har = parseHar(JSON.stringify({ log: { entries: [page("GET", "/login"), page("POST", "/login")] } }), []);
 * const dropped = new Map(har.records.map((r) => [r, "HTML document"]));
 * const pages = renderedAppPages([], dropped, new Set(["wiki.test"]));
 * if (pages.length !== 2) throw new Error(String(pages.length));
 * const viewed = new Map([[har.records[0], "HTML document"]]);
 * if (renderedAppPages([], viewed, new Set(["wiki.test"])).length !== 0) throw new Error();
 * ```
 */
export function renderedAppPages(
  kept: readonly HarRecord[],
  dropped: ReadonlyMap<HarRecord, string>,
  ownHosts: ReadonlySet<string>,
): HarRecord[] {
  // A form's XHR answered with script (Rails' `edit.js`) is part of the page, not an API.
  if (kept.some((r) => !answersScript(r))) return [];
  const pages = [...dropped].filter(([r, reason]) =>
    reason === REASON.html && ownHosts.has(r.url.host)
  ).map(([r]) => r);
  // A link that acts (a query answered with a redirect: Supervisor's `?action=stop`) is one too.
  const submits = pages.some((r) => submitted(r) || actingGet(r));
  return submits ? pages.sort((a, b) => a.index - b.index) : [];
}

/** Whether `r` was sent with another method than GET or HEAD: a form's submission. */
function submitted(r: HarRecord): boolean {
  return r.method !== "GET" && r.method !== "HEAD";
}

/** Whether `r` was answered with a script: what a server-rendered page's own XHR gets back. */
function answersScript(r: HarRecord): boolean {
  return /^(text|application)\/(x-)?(javascript|ecmascript)$/.test(r.mimeType);
}

/**
 * The summary's note on the pages kept by {@linkcode renderedAppPages}: what
 * made them the journey, forms submitted or, when none was, links that act.
 *
 * @example
 * ```ts
 * import { renderedNote } from "./rendered_app.ts";
 * const link = { method: "GET", url: new URL("http://a.test/index.html?action=stop"), status: 301 };
 * // deno-lint-ignore no-explicit-any
 * const note = renderedNote([link, { ...link, status: 200 }] as any);
 * if (!note.startsWith("Kept 2 HTML documents") || !note.includes("links that act")) throw new Error(note);
 * ```
 */
export function renderedNote(pages: readonly HarRecord[]): string {
  const how = pages.some(submitted) ? "submitted forms" : "followed links that act";
  return `Kept ${pages.length} HTML documents of the app's own site as its steps: the recording holds no API call, and the app ${how}, so its pages are the journey (a server-rendered app).`;
}
