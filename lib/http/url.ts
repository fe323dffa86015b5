/**
 * URLs that are what the flow means: a value interpolated into a URL is
 * percent-encoded for the place it lands (a path segment, a query key or
 * value, the fragment), so `&`, `#`, `/`, `?` or a space in a value can no
 * longer change the request; a value before the path (a base URL, a host, a
 * port) and `${raw:…}` are inserted as written. A `query` map is appended
 * with every key and value encoded, lists as repeated keys.
 *
 * @module
 */
import { type Scope, type Template, toText, valueOf } from "../expr/template.ts";
import { around, told } from "../model/told.ts";
import { RequestError } from "./request_error.ts";

/**
 * Where in a URL the text so far ends: what a value interpolated there is encoded for.
 *
 * @example
 * ```ts
 * import { encodeFor, type Zone } from "./url.ts";
 * const zone: Zone = "query";
 * if (encodeFor(zone, "a&b") !== "a%26b") throw new Error(encodeFor(zone, "a&b"));
 * ```
 */
export type Zone = "origin" | "path" | "query" | "fragment";

/** The zone after `text`: still the scheme and authority, the path, the query or the fragment. */
function zoneAfter(text: string): Zone {
  if (text.includes("#")) return "fragment";
  if (text.includes("?")) return "query";
  // Nothing yet, a scheme, or a scheme and an authority with no path: a base URL, host or port.
  if (/^(?:[a-z][a-z0-9+.-]*:(?:\/\/?[^/?#]*)?)?$/i.test(text)) return "origin";
  return "path";
}

/**
 * Percent-encodes a value for a path segment, query key or value, or
 * fragment: everything but the characters RFC 3986 leaves unreserved, plus
 * those that cannot change how the URL is read where it lands.
 *
 * @example
 * ```ts
 * import { encodeFor } from "./url.ts";
 * if (encodeFor("query", "a b&c=d/é#x") !== "a%20b%26c%3Dd%2F%C3%A9%23x") throw new Error();
 * if (encodeFor("path", "a/b c") !== "a%2Fb%20c") throw new Error();
 * if (encodeFor("origin", "http://h:1") !== "http://h:1") throw new Error();
 * ```
 */
export function encodeFor(zone: Zone, text: string): string {
  return zone === "origin" ? text : encodeURIComponent(text);
}

/**
 * Renders a URL template and appends a query map.
 *
 * @example
 * ```ts
 * import { renderUrl } from "./url.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const scope = {
 *   env: (n: string) => (n === "BASE" ? "http://api.test/v1" : undefined),
 *   vars: new Map<string, unknown>([["term", "a b&c=d/é#x"], ["qs", "x=1&y=2"]]),
 *   steps: new Map(),
 *   runId: "r",
 * };
 * const url = renderUrl(parseTemplate("${ENV.BASE}/search/${vars.term}?q=${vars.term}&${raw:vars.qs}"), scope);
 * if (url !== "http://api.test/v1/search/a%20b%26c%3Dd%2F%C3%A9%23x?q=a%20b%26c%3Dd%2F%C3%A9%23x&x=1&y=2") throw new Error(url);
 * const withQuery = renderUrl(parseTemplate("http://api.test/items?sort=name"), scope, [["tag", ["a", "b c"]], ["flag", null]]);
 * if (withQuery !== "http://api.test/items?sort=name&tag=a&tag=b%20c&flag") throw new Error(withQuery);
 * ```
 */
export function renderUrl(
  template: Template,
  scope: Scope,
  query: readonly [name: string, value: unknown][] = [],
): string {
  let url = "";
  // Where encoded values landed in the path: a value that makes a whole segment `.` or `..`
  // would be resolved away by the URL parser (`%2E%2E` too), changing where the request goes.
  const inPath: [start: number, end: number, source: string][] = [];
  for (const part of template.parts) {
    if (typeof part === "string") url += part;
    else {
      const text = toText(valueOf(part, scope));
      const zone = zoneAfter(url);
      if (part.raw) url += text;
      else {
        const encoded = encodeFor(zone, text);
        if (zone === "path") inPath.push([url.length, url.length + encoded.length, part.text]);
        url += encoded;
      }
    }
  }
  if (inPath.length > 0) refuseDotSegments(url, inPath);
  const pairs: string[] = [];
  for (const [name, value] of query) {
    for (const v of Array.isArray(value) ? value : [value]) {
      const key = encodeURIComponent(name);
      pairs.push(v === null || v === undefined ? key : `${key}=${encodeURIComponent(toText(v))}`);
    }
  }
  if (pairs.length === 0) return url;
  const [base, fragment] = splitFragment(url);
  const joiner = !base.includes("?") ? "?" : /[?&]$/.test(base) ? "" : "&";
  return `${base}${joiner}${pairs.join("&")}${fragment}`;
}

/** A path segment the URL parser resolves: `.` or `..`, its dots written or percent-encoded. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Refuses a URL where an interpolated value made a path segment `.` or `..`. */
function refuseDotSegments(url: string, inPath: [number, number, string][]): void {
  const pathEnd = url.search(/[?#]/);
  const end = pathEnd === -1 ? url.length : pathEnd;
  let start = url.indexOf("/", url.indexOf("//") + 2);
  while (start !== -1 && start < end) {
    const next = url.indexOf("/", start + 1);
    const stop = next === -1 || next > end ? end : next;
    const segment = url.slice(start + 1, stop);
    const by = DOT_SEGMENT.test(segment)
      ? inPath.find(([from, to]) => from <= stop && to >= start + 1)
      : undefined;
    if (by !== undefined) {
      throw new RequestError(
        "bad-url",
        around(
          `The value of ${by[2]} makes the path segment `,
          told`"${segment}" in "${url}"`,
          ", which the URL parser would resolve, sending the request elsewhere: a value " +
            "interpolated into a URL cannot change where it goes. Check the value, or write " +
            "\${raw:…} to insert a path as written.",
        ),
      );
    }
    start = next === -1 || next >= end ? -1 : next;
  }
}

function splitFragment(url: string): [string, string] {
  const at = url.indexOf("#");
  return at === -1 ? [url, ""] : [url.slice(0, at), url.slice(at)];
}
