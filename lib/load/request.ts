/**
 * A step's `request`: method, URL, query, headers and body, with the rules the
 * HTTP client enforces checked before anything is sent.
 *
 * @module
 */
import { isMap, isScalar } from "./nodes.ts";
import { parseTemplate, type Template, type ValueTemplate } from "../expr/template.ts";
import type { RequestSpec } from "../model/flow.ts";
import { BODY_KEYS, loadBody, valuePairs } from "./body.ts";
import {
  describe,
  type Entry,
  isEmpty,
  type Loading,
  METHOD,
  type TemplateUse,
} from "./context.ts";

/** Methods the runtime's fetch refuses to send. */
export const UNSENDABLE_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** A step's `request`: method, URL, headers and body, checked as the HTTP client will send them. */
export function loadRequest(
  ctx: Loading,
  entry: Entry | undefined,
  label: string,
  owner: TemplateUse["owner"],
): RequestSpec | undefined {
  if (!entry) return undefined;
  const what = `"request" of ${label}`;
  const map = ctx.map(entry.value, what, "request", [
    "method",
    "url",
    "query",
    "headers",
    "cookies",
    ...BODY_KEYS,
  ], {
    required: ["url"],
    anchor: entry.keyNode,
  });
  if (!map) return undefined;
  let method = "GET";
  const methodEntry = map.get("method");
  if (methodEntry) {
    const m = ctx.string(methodEntry, `"method" of ${label}`);
    if (m !== undefined && !METHOD.test(m)) {
      ctx.problem(
        "bad-method",
        `"${m}" is not an HTTP method.`,
        methodEntry.value,
        "Use GET, POST, PUT, PATCH, DELETE, …",
      );
    } else if (m !== undefined && UNSENDABLE_METHODS.has(m.toUpperCase())) {
      ctx.problem(
        "bad-method",
        `"${m}" requests cannot be sent by flowrun: the HTTP client forbids them.`,
        methodEntry.value,
        "CONNECT opens tunnels and TRACE/TRACK echo requests back; test such endpoints with another tool.",
      );
    } else if (m !== undefined) method = m.toUpperCase();
  }
  let url: Template | undefined;
  const urlEntry = map.get("url");
  if (urlEntry) {
    const node = urlEntry.value;
    if (isScalar(node) && typeof node.value === "string" && node.value !== "") {
      url = ctx.template(node, owner);
      if (url && url.parts.length === 1 && typeof url.parts[0] === "string") {
        if (!/^https?:\/\/[^/]/i.test(url.source) || !URL.canParse(url.source)) {
          ctx.problem(
            "bad-url",
            `"${url.source}" is not an absolute http or https URL.`,
            node,
            "Write the full URL, e.g. ${ENV.BASE_URL}/items or https://api.example.com/items.",
          );
        }
      }
    } else {ctx.problem(
        "wrong-type",
        `Expected the url of ${label} to be a string, got ${describe(node)}.`,
        node ?? urlEntry.keyNode,
      );}
  }
  const headers: [string, Template][] = [];
  const headersEntry = map.get("headers");
  if (headersEntry && !isEmpty(headersEntry.value)) {
    if (!isMap(headersEntry.value)) {
      ctx.problem(
        "wrong-type",
        `Expected the headers of ${label} to be a map, got ${describe(headersEntry.value)}.`,
        headersEntry.value,
        "Write one header per line under it, e.g. headers: {accept: application/json}.",
      );
    } else {
      const seen = new Map<string, string>();
      for (const h of ctx.entries(headersEntry.value)) {
        const lower = h.key.toLowerCase();
        if (!METHOD.test(h.key)) {
          ctx.problem("bad-header", `"${h.key}" is not a valid header name.`, h.keyNode);
          continue;
        }
        if (seen.has(lower)) {
          ctx.problem(
            "duplicate-header",
            `Header "${h.key}" is set twice in ${label} (also as "${seen.get(lower)}").`,
            h.keyNode,
            "Header names are case-insensitive; keep one.",
          );
          continue;
        }
        seen.set(lower, h.key);
        if (!isScalar(h.value) || h.value.value === null) {
          ctx.problem(
            "wrong-type",
            `Expected header "${h.key}" to be a string, got ${describe(h.value)}.`,
            h.value ?? h.keyNode,
          );
          continue;
        }
        if (typeof h.value.value === "string" && /[\r\n\0]/.test(h.value.value)) {
          ctx.problem(
            "bad-header",
            `The value of header "${h.key}" holds a line break or NUL, which HTTP forbids.`,
            h.value,
            "Put it on one line (a YAML block scalar with | keeps line breaks; use a quoted string).",
          );
          continue;
        }
        const wide = typeof h.value.value === "string"
          ? /[\u0100-\u{10ffff}]/u.exec(h.value.value)
          : null;
        if (wide) {
          const code = wide[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
          ctx.problem(
            "bad-header",
            `The value of header "${h.key}" holds "${
              wide[0]
            }" (U+${code}), which an HTTP header value cannot carry.`,
            h.value,
            "Header values are Latin-1 text: percent-encode it (e.g. encodeURIComponent) or send it in the body.",
            wide.index,
            wide[0].length,
          );
          continue;
        }
        const template = typeof h.value.value === "string"
          ? ctx.template(h.value, owner)
          : parseTemplate(String(h.value.value).replaceAll("${", "$${"));
        if (template) headers.push([h.key, template]);
      }
    }
  }
  const query = loadQuery(ctx, map.get("query"), label, owner);
  const cookies = loadCookies(ctx, map.get("cookies"), label, owner);
  const body = loadBody(ctx, map, label, owner);
  // A GraphQL request is a POST unless the flow says otherwise.
  if (body.graphql && !methodEntry) method = "POST";
  const bodyKey = BODY_KEYS.find((k) => map.has(k));
  const bodyEntry = bodyKey && map.get(bodyKey);
  if (bodyEntry && !isEmpty(bodyEntry.value) && (method === "GET" || method === "HEAD")) {
    ctx.problem(
      "bad-method",
      `A ${method} request cannot have a body: the HTTP client refuses to send one.`,
      bodyEntry.keyNode,
      "Send the data in the URL's query, or use POST.",
    );
  }
  if (!url) return undefined;
  return {
    method,
    url,
    headers,
    ...(query.length > 0 ? { query } : {}),
    ...(cookies.length > 0 ? { cookies } : {}),
    ...body,
  };
}

/** `cookies: {sid: "${steps.login.capture.sid}"}`: cookies sent in the `cookie` header. */
function loadCookies(
  ctx: Loading,
  entry: Entry | undefined,
  label: string,
  owner: TemplateUse["owner"],
): [string, Template][] {
  if (!entry || isEmpty(entry.value)) return [];
  const node = ctx.deref(entry.value);
  if (!isMap(node)) {
    ctx.problem(
      "wrong-type",
      `Expected the cookies of ${label} to be a map of names to values, got ${describe(node)}.`,
      node ?? entry.keyNode,
      'For example: cookies: {sid: "${steps.login.capture.sid}"}',
    );
    return [];
  }
  const out: [string, Template][] = [];
  for (const e of ctx.entries(node)) {
    const v = ctx.deref(e.value);
    if (!METHOD.test(e.key) || !isScalar(v) || v.value === null) {
      ctx.problem(
        "wrong-type",
        `Expected cookie "${e.key}" of ${label} to be a name with a text value, got ${
          describe(v)
        }.`,
        v ?? e.keyNode,
        "Cookie names are HTTP tokens; values are text, e.g. cookies: {theme: dark}.",
      );
      continue;
    }
    const template = typeof v.value === "string"
      ? ctx.template(v, owner)
      : parseTemplate(String(v.value).replaceAll("${", "$${"));
    if (template) out.push([e.key, template]);
  }
  return out;
}

/** `query: {term: "${vars.term}", tag: [a, b]}`: each value a scalar or a list of them. */
function loadQuery(
  ctx: Loading,
  entry: Entry | undefined,
  label: string,
  owner: TemplateUse["owner"],
): [string, ValueTemplate][] {
  if (!entry || isEmpty(entry.value)) return [];
  return valuePairs(ctx, entry, {
    what: `the query of ${label}`,
    item: "parameter",
    example: 'For example: query: {term: "${vars.term}", tag: [a, b]}',
    listHint:
      "A list repeats the key (tag: [a, b] sends tag=a&tag=b); send structured data in the body.",
  }, owner);
}
