/**
 * A step's URL as Artillery sends it, with the values `flowrun run` would
 * percent-encode encoded the same way: an expression that lands in the
 * path, the query or the fragment becomes a variable the processor fills
 * with `encodeURIComponent` of its value just before the request (Artillery
 * inserts values as they are, so `&`, `#`, `/` or a space in a value would
 * change the request); one before the path (a base URL) and `${raw:…}` are
 * inserted as written. The `query` map is appended to the URL as run
 * appends it, every key and value encoded and lists as repeated keys
 * (Artillery's `qs` would keep only a list's last item).
 *
 * @module
 */
import type { RequestSpec } from "../model/flow.ts";
import type { ValueTemplate } from "../model/template.ts";
import { jsExpr, jsValue } from "./js_value.ts";
import type { Place } from "./scope.ts";
import { exprText } from "./template.ts";

/** Whether text written so far still ends before the path: a scheme, a host, a port. */
function beforePath(shape: string): boolean {
  return !/[?#]/.test(shape) && /^(?:[a-z][a-z0-9+.-]*:(?:\/\/?[^/?#]*)?)?$/i.test(shape);
}

/** A variable the processor fills with the encoded value of JavaScript `code`. */
function encoded(code: string, place: Place): string {
  const name = `f${place.flowIndex}_url_${place.scope.encoded.size + 1}`;
  place.scope.encoded.set(name, `encodeURIComponent(text(${code}))`);
  return `{{ ${name} }}`;
}

/** One query value as URL text: a constant encoded now, anything else by the processor. */
function queryValue(value: ValueTemplate, place: Place): string | undefined {
  if (value.kind !== "const") return encoded(jsValue(value, place), place);
  if (value.value === null || value.value === undefined) return undefined;
  const text = typeof value.value === "string" ? value.value : JSON.stringify(value.value);
  return encodeURIComponent(text);
}

/** The query map as `a=1&tag=x&tag=y`, or "" without one. */
function queryText(query: RequestSpec["query"], place: Place): string {
  const pairs: string[] = [];
  for (const [name, value] of query ?? []) {
    for (const item of value.kind === "list" ? value.items : [value]) {
      const text = queryValue(item, place);
      pairs.push(
        text === undefined ? encodeURIComponent(name) : `${encodeURIComponent(name)}=${text}`,
      );
    }
  }
  return pairs.join("&");
}

/**
 * The URL of a request, its query map appended.
 *
 * @example
 * ```ts
 * import { urlText } from "./url.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set(["q"]) };
 * const base = { ref: { kind: "env" as const, name: "BASE" }, text: "${ENV.BASE}", offset: 0 };
 * const q = { ref: { kind: "var" as const, name: "q" }, text: "${vars.q}", offset: 0 };
 * const url = urlText({ method: "GET", headers: [], url: { source: "", parts: [base, "/s/", q] },
 *   query: [["tag", { kind: "list", items: [{ kind: "const", value: "a b" }, { kind: "const", value: 2 }] }]] }, place);
 * if (url !== "{{ $env.BASE }}/s/{{ f0_url_1 }}?tag=a%20b&tag=2") throw new Error(url);
 * ```
 */
export function urlText(request: RequestSpec, place: Place): string {
  let url = "";
  // The URL's literal text, each expression as a stand-in: where the next value lands.
  let shape = "";
  for (const part of request.url.parts) {
    if (typeof part === "string") {
      url += part;
      shape += part;
    } else if (part.raw || beforePath(shape)) {
      url += exprText(part, place);
      shape += beforePath(shape) ? "http://host" : "x";
    } else {
      url += encoded(jsExpr(part, place), place);
      shape += "x";
    }
  }
  const query = queryText(request.query, place);
  if (query === "") return url;
  const hash = url.indexOf("#");
  const [base, fragment] = hash < 0 ? [url, ""] : [url.slice(0, hash), url.slice(hash)];
  const joiner = !base.includes("?") ? "?" : /[?&]$/.test(base) ? "" : "&";
  return `${base}${joiner}${query}${fragment}`;
}
