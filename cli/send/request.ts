/**
 * The request `flowrun send` was asked for: its arguments (`[METHOD] URL`,
 * `-H`, `-d`, `--json`, `--form`, `-L`) checked into a {@linkcode SendRequest},
 * or a {@linkcode UsageError} for the first at fault. Nothing is read or
 * sent here; the values stay as written, `${…}` included, for the flow
 * loader to expand and check as it does in a flow file.
 *
 * The spellings are curl's and HTTPie's where they agree: a body makes the
 * default method POST; `-d` sends its text as it is, as
 * `application/x-www-form-urlencoded` unless a header sets the type (curl);
 * `--json` sets `content-type` and `accept` to `application/json` (curl
 * 7.82); `@file` sends a file's bytes.
 *
 * @module
 */
import { methodProblem } from "../../lib/load/request.ts";
import { UsageError } from "../../lib/model/errors.ts";

/**
 * The body of a sent request: text as written, a file's bytes, or form
 * fields (a field given twice is a list).
 *
 * @example
 * ```ts
 * import type { SendBody } from "./request.ts";
 * const body: SendBody = { kind: "form", fields: [["tag", ["a", "b"]]] };
 * if (body.kind !== "form") throw new Error();
 * ```
 */
export type SendBody =
  | { kind: "text"; text: string }
  | { kind: "file"; path: string }
  | { kind: "form"; fields: [string, string | string[]][] };

/**
 * One request as `flowrun send` was asked for it.
 *
 * @example
 * ```ts
 * import type { SendRequest } from "./request.ts";
 * const request: SendRequest = { method: "GET", url: "http://x.test/", headers: [], follow: false };
 * if (request.method !== "GET") throw new Error();
 * ```
 */
export interface SendRequest {
  /** The method, upper-cased. */
  method: string;
  /** The URL as written (it may hold `${…}`). */
  url: string;
  /** The headers in the order given, the defaults a body brings after them. */
  headers: [string, string][];
  /** The body, if any. */
  body?: SendBody;
  /** Follow redirects (`-L`). */
  follow: boolean;
}

/** The options {@linkcode sendRequest} reads, as the parser gives them. */
export interface RequestValues {
  request?: string;
  header?: string[];
  data?: string[];
  json?: string[];
  form?: string[];
  follow?: boolean;
}

/**
 * The usage line with an example: the hint of a missing or misplaced URL.
 *
 * @example
 * ```ts
 * import { SEND_USAGE } from "./request.ts";
 * if (!SEND_USAGE.startsWith("Usage: flowrun send [METHOD] URL")) throw new Error();
 * ```
 */
export const SEND_USAGE = "Usage: flowrun send [METHOD] URL [options], e.g. flowrun send POST " +
  'http://localhost:8080/items --json \'{"name": "box"}\'';

/** `[METHOD] URL`, and `-X`: the method given once at most. */
function methodAndUrl(values: RequestValues, positionals: string[]): [string | undefined, string] {
  if (positionals.length === 0) throw new UsageError("bad-url", "No URL given.", SEND_USAGE);
  if (positionals.length > 2) {
    throw new UsageError(
      "bad-option",
      `Expected [METHOD] URL, got ${positionals.length} arguments: ${
        positionals.map((p) => JSON.stringify(p)).join(", ")
      }.`,
      "Quote a header or body that holds spaces: -H 'X-Note: two words', -d 'a b'.",
    );
  }
  const [method, url] = positionals.length === 2 ? positionals : [undefined, positionals[0]];
  if (method !== undefined && values.request !== undefined) {
    throw new UsageError(
      "bad-method",
      `The method is given twice: "${values.request}" (-X) and "${method}".`,
      "Give it once: flowrun send PUT URL, or -X PUT.",
    );
  }
  return [method ?? values.request, url];
}

/** The method: an HTTP token the client sends, upper-cased; POST with a body, else GET. */
function methodOf(given: string | undefined, body: SendBody | undefined): string {
  if (given === undefined) return body ? "POST" : "GET";
  const problem = methodProblem(given);
  if (problem) throw new UsageError("bad-method", problem.message, problem.hint);
  const method = given.toUpperCase();
  if ((method === "GET" || method === "HEAD") && body) {
    throw new UsageError(
      "bad-method",
      `A ${method} request cannot have a body: the HTTP client refuses to send one.`,
      "Leave the method out (a body makes it POST) or give one that takes a body: POST, PUT, PATCH.",
    );
  }
  return method;
}

/** A URL without expressions must be absolute http(s) already; one with them is checked when sent. */
function checkUrl(url: string): void {
  if (url.includes("${")) return;
  if (/^https?:\/\/[^/]/i.test(url) && URL.canParse(url)) return;
  const bare = !/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && /^[\w.-]+(:\d+)?(\/|$)/.test(url);
  throw new UsageError(
    "bad-url",
    `"${url}" is not an absolute http or https URL.`,
    bare ? `Write the scheme too: http://${url}` : SEND_USAGE,
  );
}

