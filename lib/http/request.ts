/**
 * Working out a request: a step's request spec and a scope → a
 * {@linkcode ResolvedRequest}, every template rendered in one pass (URL,
 * query, headers, cookies, body), with the limits a sendable request keeps.
 *
 * @module
 */
import {
  evaluate,
  ExpressionError,
  readsUnsetCapture,
  render,
  rendersOnlyEmpty,
  type Scope,
  type Template,
  toText,
  type ValueTemplate,
} from "../expr/template.ts";
import { fieldNames } from "./field_names.ts";
import { fromBase64 } from "../_util/base64.ts";
import { methodProblem } from "../load/request.ts";
import type { MultipartPart, RequestSpec } from "../model/flow.ts";
import type { SentPart } from "./curl_body.ts";
import { contentSent, multipartPayload } from "./content_part.ts";
import { around, joined, ownWords, told } from "../model/told.ts";
import { RequestError } from "./request_error.ts";
import { renderUrl } from "./url.ts";
import { headerName, headersFrom, queryFrom } from "./request_maps.ts";
import { thousands } from "../_util/thousands.ts";

/**
 * A request with every expression resolved.
 *
 * @example
 * ```ts
 * import type { ResolvedRequest } from "./request.ts";
 * const request: ResolvedRequest = { method: "POST", url: "http://x.test/", headers: [["content-type", "text/plain"]], body: "hi" };
 * if (request.headers[0][0] !== "content-type") throw new Error();
 * ```
 */
export interface ResolvedRequest {
  /** The HTTP method, upper-case. */
  method: string;
  /** The absolute URL, its query appended. */
  url: string;
  /** In flow order, names as written. */
  headers: [string, string][];
  /** The body as text: what is sent, or for a multipart or file body what reports show of it. */
  body?: string;
  /** What is sent instead of `body` for a multipart or file body. */
  payload?: FormData | Uint8Array<ArrayBuffer>;
  /** `multipart` when `body` lists a multipart body's fields, form-encoded, files as `@name`. */
  bodyKind?: "multipart" | "file";
  /** A multipart body's parts as sent, for the `curl` line (`payload` cannot be read at once). */
  parts?: SentPart[];
}

/**
 * The longest URL, and the most header text, a request may have: 64 KiB.
 * Servers refuse far less (8 to 16 KiB is usual).
 *
 * @example
 * ```ts
 * import { MAX_REQUEST_HEAD } from "./request.ts";
 * if (MAX_REQUEST_HEAD !== 65_536) throw new Error();
 * ```
 */
export const MAX_REQUEST_HEAD = 65_536;

/**
 * Resolves a request spec's templates. A body that resolves to anything but
 * a string is sent as JSON, with `content-type: application/json` unless the
 * flow sets a content type (header names compare case-insensitively).
 * Throws `ExpressionError` or {@linkcode RequestError} (`bad-url`).
 *
 * @example
 * ```ts
 * import { resolveRequest } from "./request.ts";
 * import { compileValue, parseTemplate } from "../expr/template.ts";
 * const scope = { env: () => undefined, vars: new Map([["id", 7]]), steps: new Map(), runId: "r" };
 * const request = resolveRequest({
 *   method: "POST",
 *   url: parseTemplate("http://api.test/items/${vars.id}"),
 *   headers: [],
 *   body: compileValue({ id: "${vars.id}" }),
 * }, scope);
 * if (request.url !== "http://api.test/items/7" || request.body !== '{"id":7}') throw new Error();
 * if (request.headers[0].join(": ") !== "content-type: application/json") throw new Error();
 * ```
 */
export function resolveRequest(
  spec: RequestSpec,
  scope: Scope,
  omitEmptyHeaders = false,
): ResolvedRequest {
  const method = resolveMethod(spec, scope);
  const url = resolveUrl(spec, scope);
  const headers = resolveHeaders(spec, scope, omitEmptyHeaders);
  return withBody({ method, url, headers }, spec, scope);
}

/**
 * The method; one from an expression is checked now, as a written one was when the flow loaded:
 * a value that is no method the HTTP client sends is an error of the step, nothing sent.
 */
function resolveMethod(spec: RequestSpec, scope: Scope): string {
  if (!spec.methodFrom) return spec.method;
  const value = evaluate(spec.methodFrom, scope);
  const m = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  const problem = methodProblem(m);
  const bodied = spec.body ?? spec.form ?? spec.multipart ?? spec.bodyFile ?? spec.bodyBase64;
  const upper = m.toUpperCase();
  const source = spec.methodFrom.source;
  // The method is what the expression gave: a value of the message, masked where the step shows
  // it; the rest is flowrun's words and the flow's expression.
  const given = told`${JSON.stringify(m.slice(0, 80))}`;
  if (problem) {
    throw new ExpressionError(
      joined(
        around(`The method "${source}" is `, given, ": "),
        told`${`"${m}"`}`,
        ownWords(`${problem.after} ${problem.hint}`),
      ),
    );
  }
  if ((upper === "GET" || upper === "HEAD") && bodied !== undefined) {
    throw new ExpressionError(
      around(
        `The method "${source}" is `,
        given,
        `: A ${upper} request cannot have a body: the HTTP client refuses to send one. ` +
          "Give the method a value that takes a body (POST, PUT, PATCH).",
      ),
    );
  }
  return upper;
}

