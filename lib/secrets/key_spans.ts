/**
 * Where a secret that is an ordinary word (a password `password`) stands as a key of the text
 * flowrun writes (`{"password": …}`, `password: …`, `password=…`), it is the field's name, not
 * the secret: masking it there made `{"***": "***"}` of every printed body. A secret that is not
 * an ordinary word is masked wherever it stands.
 *
 * @module
 */
import type { Span } from "./secret_index.ts";

/** Letters in words, as a person types them: no digit, at most 24 characters. */
const WORD = /^[A-Za-z]+(?:[_-][A-Za-z]+)*$/;

/**
 * Drops from `spans` (in place) those that cover an ordinary word used as a key in `text`:
 * quoted and followed by `:` (JSON), or followed by `:` or `=` (YAML, a form, a query); gives
 * how many spans are left.
 *
 * @example
 * ```ts
 * import { dropKeySpans } from "./key_spans.ts";
 * const text = '{"password":"password"}';
 * const spans: [number, number][] = [[2, 10], [13, 21]];
 * if (dropKeySpans(text, spans) !== 1 || spans[0][0] !== 13) throw new Error(JSON.stringify(spans));
 * ```
 */
export function dropKeySpans(text: string, spans: Span[]): number {
  let kept = 0;
  for (const span of spans) {
    if (!isKey(text, span)) spans[kept++] = span;
  }
  spans.length = kept;
  return kept;
}

function isKey(text: string, [start, end]: Span): boolean {
  const word = text.slice(start, end);
  if (word.length > 24 || !WORD.test(word)) return false;
  // The whole word, not a part of a longer one.
  if (/[\w-]/.test(text[start - 1] ?? "") || /[\w-]/.test(text[end] ?? "")) return false;
  const quoted = text[start - 1] === '"' && text[end] === '"';
  const after = text.slice(end + (quoted ? 1 : 0), end + (quoted ? 1 : 0) + 3);
  return quoted ? /^\s*:/.test(after) : /^(?::\s|=)/.test(after);
}
