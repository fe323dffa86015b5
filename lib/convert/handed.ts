/**
 * Values a response hands out whole, which a later request must send back
 * whole: the `ETag` an `If-Match` write is conditional on, and a URL (a
 * signed download link in a job result, a redirect's `Location`, the next
 * page of a `Link` header) that a later request fetches as it was given. Rebuilt from parts, such a value keeps its
 * recorded signature or version and fails on replay (403, 412); sent whole
 * from a capture, it is what the live server handed out.
 *
 * @module
 */
import type { HarRecord, NameValue } from "./har_model.ts";
import type { Source, Step } from "./model.ts";
import { walk } from "./json.ts";
import { parseLinks } from "../check/link_header.ts";

/** Where a whole value came from. */
export interface Handed {
  step: Step;
  source: Source;
}

/**
 * A URL handed out, and whether it was absolute (relative ones go after the
 * base URL); a path relative to the answering page's directory
 * (`Location: main.php`) goes after that directory's path, `prefix`.
 */
export interface HandedUrl extends Handed {
  absolute: boolean;
  prefix?: string;
  /** The path word the request adds after the handed URL (`/payload` of `…/secrets/48d2…/payload`). */
  suffix?: string;
}

/** One path word after a handed URL: an item's part (`/payload`, `/acl`, `/metadata`), no id. */
const PART_PATH = /^\/[A-Za-z][A-Za-z_-]*\/?$/;

/**
 * Whether a handed URL names an item, whose parts sit under it: its last segment an id (a number,
 * or eight characters or more with a digit: a UUID, `usr_1a2b3c4d`). A service's base URL
 * (`…/parse`, `…/v1`) is no item, and what is sent under it is the request's own path.
 */