/** The URL with its query, checked to be an absolute http(s) URL a server will take. */
function resolveUrl(spec: RequestSpec, scope: Scope): string {
  const url = renderUrl(
    spec.url,
    scope,
    spec.queryFrom
      ? queryFrom(evaluate(spec.queryFrom, scope), spec.queryFrom.source)
      : spec.query?.map(([name, value]) => [name, render(value, scope)]),
  );
  // A captured value of megabytes in a URL or header cannot be sent (the runtime refuses the
  // URL, a server the header block), and quoted whole in every line that shows the request it
  // made reports of tens of megabytes, with JUnit text nodes libxml2 refuses to read.
  if (url.length > MAX_REQUEST_HEAD) {
    throw new RequestError(
      "bad-url",
      `The URL is ${thousands(url.length)} characters long, more than the ` +
        `${MAX_REQUEST_HEAD / 1024} KiB flowrun sends ("${url.slice(0, 120)}…"): a value ` +
        "interpolated into it is far larger than a URL holds; send it in the body.",
    );
  }
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) {
    // A base URL set to `localhost:3000` (as Newman and curl take it) is the common case; the
    // message says which start to write rather than leaving the user to guess.
    const host = /^[a-z0-9][\w.-]*(:\d+)?(?=[/?#]|$)/i.exec(url)?.[0];
    throw new RequestError(
      "bad-url",
      host && !url.includes("://")
        ? told`"${url}" is not an absolute http or https URL: it has no scheme; give the value it starts with one, e.g. "http://${host}".`
        : told`"${url}" is not an absolute http or https URL.`,
    );
  }
  return url;
}

/** The headers in flow order, then the explicit `cookies` in one `cookie` header. */
function resolveHeaders(
  spec: RequestSpec,
  scope: Scope,
  omitEmpty: boolean,
): [string, string][] {
  const headers: [string, string][] = spec.headersFrom
    ? headersFrom(evaluate(spec.headersFrom, scope), spec.headersFrom.source)
    : spec.headers.filter(([, value]) =>
      !omitEmpty || !(readsUnsetCapture(value, scope) || rendersOnlyEmpty(value, scope))
    )
      .map(([name, value, nameFrom]) => [
        nameFrom ? headerName(evaluate(nameFrom, scope), nameFrom.source) : name,
        toText(evaluate(value, scope)),
      ]);
  // `omit_empty_headers`: one step written for both cases (with an ETag, without one; with the
  // token an optional capture found, without it: `Bearer ${…}` then has no value either, nor
  // with a token that renders empty).
  if (omitEmpty) headers.splice(0, headers.length, ...headers.filter(([, v]) => v !== ""));
  if (spec.cookies) {
    const pairs = spec.cookies.map(([name, value]) =>
      `${name}=${cookieOctets(toText(evaluate(value, scope)))}`
    );
    addCookies(headers, pairs.join("; "));
  }
  const headBytes = headers.reduce((n, [name, value]) => n + name.length + value.length + 4, 0);
  if (headBytes > MAX_REQUEST_HEAD) {
    throw new RequestError(
      "bad-url",
      `The request's headers are ${thousands(headBytes)} characters long, more ` +
        `than the ${MAX_REQUEST_HEAD / 1024} KiB flowrun sends: a value interpolated into one ` +
        "is far larger than a header holds; send it in the body.",
    );
  }
  return headers;
}

/**
 * A cookie value as RFC 6265 cookie-octets: a space, `"`, `,`, `;`, `\`, a control character
 * or a non-ASCII one is percent-encoded (UTF-8), so a value can neither end its cookie early
 * nor add another (`a b;c=d` is sent `a%20b%3Bc=d`); every other character, `%` included, is
 * sent as written.
 */
function cookieOctets(value: string): string {
  return value.toWellFormed().replace(
    /[^\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]+/gu,
    encodeURIComponent,
  );
}

/** The request with its body (form, multipart, file or value), and its content type if unset. */
function withBody(
  request: ResolvedRequest,
  spec: RequestSpec,
  scope: Scope,
): ResolvedRequest {
  const { headers } = request;
  if (spec.form) {
    if (!hasContentType(headers)) {
      headers.push(["content-type", "application/x-www-form-urlencoded"]);
    }
    return { ...request, body: formText(spec.form, scope) };
  }
  if (spec.multipart) return { ...request, ...multipart(spec.multipart, scope, headers) };
  if (spec.bodyFile) {
    if (!hasContentType(headers)) headers.push(["content-type", "application/octet-stream"]);
    const bytes = spec.bodyFile.bytes;
    return {
      ...request,
      body: `(${bytes.length} bytes from ${spec.bodyFile.path})`,
      payload: bytes,
      bodyKind: "file",
    };
  }
  if (spec.bodyBase64) {
    if (!hasContentType(headers)) headers.push(["content-type", "application/octet-stream"]);
    const bytes = base64Bytes(render(spec.bodyBase64, scope), "body_base64");
    // Shown as its size, never its bytes: an answer sent back may hold what reports must not show.
    return {
      ...request,
      body: `(${bytes.length} bytes from base64)`,
      payload: bytes,
      bodyKind: "file",
    };
  }
  if (spec.body === undefined) return request;
  const value = render(spec.body, scope);
  if (typeof value === "string") return { ...request, body: value };
  if (!hasContentType(headers)) headers.push(["content-type", "application/json"]);
  return { ...request, body: JSON.stringify(value) };
}

/**
 * The bytes base64 text gives; text that is not base64 is an error of the
 * step, nothing sent, naming where and never the text (an answer it holds
 * may hold a secret).
 */
function base64Bytes(value: unknown, what: string): Uint8Array<ArrayBuffer> {
  const bytes = typeof value === "string" ? fromBase64(value) : undefined;
  if (bytes) return bytes;
  throw new ExpressionError(
    ownWords(
      `${what} is not base64 text (RFC 4648): capture the bytes with {body: base64}, or send text with body.`,
    ),
  );
}

/** Whether the flow set a content type (header names compare case-insensitively). */
function hasContentType(headers: readonly [string, string][]): boolean {
  return headers.some(([name]) => name.toLowerCase() === "content-type");
}

/**
 * Adds cookies to a request's `cookie` header, after those it already has
 * (a cookie header the flow writes, explicit `cookies`, then the jar's).
 *
 * @example
 * ```ts
 * import { addCookies } from "./request.ts";
 * const headers: [string, string][] = [["Cookie", "a=1"]];
 * addCookies(headers, "b=2");
 * if (headers[0][1] !== "a=1; b=2") throw new Error();
 * ```
 */
export function addCookies(headers: [string, string][], cookies: string): void {
  const at = headers.findIndex(([name]) => name.toLowerCase() === "cookie");
  if (at === -1) headers.push(["cookie", cookies]);
  else headers[at] = [headers[at][0], `${headers[at][1]}; ${cookies}`];
}

/** Fields form-encoded (`a=1&b=x%20y`), a list repeating its field. */
function formText(
  fields: readonly [string, ValueTemplate, Template?][],
  scope: Scope,
): string {
  const form = new URLSearchParams();
  const names = fieldNames(fields.map(([name, , nameFrom]) => ({ name, nameFrom })), scope);
  for (const [i, [, template]] of fields.entries()) {
    const name = names[i];
    const value = render(template, scope);
    for (const v of Array.isArray(value) ? value : [value]) {
      form.append(name, v === null ? "" : toText(v));
    }
  }
  return form.toString();
}

/**
 * A multipart body (the runtime writes its boundary and content type), and
 * its text for reports and secret discovery: the fields form-encoded, each
 * file as `@filename`.
 */
function multipart(
  parts: readonly MultipartPart[],
  scope: Scope,
  headers: [string, string][],
): Pick<ResolvedRequest, "body" | "payload" | "bodyKind" | "parts"> {
  const data = new FormData();
  const shown = new URLSearchParams();
  const sent: SentPart[] = [];
  const names = fieldNames(parts, scope);
  for (const [i, named] of parts.entries()) {
    const part = { ...named, name: names[i] };
    if (part.kind === "field") {
      const text = toText(render(part.value, scope));
      data.append(part.name, text);
      shown.append(part.name, text);
      sent.push({ name: part.name, value: text });
    } else if (part.kind === "base64") {
      const bytes = base64Bytes(
        render(part.value, scope),
        `"content_base64" of part "${part.name}"`,
      );
      const type = part.contentType ?? "application/octet-stream";
      data.append(part.name, new Blob([bytes], { type }), part.filename);
      shown.append(part.name, `@${part.filename}`);
      sent.push({ name: part.name, filename: part.filename, type, bytes });
    } else if (part.kind === "content") {
      const one = contentSent(part, toText(render(part.value, scope)));
      if ("bytes" in one) {
        data.append(one.name, new Blob([one.bytes as BlobPart], { type: one.type }), one.filename);
      }
      shown.append(part.name, "bytes" in one ? `@${one.filename}` : one.value);
      sent.push(one);
    } else {
      const blob = new Blob([part.file.bytes], { type: part.contentType });
      data.append(part.name, blob, part.filename);
      shown.append(part.name, `@${part.filename}`);
      const { name, filename } = part;
      sent.push({ name, filename, type: part.contentType, bytes: part.file.bytes });
    }
  }
  // A part of text as it is, with no filename, is one FormData cannot send: the body's own bytes go.
  if (!sent.some((p) => "raw" in p)) {
    return { body: shown.toString(), payload: data, bodyKind: "multipart", parts: sent };
  }
  const { payload, type } = multipartPayload(sent);
  if (!hasContentType(headers)) headers.push(["content-type", type]);
  return { body: shown.toString(), payload, bodyKind: "multipart", parts: sent };
}
