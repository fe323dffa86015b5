/**
 * The parts of a secret that are not secret: a password written
 * `pw-${RUN_ID}` holds the run id, which the runner prints everywhere, and
 * `pw-${vars.id}` a var that is shown as a user name. The secret is masked
 * as a whole; its pieces and beginnings (what masks a quoted or cut part of
 * it) are taken only from the stretches no public text covers, or every
 * run id and user name would be masked too.
 *
 * @module
 */
import { mergeSpans, type Span } from "./secret_index.ts";

/**
 * Where public texts occur in `value`, sorted, overlapping or touching ones
 * merged. Texts shorter than `min` are not looked for.
 *
 * @example
 * ```ts
 * import { publicSpans } from "./public_parts.ts";
 * const spans = publicSpans("pw-run42run42-run42", ["run42"], 4);
 * if (JSON.stringify(spans) !== "[[3,13],[14,19]]") throw new Error(JSON.stringify(spans));
 * ```
 */
export function publicSpans(value: string, publics: Iterable<string>, min: number): Span[] {
  const spans: Span[] = [];
  for (const text of publics) {
    if (text.length < min) continue;
    for (let at = value.indexOf(text); at !== -1; at = value.indexOf(text, at + 1)) {
      spans.push([at, at + text.length]);
    }
  }
  return mergeSpans(spans);
}

/**
 * The stretches of `value` outside `spans` (as {@linkcode publicSpans} gives
 * them): the secret's own text, where its pieces come from.
 *
 * @example
 * ```ts
 * import { secretStretches } from "./public_parts.ts";
 * const parts = secretStretches("pw-run42-x", [[3, 8]]);
 * if (parts.join("|") !== "pw-|-x") throw new Error(parts.join("|"));
 * ```
 */
export function secretStretches(value: string, spans: readonly Span[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const [s, e] of spans) {
    if (s > at) out.push(value.slice(at, s));
    at = e;
  }
  if (at < value.length) out.push(value.slice(at));
  return out;
}

/**
 * Whether the spans cover all of `value` but surrounding whitespace: a
 * value made only of public text (`${RUN_ID}` alone) is no secret.
 *
 * @example
 * ```ts
 * import { coversAll } from "./public_parts.ts";
 * if (!coversAll(" run42 ", [[1, 6]]) || coversAll("pw-run42", [[3, 8]])) throw new Error();
 * ```
 */
export function coversAll(value: string, spans: readonly Span[]): boolean {
  return secretStretches(value, spans).every((part) => part.trim() === "");
}

/** `true`, `false`, `null`, however cased or spaced. */
const JSON_LITERAL = /^\s*(?:true|false|null)\s*$/i;

/**
 * The spans of `value` that are not its own secret text: where `publics`
 * (the run id) and `shown` values occur, or only the public ones when it is
 * made only of shown values (then the secret is one of them). Undefined when
 * it is made only of public texts, or is a JSON literal (`true`, `false`,
 * `null`: masking one garbles every JSON document): no secret at all.
 *
 * @example
 * ```ts
 * import { notSecretSpans } from "./public_parts.ts";
 * if (notSecretSpans("run42", new Set(["run42"]), [], 4) !== undefined) throw new Error();
 * const spans = notSecretSpans("pw-user1-run42", new Set(["run42"]), ["user1"], 4);
 * if (JSON.stringify(spans) !== "[[3,8],[9,14]]") throw new Error(JSON.stringify(spans));
 * if (notSecretSpans("user1", new Set(), ["user1"], 4)?.length !== 0) throw new Error();
 * ```
 */
export function notSecretSpans(
  value: string,
  publics: ReadonlySet<string>,
  shown: readonly string[],
  min: number,
): Span[] | undefined {
  if (JSON_LITERAL.test(value)) return undefined;
  const own = publicSpans(value, publics, min);
  if (coversAll(value, own)) return undefined;
  if (shown.length === 0) return own;
  const all = publicSpans(value, [...publics, ...shown], min);
  return coversAll(value, all) ? own : all;
}

/*
 * Where a secret that is an ordinary word (a password `password`) stands as a key of the text
 * flowrun writes (`{"password": …}`, `password: …`, `password=…`), it is the field's name, not
 * the secret: masking it there made `{"***": "***"}` of every printed body. A secret that is not
 * an ordinary word is masked wherever it stands.
 */

/** Letters in words, as a person types them: no digit, at most 24 characters. */
const WORD = /^[A-Za-z]+(?:[_-][A-Za-z]+)*$/;

/**
 * Drops from `spans` (in place) those that cover an ordinary word used as a key in `text`:
 * quoted and followed by `:` (JSON), or followed by `:` or `=` (YAML, a form, a query); gives
 * how many spans are left.
 *
 * @example
 * ```ts
 * import { dropKeySpans } from "./public_parts.ts";
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
