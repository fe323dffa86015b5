/**
 * Comments in a raw JSON body, as Postman sends it: Postman's editor accepts `//` and `/* … *\/`
 * in a JSON body (collections use them to say what a negative case leaves out:
 * `"username": "admin" // Missing password`), and Postman's runtime takes them out before sending
 * (postman-runtime's pre-send step, with strip-json-comments, leaving no whitespace where each
 * was). A flow sends its body as written, so a body keeping them is no JSON and a server refuses
 * it where Newman's request passed.
 *
 * @module
 */
import { commentEnd } from "../annotated_json.ts";
import type { PmPair, PmRequest } from "./model.ts";

/** A JSON media type, as Postman's runtime tells one (`application/json`, `…+json`). */
const JSON_TYPE = /^application\/(\S+\+)?json/;

/**
 * `text` without its comments outside JSON strings: a line comment up to its line's end (a
 * `\r` before the `\n` goes with it), a block comment whole; the rest kept byte for byte.
 *
 * @example
 * ```ts
 * import { stripComments } from "./json_comments.ts";
 * const out = stripComments('{"a": "x//y", // note\r\n "b": 1 /* two *\/}');
 * if (out !== '{"a": "x//y", \n "b": 1 }') throw new Error(JSON.stringify(out));
 * ```
 */
export function stripComments(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    const end = commentEnd(text, i);
    if (end >= 0) i = end - 1;
    else (inString = c === '"'), (out += c);
  }
  return out;
}

/** Whether Postman reads the request's raw body as JSON: its language, else its Content-Type. */
function readAsJson(r: PmRequest): boolean {
  const language = r.body?.language;
  if (language) return language === "json";
  const type = r.headers.find((h: PmPair) => !h.disabled && /^content-type$/i.test(h.key));
  return type !== undefined && JSON_TYPE.test(type.value ?? "");
}

/**
 * The request's body as Postman sends it: a raw JSON body without its comments; any other body,
 * and a raw body with none, as it is.
 *
 * @example
 * ```ts
 * import { sentBody } from "./json_comments.ts";
 * const r = { headers: [], body: { mode: "raw", raw: '{"a": 1 // one\n}', language: "json" } };
 * if (sentBody(r as never)?.raw !== '{"a": 1 \n}') throw new Error();
 * ```
 */
export function sentBody(r: PmRequest): PmRequest["body"] {
  const body = r.body;
  if (body?.mode !== "raw" || !body.raw || !/\/[/*]/.test(body.raw)) return body;
  return readAsJson(r) ? { ...body, raw: stripComments(body.raw) } : body;
}
