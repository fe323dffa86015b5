/**
 * A step's `request`: method, URL, query, headers and body, with the rules the
 * HTTP client enforces checked before anything is sent.
 *
 * @module
 */
import { isScalar } from "./nodes.ts";
import type { Template, ValueTemplate } from "../expr/template.ts";
import type { RequestSpec } from "../model/flow.ts";
import { BODY_KEYS, loadBody, valuePairs } from "./body.ts";
import { loadCookies, loadHeaders } from "./headers.ts";
import { mapExpression } from "./map_expression.ts";
import type { Loading } from "./context.ts";
import { describe, isEmpty } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { METHOD } from "./spelling.ts";
import { quoteHint } from "./quote_hint.ts";

/** Methods the runtime's fetch refuses to send. */
export const UNSENDABLE_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * `method`: an HTTP method fetch can send, upper-cased; or an expression (`${vars.m}`), checked
 * when the request is made; undefined when not given or wrong.
 */
function loadMethod(
  ctx: Loading,
  entry: Entry | undefined,
  label: string,
  owner: TemplateUse["owner"],
): string | Template | undefined {
  if (!entry) return undefined;
  const m = ctx.string(entry, `"method" of ${label}`);
  if (m === undefined) return undefined;
  if (m.includes("${") && isScalar(entry.value)) {
    const template = ctx.template(entry.value, owner);
    const constant = template?.parts.every((p) => typeof p === "string");
    if (!template || !constant) return template;
  }
  const problem = methodProblem(m);
  if (problem) ctx.problem("bad-method", problem.message, entry.value, problem.hint);
  else return m.toUpperCase();
  return undefined;
}

/**
 * What is wrong with a method, if anything: not an HTTP method token, or one the HTTP client
 * refuses to send. The message quotes the method first; `after` is the rest of it, flowrun's
 * words, so a method an expression gave can be quoted as a value (masked) and the words kept.
 *
 * @example
 * ```ts
 * import { methodProblem } from "./request.ts";
 * if (methodProblem("patch") !== undefined) throw new Error();
 * if (!methodProblem("GE T")?.message.includes('"GE T" is not an HTTP method')) throw new Error();
 * if (methodProblem("GE T")?.after !== " is not an HTTP method.") throw new Error();
 * ```
 */
export function methodProblem(
  m: string,
): { message: string; hint: string; after: string } | undefined {
  if (!METHOD.test(m)) {
    return {
      message: `"${m}" is not an HTTP method.`,
      after: " is not an HTTP method.",
      hint: "Use GET, POST, PUT, PATCH, DELETE, …",
    };
  }
  if (UNSENDABLE_METHODS.has(m.toUpperCase())) {
    return {
      message: `"${m}" requests cannot be sent by flowrun: the HTTP client forbids them.`,
      after: " requests cannot be sent by flowrun: the HTTP client forbids them.",
      hint:
        "CONNECT opens tunnels and TRACE/TRACK echo requests back; test such endpoints with another tool.",
    };
  }
  return undefined;
}

/** `url`: a template; one without expressions must be an absolute http(s) URL already. */
function loadUrl(
  ctx: Loading,
  entry: Entry | undefined,
  label: string,
  owner: TemplateUse["owner"],
): Template | undefined {
  if (!entry) return undefined;
  const node = entry.value;
  if (!isScalar(node) || typeof node.value !== "string" || node.value === "") {
    ctx.problem(
      "wrong-type",
      `Expected the url of ${label} to be a string, got ${describe(node)}.`,
      node ?? entry.keyNode,
      quoteHint(ctx, node, "url") ?? "Write the full URL, e.g. url: https://api.example.com/items.",
    );
    return undefined;
  }
  const url = ctx.template(node, owner);
  const constant = url && url.parts.length === 1 && typeof url.parts[0] === "string";
  if (constant && (!/^https?:\/\/[^/]/i.test(url.source) || !URL.canParse(url.source))) {
    ctx.problem(
      "bad-url",
      `"${url.source}" is not an absolute http or https URL.`,
      node,
      "Write the full URL, e.g. ${ENV.BASE_URL}/items or https://api.example.com/items.",
    );
  }
  return url;
}

/** A body on GET or HEAD, which the HTTP client refuses to send, reported at its key. */
function checkBodyAllowed(ctx: Loading, map: Map<string, Entry>, method: string): void {
  if (method !== "GET" && method !== "HEAD") return;
  const bodyKey = BODY_KEYS.find((k) => map.has(k));
  const bodyEntry = bodyKey && map.get(bodyKey);
  if (!bodyEntry || isEmpty(bodyEntry.value)) return;
  ctx.problem(
    "bad-method",
    `A ${method} request cannot have a body: the HTTP client refuses to send one.`,
    bodyEntry.keyNode,
    "Send the data in the URL's query, or use POST.",
  );
}

/**
 * A step's `request`: method, URL, headers and body, checked as the HTTP
 * client will send them. Each section has its reader; templates are read in
 * the order url, headers, query, cookies, body, which is the order their
 * references are checked (an unset name is reported at its first use). The
 * map's keys were checked already: it is the HTTP kind's map
 * (`kinds/http/`), which the loader hands it through `KindReading.request`.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test", graphql: {query: "{a}"}}\n',
 *   "f.yaml",
 * );
 * if (flow?.steps[0].request?.method !== "POST") throw new Error("GraphQL is a POST by default");
 * ```
 */
export function loadRequest(
  ctx: Loading,
  map: Map<string, Entry>,
  label: string,
  owner: TemplateUse["owner"],
): RequestSpec | undefined {
  const written = loadMethod(ctx, map.get("method"), label, owner);
  const given = typeof written === "object" ? written.source : written;
  const url = loadUrl(ctx, map.get("url"), label, owner);
  const maps = loadMaps(ctx, map, label, owner);
  const cookies = loadCookies(ctx, map.get("cookies"), label, owner);
  const body = loadBody(ctx, map, label, owner);
  // A GraphQL request is a POST unless the flow says otherwise.
  const method = given ?? (body.graphql && !map.has("method") ? "POST" : "GET");
  // A method from an expression is checked, with its body, when the request is made.
  if (typeof written !== "object") checkBodyAllowed(ctx, map, method);
  if (!url) return undefined;
  return {
    method,
    ...(typeof written === "object" ? { methodFrom: written } : {}),
    url,
    ...maps,
    ...(cookies.length > 0 ? { cookies } : {}),
    ...body,
  };
}

/**
 * `headers` and `query`: each a map, or one expression that gives a map
 * (`headers: "${vars.headers}"`), checked when the request is made.
 */
function loadMaps(
  ctx: Loading,
  map: Map<string, Entry>,
  label: string,
  owner: TemplateUse["owner"],
): Pick<RequestSpec, "headers" | "headersFrom" | "query" | "queryFrom"> {
  const headersFrom = mapExpression(ctx, map.get("headers"), `the headers of ${label}`, owner);
  const headers = headersFrom ? [] : loadHeaders(ctx, map.get("headers"), label, owner);
  const queryFrom = mapExpression(ctx, map.get("query"), `the query of ${label}`, owner);
  const query = queryFrom ? [] : loadQuery(ctx, map.get("query"), label, owner);
  return {
    headers,
    ...(typeof headersFrom === "object" ? { headersFrom } : {}),
    ...(query.length > 0 ? { query } : {}),
    ...(typeof queryFrom === "object" ? { queryFrom } : {}),
  };
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
  }, owner).map(([name, value]) => [name, value]);
}