/** `-H "Name: value"` → [name, value], each name once (whatever its case). */
function headersOf(given: readonly string[]): [string, string][] {
  const headers: [string, string][] = [];
  for (const item of given) {
    const colon = item.indexOf(":");
    if (colon <= 0) {
      throw new UsageError(
        "bad-header",
        `Expected -H "Name: value", got "${item}".`,
        'Separate the name from the value with ":", e.g. -H "Accept: application/json".',
      );
    }
    const name = item.slice(0, colon).trim();
    const twice = headers.find(([n]) => n.toLowerCase() === name.toLowerCase());
    if (twice) {
      throw new UsageError(
        "duplicate-header",
        `The header "${name}" is given twice ("${twice[0]}" before).`,
        "Give it once; join several values with a comma as HTTP does: -H 'Accept: a, b'.",
      );
    }
    headers.push([name, item.slice(colon + 1).trim()]);
  }
  return headers;
}

/** `--form NAME=VALUE` (repeatable) → fields in order, a name given twice as a list. */
function formOf(given: readonly string[]): SendBody {
  const fields: [string, string | string[]][] = [];
  for (const item of given) {
    const eq = item.indexOf("=");
    if (eq <= 0) {
      throw new UsageError(
        "bad-option",
        `Expected --form NAME=VALUE, got "${item}".`,
        'Give each field as name=value (an empty value is "name="), e.g. --form q=tea.',
      );
    }
    const [name, value] = [item.slice(0, eq), item.slice(eq + 1)];
    const known = fields.find(([n]) => n === name);
    if (!known) fields.push([name, value]);
    else known[1] = [...[known[1]].flat(), value];
  }
  return { kind: "form", fields };
}

/**
 * The text of `-d` given once or more (joined with `&`, as curl joins them),
 * or of `--json` given once; a file is given alone.
 */
function bodyText(values: RequestValues): string | undefined {
  const given = values.data ?? values.json;
  if (given === undefined || given.length === 1) return given?.[0];
  const option = values.data ? "-d" : "--json";
  const file = given.find((text) => text.startsWith("@") && text.length > 1);
  if (values.json || file) {
    throw new UsageError(
      "conflicting-keys",
      `${option} is given ${given.length} times${file ? `, once with a file ("${file}")` : ""}.`,
      values.json
        ? 'Give the whole JSON document once: --json \'{"a": 1, "b": 2}\'.'
        : "Give a file body alone: -d @FILE.",
    );
  }
  return given.join("&");
}

/** The body of `-d`, `--json` or `--form`: one of them at most. */
function bodyOf(values: RequestValues): { body?: SendBody; type?: string } {
  const given = (["data", "json", "form"] as const).filter((k) => values[k] !== undefined);
  if (given.length > 1) {
    const [a, b] = given.map((k) => (k === "data" ? "-d" : `--${k}`));
    throw new UsageError(
      "conflicting-keys",
      `${a} and ${b} both give the request a body.`,
      "A request has one body: keep one of them.",
    );
  }
  if (values.form) return { body: formOf(values.form) };
  const text = bodyText(values);
  if (text === undefined) return {};
  const type = values.json !== undefined ? "application/json" : "application/x-www-form-urlencoded";
  if (text.startsWith("@") && text.length > 1) {
    return { body: { kind: "file", path: text.slice(1) }, type };
  }
  if (values.json !== undefined && !text.includes("${")) {
    try {
      JSON.parse(text);
    } catch (error) {
      throw new UsageError(
        "bad-json",
        `--json is not JSON: ${(error as Error).message} in "${text.slice(0, 80)}".`,
        'Quote the whole document for the shell: --json \'{"name": "box"}\'; or send text as it is with -d.',
      );
    }
  }
  return { body: { kind: "text", text }, type };
}

/**
 * Checks the arguments of `flowrun send` into the request it sends. The
 * defaults a body brings (`content-type`, and `accept` for `--json`) are
 * added as headers unless given, so the flow printed by `--flow` says them.
 *
 * @example
 * ```ts
 * import { sendRequest } from "./request.ts";
 * const request = sendRequest({ json: ['{"a": 1}'], header: ["X-Note: hi"] }, ["http://x.test/items"]);
 * if (request.method !== "POST" || request.body?.kind !== "text") throw new Error();
 * if (request.headers.map(([n]) => n).join() !== "X-Note,content-type,accept") throw new Error();
 * ```
 */
export function sendRequest(values: RequestValues, positionals: string[]): SendRequest {
  const [given, url] = methodAndUrl(values, positionals);
  const { body, type } = bodyOf(values);
  const method = methodOf(given, body);
  checkUrl(url);
  const headers = headersOf(values.header ?? []);
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (type && !has("content-type")) headers.push(["content-type", type]);
  if (values.json !== undefined && !has("accept")) headers.push(["accept", "application/json"]);
  return { method, url, headers, ...(body ? { body } : {}), follow: values.follow === true };
}
