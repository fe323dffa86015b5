/**
 * `--verify`'s evidence from the recording: the values each recorded
 * response handed out (JSON leaves, cookies it set, headers, values embedded
 * in a page), each with the capture that finds it again in a live response,
 * and whether a later recorded request sent it back.
 *
 * @module
 */
import { responseHeaders } from "./handed.ts";
import type { HarRecord } from "./har_model.ts";
import type { Source } from "./model.ts";
import { walk } from "./json.ts";
import { pageValues } from "./pages.ts";
import { locationIds } from "./correlate/location_ids.ts";
import { escapeRegExpSlash as escape } from "../_util/regex_escape.ts";

/** A value a recorded response handed out, and how to find it in a live one. */
export interface Handed {
  value: string;
  source: Source;
  /** How the summary names it: `"token" in the JSON body`, `the cookie "sid"`. */
  label: string;
}

/**
 * Response headers that describe the message, not data handed to the client:
 * their values (`application/json`, a date, `gzip`) recur in requests by
 * coincidence. Every other header may hand out a value, whatever its name
 * (a rotating `X-CSRF-Next`): whether a later request sent it back decides.
 */
const MESSAGE_HEADER =
  /^(content-(type|length|encoding|language|disposition|security-policy[\w-]*)|date|expires|last-modified|age|server|via|vary|connection|keep-alive|transfer-encoding|cache-control|pragma|accept-ranges|access-control-[\w-]+|strict-transport-security|referrer-policy|x-powered-by|x-content-type-options|x-frame-options|x-xss-protection|cross-origin-[\w-]+|permissions-policy|alt-svc|server-timing|timing-allow-origin|report-to|nel|x-response-time|x-request-id|x-correlation-id|traceparent)$/i;

/**
 * The values a recorded response handed out that are worth following: strings
 * of 4 or more characters, integers of 3 or more digits, cookies, a few headers.
 *
 * @example
 * ```ts
 * import { handedOut } from "./verify_values.ts";
 * // deno-lint-ignore no-explicit-any
 * const r: any = { json: { id: "prj_1a2b3c", n: 7 }, hasJson: true, setCookies: [{ name: "sid", value: "s3cr3tv4lue" }], mimeType: "application/json", raw: { response: { headers: [] } } };
 * const found = handedOut(r).map((h) => h.label);
 * if (found.join() !== 'the cookie "sid","id" in the JSON body') throw new Error(found.join());
 * // deno-lint-ignore no-explicit-any
 * const created: any = { url: new URL("https://a.test/boards"), status: 201, setCookies: [], mimeType: "", raw: { response: { headers: [{ name: "Location", value: "/boards/brd_9f3e21" }] } } };
 * if (!handedOut(created).some((h) => h.value === "brd_9f3e21")) throw new Error();
 * ```
 */
export function handedOut(r: HarRecord): Handed[] {
  const out: Handed[] = [];
  for (const c of r.setCookies) {
    if (c.value.length >= 4 && c.value !== "deleted") {
      out.push({
        value: c.value,
        source: { kind: "cookie", name: c.name },
        label: `the cookie "${c.name}"`,
      });
    }
  }
  for (const h of responseHeaders(r)) {
    if (!MESSAGE_HEADER.test(h.name) && h.value.length >= 4 && !/set-cookie/i.test(h.name)) {
      out.push({
        value: h.value,
        source: { kind: "header", name: h.name.toLowerCase() },
        label: `the "${h.name.toLowerCase()}" header`,
      });
    }
  }
  // A 201 that names what it made only by its Location: the id a script cut from the path.
  for (const { value, pattern } of locationIds(r)) {
    out.push({
      value,
      source: { kind: "header", name: "location", regex: pattern },
      label: `the id in the "location" header`,
    });
  }
  if (r.responseText !== undefined && /html/.test(r.mimeType)) {
    for (const v of pageValues(r.responseText, r.url.origin)) {
      out.push({
        value: v.value,
        source: v.encoded !== undefined
          ? { kind: "regex", name: v.name, pattern: v.pattern, as: "url-decoded" }
          : v.raw === undefined
          ? { kind: "regex", name: v.name, pattern: v.pattern }
          : { kind: "regex", name: v.name, pattern: v.pattern, as: "json-string" },
        label: `"${v.name}" in the page`,
      });
    }
  }
  if (r.hasJson) {
    walk(r.json, (path, key, leaf) => {
      const text = typeof leaf === "string" && leaf.length >= 4
        ? leaf
        : Number.isInteger(leaf) && Math.abs(leaf as number) >= 100
        ? String(leaf)
        : undefined;
      if (text === undefined) return;
      out.push({
        value: text,
        source: { kind: "json", path },
        label: `"${key || "value"}" in the JSON body`,
      });
      if (typeof leaf === "string" && key) out.push(...queryValues(key, leaf, r.responseText));
    });
  }
  return out;
}

/**
 * The query parameters of a URL a JSON body handed out (a signed download
 * link's `sig`), each found again by a pattern over the body: a later
 * request sends the link's parts, and the flow may ask for one of them.
 */
function queryValues(key: string, leaf: string, body = ""): Handed[] {
  const q = leaf.indexOf("?");
  if (q === -1 || !/^(\/|https?:\/\/)/.test(leaf)) return [];
  const out: Handed[] = [];
  for (const part of leaf.slice(q + 1).split(/[&#]/)) {
    const [name, value = ""] = part.split("=", 2);
    // Only a value the body holds as it is sent: the pattern reads the body's text.
    if (!/^[\w.-]+$/.test(name) || value.length < 4 || !body.includes(`${name}=${value}`)) continue;
    out.push({
      value,
      source: {
        kind: "regex",
        name,
        pattern: `"${escape(key)}"\\s*:\\s*"[^"]*[?&]${escape(name)}=([^&#"]*)`,
      },
      label: `"${name}" in the URL "${key}" of the JSON body`,
    });
  }
  return out;
}

/**
 * Everything a recorded request sent, as text to search: the URL (as sent and
 * decoded), header values, cookies and the body.
 *
 * @example
 * ```ts
 * import { sentText } from "./verify_values.ts";
 * // deno-lint-ignore no-explicit-any
 * const r: any = { url: new URL("https://a.test/x/prj%2F1?q=a+b"), headers: [{ name: "x", value: "h1" }], cookies: [], bodyText: "{}" };
 * const text = sentText(r);
 * if (!text.includes("prj/1") || !text.includes("h1")) throw new Error(text);
 * ```
 */
export function sentText(r: HarRecord): string {
  let decoded = r.url.href;
  try {
    decoded = decodeURIComponent(r.url.href.replaceAll("+", " "));
  } catch {
    // A stray % in the URL: the text as sent is searched.
  }
  return [
    r.url.href,
    decoded,
    ...r.headers.map((h) => h.value),
    ...r.cookies.map((c) => c.value),
    r.bodyText ?? "",
  ].join("\n");
}
