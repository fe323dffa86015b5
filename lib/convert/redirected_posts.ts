/**
 * A form post a service worker answered, as Playwright records it. LDAP
 * Account Manager's page registers a worker that answers each navigation with
 * its own `fetch`, which follows redirects: Playwright's `recordHar` wrote
 * each redirected post (sign-in, save, delete) as `200` holding the body of
 * the page the chain ended at, with no `Location` and no `Set-Cookie`, and the
 * worker's fetches of the hops (`GET /templates/main.php` 302, then the list
 * page, its body not kept) as entries of their own, marked
 * `_serviceWorkerRef`. The evidence that the post redirected is the worker's:
 * it fetched a page while the post was still in flight, which only a redirect
 * makes it do.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";

/** The raw response of a record, as an object to repair. */
function response(r: HarRecord): Record<string, unknown> {
  const raw = r.raw.response;
  if (typeof raw === "object" && raw !== null) return raw as Record<string, unknown>;
  const made: Record<string, unknown> = {};
  r.raw.response = made;
  return made;
}

/** The raw response's headers. */
function responseHeaders(r: HarRecord): { name: string; value: string }[] {
  const headers = response(r).headers;
  return Array.isArray(headers) ? headers : [];
}

/** Whether the recorded answer of `r` holds no body text. */
function emptyBody(r: HarRecord): boolean {
  const content = response(r).content as { text?: unknown } | undefined;
  return typeof content?.text !== "string" || content.text === "";
}

/** How long `r` took, in ms, when recorded. */
function took(r: HarRecord): number | undefined {
  return typeof r.raw.time === "number" && r.raw.time > 0 ? r.raw.time : undefined;
}

/** Whether `r` is a document the browser navigated to. */
const isDocument = (r: HarRecord) => r.resourceType === "document";

/** Whether the page's service worker fetched `r` (Playwright's `_serviceWorkerRef`). */
const byWorker = (r: HarRecord) => r.raw._serviceWorkerRef !== undefined;

/**
 * The page (a redirect hop, or where the redirect led) the page's service worker fetched while
 * `post` was in flight: the worker fetched no other page then (an icon, perhaps), since a post's
 * own answer is the page, and its assets come after it.
 */
function hopDuring(records: HarRecord[], post: HarRecord): HarRecord | undefined {
  const time = took(post);
  if (post.started === undefined || time === undefined) return undefined;
  const during = (r: HarRecord) =>
    r.started !== undefined && r.started >= post.started! && r.started < post.started! + time;
  const page = (r: HarRecord) =>
    (r.status! >= 300 && r.status! < 400) || (r.status! > 0 && r.mimeType === "text/html");
  return records.find((r) =>
    r.index > post.index && byWorker(r) && r.method === "GET" && r.status !== undefined &&
    page(r) && during(r)
  );
}

/** The page a chain of redirects starting at `hop` ended at: its first answer that is not one. */
function chainEnd(records: HarRecord[], hop: HarRecord): HarRecord | undefined {
  let at = hop;
  for (let hops = 0; hops < 20; hops++) {
    if (at.status! < 300 || at.status! >= 400) return at;
    const to = responseHeaders(at).find((h) => h.name.toLowerCase() === "location")?.value;
    if (typeof to !== "string" || !URL.canParse(to, at.url)) return undefined;
    const href = new URL(to, at.url).href;
    const next = records.find((r) =>
      r.index > at.index && byWorker(r) && r.url.href === href && (r.status ?? 0) > 0
    );
    if (!next) return undefined;
    at = next;
  }
  return undefined;
}

/**
 * Gives each document post recorded as `200`, though the browser followed a
 * redirect from it ({@linkcode hopDuring}), a `302` to that hop that sets the
 * cookies the hop sent anew, and moves its body to the page the chain ended
 * at when that page's entry holds none.
 * Returns one note per repair.
 *
 * @example
 * ```ts
 * import { restoreRedirectedPosts } from "./redirected_posts.ts";
 * import { parseHar } from "./har_model.ts";
 * const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, s)).toISOString();
 * const referer = [{ name: "Referer", value: "https://app.test/login" }];
 * const doc = (method: string, path: string, status: number, ms: number, text: string, location?: string) => ({
 *   startedDateTime: at(ms), time: 200, _resourceType: method === "POST" ? "document" : "fetch",
 *   ...(method === "POST" ? {} : { _serviceWorkerRef: "sw@1" }),
 *   request: { method, url: `https://app.test${path}`, headers: referer },
 *   response: { status, headers: location ? [{ name: "Location", value: location }] : [],
 *     content: { mimeType: "text/html", text } },
 * });
 * const { records } = parseHar(JSON.stringify({ log: { entries: [
 *   doc("POST", "/login", 200, 0, "<p>home</p>"), doc("GET", "/main", 302, 50, "", "/home"),
 *   doc("GET", "/home", 200, 90, ""),
 * ] } }), []);
 * const notes = restoreRedirectedPosts(records);
 * if (records[0].status !== 302 || notes.length !== 1) throw new Error(JSON.stringify(notes));
 * ```
 */
export function restoreRedirectedPosts(records: HarRecord[]): string[] {
  const notes: string[] = [];
  for (const post of records) {
    if (!isDocument(post) || post.method === "GET" || post.status !== 200) continue;
    if (responseHeaders(post).some((h) => h.name.toLowerCase() === "location")) continue;
    const hop = hopDuring(records, post);
    const end = hop && chainEnd(records, hop);
    if (!hop || !end || !emptyBody(end)) continue;
    const answer = response(post);
    response(end).content = answer.content;
    answer.content = { size: 0, mimeType: post.mimeType, text: "" };
    answer.status = 302;
    // No `Location` header: how the server wrote it (relative or not) is unknown; the browser went to the hop.
    answer.redirectURL = hop.url.href;
    post.status = 302;
    // The worker's answer kept no `Set-Cookie`: what the hop sent anew, only the redirect set.
    const sent = new Map(post.cookies.map((c) => [c.name, c.value]));
    post.setCookies.push(
      ...hop.cookies.filter((c) =>
        sent.get(c.name) !== c.value && !post.setCookies.some((s) => s.name === c.name)
      ).map((c) => ({ name: c.name, value: c.value })),
    );
    notes.push(
      `A service worker answered ${post.method} ${post.url.pathname} with ${end.method} ${end.url.pathname}, where the redirects from it ended (it fetched ${hop.url.pathname} while the post was in flight): the post is a redirect that sets the cookies ${hop.url.pathname} sent anew, and that page's body is read from ${end.method} ${end.url.pathname}.`,
    );
  }
  return notes;
}
