/**
 * What `flowrun send` prints of its one exchange: the lines `run -vv` prints
 * under a step (`lib/report/console_step.ts`: the request line with the
 * status, `>` request headers, the request body, `<` response headers, the
 * response body pretty-printed when JSON), without a run around them. A
 * body that is not text is summarised, and one past
 * {@linkcode MAX_SHOWN_CHARS} is cut with a note. Masking is the output's
 * (every line passes the CLI's redactor) and the run's (results are masked).
 *
 * @module
 */
import type { FlowResult, StepResult } from "../../lib/model/result.ts";
import { stepDetails } from "../../lib/report/console_step.ts";
import type { Style } from "../../lib/report/style.ts";
import { thousands } from "../../lib/_util/thousands.ts";

/**
 * Characters of a response body printed; the rest is counted in a note.
 *
 * @example
 * ```ts
 * import { MAX_SHOWN_CHARS } from "./print.ts";
 * if (MAX_SHOWN_CHARS !== 1024 * 1024) throw new Error();
 * ```
 */
export const MAX_SHOWN_CHARS = 1024 * 1024;

/** Content types that are never text. */
const BINARY_TYPE =
  /^(image|audio|video|font)\/|^application\/(octet-stream|pdf|zip|gzip|x-tar|wasm|x-protobuf|protobuf|msgpack)/;

/**
 * Whether a body is not text: a binary content type, or bytes that did not
 * decode (U+FFFD) or a NUL, which no text format holds.
 *
 * @example
 * ```ts
 * import { isBinary } from "./print.ts";
 * if (!isBinary("image/png", "x") || !isBinary(undefined, "PK\u0003\u0004\u0000") || isBinary("text/plain", "hi")) {
 *   throw new Error();
 * }
 * ```
 */
export function isBinary(contentType: string | undefined, body: string): boolean {
  // A NUL is matched on purpose: no text format holds one.
  // deno-lint-ignore no-control-regex
  return BINARY_TYPE.test(contentType ?? "") || /[\u0000\ufffd]/.test(body);
}

/**
 * The response as printed: a binary body summarised, a long one cut, with
 * the note that says so (printed after the body).
 */
function shownResponse(step: StepResult): { step: StepResult; note?: string } {
  const response = step.response;
  const body = response?.body;
  if (!response || body === undefined || body === "") return { step };
  if (isBinary(response.content_type, body)) {
    const length = response.headers?.["content-length"];
    const size = length && /^\d+$/.test(length) ? `, ${length} bytes` : "";
    return { step: { ...step, response: { ...response, body: `(binary${size}: not shown)` } } };
  }
  if (body.length <= MAX_SHOWN_CHARS) return { step };
  const more = thousands(body.length - MAX_SHOWN_CHARS);
  return {
    step: { ...step, response: { ...response, body: body.slice(0, MAX_SHOWN_CHARS) } },
    note: `… ${more} more characters not shown (the first 1 MiB is).`,
  };
}

/**
 * The lines of one exchange, as `run -vv` prints them under its step.
 *
 * @example
 * ```ts
 * import { exchangeLines } from "./print.ts";
 * import { style } from "../../lib/report/style.ts";
 * const step = { name: "get", status: "passed", duration_ms: 1, attempts: 1, line: 1, column: 1,
 *   assertions: [], captures: [], request: { method: "GET", url: "http://x.test/", headers: { accept: "*\/*" } },
 *   response: { status: 200, content_type: "application/json", headers: { "content-type": "application/json" },
 *     body: '{"ok":true}' } };
 * const lines = exchangeLines(step as never, style(false));
 * if (lines.join("\n") !== 'GET http://x.test/ → 200\n> accept: *\/*\n< content-type: application/json\n' +
 *   'response body (application/json):\n  {"ok":true}') throw new Error(lines.join("\n"));
 * ```
 */
export function exchangeLines(step: StepResult, s: Style): string[] {
  const { step: shown, note } = shownResponse(step);
  // The step as run -vv prints it; its failure (no response) is said by the caller.
  const passed: StepResult = { ...shown, status: "passed" };
  const flow = { file: "", steps: [passed] } as unknown as FlowResult;
  const lines = stepDetails(flow, passed, { verbose: 2, curl: false }, s);
  return note ? [...lines, s.dim(note)] : lines;
}