function namesItem(href: string): boolean {
  const last = href.slice(href.lastIndexOf("/") + 1);
  return /^\d+$/.test(last) || (last.length >= 8 && /\d/.test(last));
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The response headers of a record as its producer wrote them.
 *
 * @example
 * ```ts
 * import { responseHeaders } from "./handed.ts";
 * const r = { raw: { response: { headers: [{ name: "ETag", value: 'W/"1"' }] } } };
 * // deno-lint-ignore no-explicit-any
 * if (responseHeaders(r as any)[0].value !== 'W/"1"') throw new Error();
 * ```
 */
export function responseHeaders(r: HarRecord): NameValue[] {
  const response = isObject(r.raw.response) ? r.raw.response : undefined;
  const list = Array.isArray(response?.headers) ? response.headers : [];
  return list.filter((h): h is NameValue =>
    isObject(h) && typeof h.name === "string" && typeof h.value === "string"
  );
}

/** The URL without its fragment, which is never sent. */
const sent = (url: URL) => url.href.replace(/#.*$/, "");

/**
 * Whether a response string is a URL a client could fetch as given: absolute
 * http(s), or a path from the root with more than a word (`/files/a.csv?sig=…`).
 */
function urlLike(value: string): boolean {
  if (value.length > 4096 || /\s/.test(value)) return false;
  return /^https?:\/\/[^/]/i.test(value) || /^\/[^/]/.test(value);
}

/**
 * What the session's responses handed out: ETags by value (the latest
 * response that gave each), and URLs by the absolute URL they name.
 */
export class HandedOut {
  readonly etags = new Map<string, Handed>();
  readonly urls = new Map<string, HandedUrl>();

  /**
   * Notes what the response of `step` hands out: its `ETag` and `Location`
   * headers and the URL-like strings of its JSON body. A later response that
   * hands out the same value takes its place: the read just before a write
   * is the one whose version the write is conditional on.
   *
   * @example
   * ```ts
   * import { HandedOut } from "./handed.ts";
   * const r = {
   *   url: new URL("https://a.test/jobs/1"), hasJson: true, json: { result: "/dl/x.csv?sig=ab12" },
   *   raw: { response: { headers: [{ name: "etag", value: '"v2"' }] } },
   * };
   * const handed = new HandedOut();
   * // deno-lint-ignore no-explicit-any
   * handed.note({ last: r } as any);
   * if (handed.etags.get('"v2"')?.source.kind !== "header") throw new Error();
   * if (!handed.urls.has("https://a.test/dl/x.csv?sig=ab12")) throw new Error();
   * // A Link header's relations, relative ones resolved: the runner captures them absolute.
   * const page = { url: new URL("https://a.test/items"), hasJson: false,
   *   raw: { response: { headers: [{ name: "Link", value: '</items?cursor=c2.mac>; rel="next"' }] } } };
   * // deno-lint-ignore no-explicit-any
   * handed.note({ last: page } as any);
   * const next = handed.urls.get("https://a.test/items?cursor=c2.mac");
   * if (next?.absolute !== true || next.source.kind !== "header" || next.source.rel !== "next") throw new Error();
   * // A redirect to a path relative to the page: sent after the page's directory.
   * const login = { url: new URL("https://a.test/admin/login.php"), status: 302, hasJson: false,
   *   raw: { response: { headers: [{ name: "Location", value: "main.php" }] } } };
   * // deno-lint-ignore no-explicit-any
   * handed.note({ last: login } as any);
   * if (handed.urls.get("https://a.test/admin/main.php")?.prefix !== "/admin/") throw new Error();
   * ```
   */
  note(step: Step): void {
    const r = step.last;
    for (const { name, value } of responseHeaders(r)) {
      const lower = name.toLowerCase();
      if (lower === "etag" && value.trim() !== "") {
        this.etags.set(value.trim(), { step, source: { kind: "header", name: "etag" } });
      }
      // chrome-har can attach a redirect's Location to the page it led to (a 200): a
      // Location hands out a URL only on a redirect or a 201.
      const redirects = r.status === 201 ||
        (r.status !== undefined && r.status >= 300 && r.status < 400);
      // A 201's Location naming the request's own URL (a PUT at the path the client chose) hands
      // out nothing the client did not know: the URL is sent as written. A redirect to itself is
      // what the browser followed, and stays.
      const own = r.status === 201 && ownUrl(value, r);
      if (lower === "location" && value.trim() !== "" && redirects && !own) {
        this.#url(value, r, { step, source: { kind: "header", name: "location" } });
      }
      if (lower === "link") this.#links(value, step);
    }
    if (!r.hasJson) return;
    walk(r.json, (path, _key, leaf) => {
      if (typeof leaf === "string" && urlLike(leaf)) {
        this.#url(leaf, r, { step, source: { kind: "json", path } });
      }
    });
  }

  /**
   * Each relation of a `Link` header (`rel="next"` of a paginated list): the
   * next page's cursor is signed by the server that handed it out, so the
   * page is fetched by the captured relation, which the runner resolves
   * against the response's URL (absolute, however the server wrote it).
   */
  #links(value: string, step: Step): void {
    for (const link of parseLinks(value)) {
      for (const rel of (link.params.rel ?? "").toLowerCase().split(/[ \t]+/)) {
        if (!/^[a-z][a-z0-9.-]*$/.test(rel)) continue;
        const source: Source = { kind: "header", name: "link", rel };
        this.#url(link.target, step.last, { step, source }, true);
      }
    }
  }

  #url(value: string, r: HarRecord, from: Handed, resolved = false): void {
    if (!URL.canParse(value, r.url)) return;
    const url = new URL(value, r.url);
    if (!/^https?:$/.test(url.protocol)) return;
    const absolute = resolved || /^[a-z][a-z0-9+.-]*:/i.test(value);
    if (absolute || value.startsWith("/")) {
      this.urls.set(sent(url), { ...from, absolute });
      return;
    }
    // A reference from the page's directory (`main.php`, `edit.php?table=domain`, PHP apps'
    // redirects) goes after that directory; one that climbs (`../`) or keeps the page (`?q`)
    // is left to the request's own URL.
    const path = value.split(/[?#]/)[0];
    if (path !== "" && !path.split("/").some((seg) => seg === "." || seg === "..")) {
      const prefix = r.url.pathname.slice(0, r.url.pathname.lastIndexOf("/") + 1);
      this.urls.set(sent(url), { ...from, absolute, prefix });
    }
  }

  /**
   * The response that handed out the URL this request fetches, when one did.
   *
   * @example
   * ```ts
   * import { HandedOut } from "./handed.ts";
   * const handed = new HandedOut();
   * // deno-lint-ignore no-explicit-any
   * handed.urls.set("https://a.test/dl?sig=1", { absolute: false } as any);
   * // deno-lint-ignore no-explicit-any
   * if (handed.urlOf({ url: new URL("https://a.test/dl?sig=1#top") } as any)?.absolute !== false) {
   *   throw new Error();
   * }
   * // An item's absolute URL a JSON answer gave, then a word: that URL and the word.
   * // deno-lint-ignore no-explicit-any
   * handed.urls.set("https://a.test/s/9f2c4e1a", { absolute: true, source: { kind: "json", path: ["ref"] } } as any);
   * // deno-lint-ignore no-explicit-any
   * if (handed.urlOf({ url: new URL("https://a.test/s/9f2c4e1a/payload") } as any)?.suffix !== "/payload") throw new Error();
   * ```
   */
  urlOf(r: HarRecord): HandedUrl | undefined {
    const whole = this.urls.get(sent(r.url));
    if (whole || r.url.search !== "") return whole;
    // An item's absolute URL a JSON answer handed out, then a word: `<secret_ref>/payload`.
    const href = sent(r.url);
    for (let cut = href.lastIndexOf("/"); cut > 0; cut = href.lastIndexOf("/", cut - 1)) {
      const handed = this.urls.get(href.slice(0, cut));
      if (handed) {
        const part = handed.absolute && handed.source.kind === "json" &&
          namesItem(href.slice(0, cut)) && PART_PATH.test(href.slice(cut));
        return part ? { ...handed, suffix: href.slice(cut) } : undefined;
      }
    }
    return undefined;
  }

  /**
   * The response whose `ETag` this request's `If-Match` names (the whole
   * value, weak or strong), when one did.
   *
   * @example
   * ```ts
   * import { HandedOut } from "./handed.ts";
   * const handed = new HandedOut();
   * // deno-lint-ignore no-explicit-any
   * handed.etags.set('W/"7"', { step: { name: "get_item" } } as any);
   * // deno-lint-ignore no-explicit-any
   * const r = { headers: [{ name: "If-Match", value: ' W/"7"' }] } as any;
   * if (handed.ifMatch(r)?.producer?.step.name !== "get_item") throw new Error();
   * ```
   */
  ifMatch(r: HarRecord): { value: string; producer?: Handed } | undefined {
    const header = r.headers.find((h) => h.name.toLowerCase() === "if-match");
    if (!header || header.value.trim() === "") return undefined;
    const value = header.value.trim();
    return { value, producer: this.etags.get(value) };
  }
}

/** Whether a Location names the URL its own request was sent to. */
function ownUrl(value: string, r: HarRecord): boolean {
  return URL.canParse(value, r.url) && sent(new URL(value, r.url)) === sent(r.url);
}
