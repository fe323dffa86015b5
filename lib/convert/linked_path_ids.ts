/**
 * Ids a server made, written as a path segment of a page's links: a job queue's dashboard lists
 * each job as `<a href="/queues/mail/jobs/<uuid>">`, and opening one fetches that path (or its
 * data at the path plus `.data`). Only a UUID or text only a server makes up counts (a route is
 * words): the page that linked it is where a later request's id comes from (pages.ts keeps it).
 *
 * @module
 */
import { isMadeUpText } from "./made_up_text.ts";
import { isUuid } from "./values.ts";
import { safeDecode } from "./json.ts";

/** The path of each same-site link (`href`) of a page, relative or on the page's origin. */
const HREF_PATH = /\bhref\s*=\s*["'](?:https?:\/\/[^/"']+)?(\/[^"'?#\s]*)/gi;

/** How many links are read: a longer list is searched, not scanned. */
const LINKS = 5000;

/**
 * The path segments of `html`'s links that are ids a server made (see the module).
 *
 * @example
 * ```ts
 * import { linkedPathIds } from "./linked_path_ids.ts";
 * const html = '<a href="/queues">Q</a><a href="/queues/mail/jobs/2b3065e7-a2e2-40f5-9552-0384c63c9954">j</a>';
 * const ids = linkedPathIds(html);
 * if (ids.length !== 1 || ids[0] !== "2b3065e7-a2e2-40f5-9552-0384c63c9954") throw new Error(ids.join());
 * ```
 */
export function linkedPathIds(html: string): string[] {
  const ids = new Set<string>();
  let n = 0;
  for (const m of html.matchAll(HREF_PATH)) {
    if (++n > LINKS) break;
    for (const s of m[1].split("/")) {
      const value = safeDecode(s);
      if (isUuid(value) || isMadeUpText(value)) ids.add(value);
    }
  }
  return [...ids];
}
