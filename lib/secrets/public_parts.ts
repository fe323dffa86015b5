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
import { TailedTexts } from "./tailed_texts.ts";

/** Up to how many public texts are each searched for, as cheap as an indexed look-up per place. */
const FEW_PUBLICS = 16;

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
  // A long recording's names (a step's, a capture's) are thousands: found by their index.
  if (publics instanceof TailedTexts && publics.size > FEW_PUBLICS) {
    for (const [at, text] of publics.places(value)) {
      if (text.length >= min) spans.push([at, at + text.length]);
    }
    return mergeSpans(spans);
  }
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
 * const link = notSecretSpans("http://h.test:4242/join?invite=x7Kq9", new Set(), [], 4);
 * if (JSON.stringify(link) !== "[[0,18]]") throw new Error(JSON.stringify(link));
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
  if (shown.length === 0) return withOrigin(value, own);
  const all = publicSpans(value, [...publics, ...shown], min);
  return withOrigin(value, coversAll(value, all) ? own : all);
}

/**
 * An absolute URL's scheme and host (with no userinfo) say where it points, not what it holds:
 * pieces of an invite link `http://localhost:4242/new-user?invite=…` masked `http://localhost:4242/`
 * in every other URL of the run. The URL is still masked whole, and its path and query by piece.
 */
function withOrigin(value: string, spans: Span[]): Span[] {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@\s]+(?=[/?#]|$)/i.exec(value);
  return origin ? mergeSpans([...spans, [0, origin[0].length]]) : spans;
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

/*
 * Masking a request's text by provenance. A secret that is an ordinary word (a password `admin`)
 * also stands where the flow wrote the word itself: a path `/admin/fail`, a header
 * `x-role: admin`. The runner masks a request where it substituted a secret and hands the
 * redactor the text it shows (`Redactor.shown`); inside such a shown text, as an output writes
 * it (raw, JSON- or XML-escaped), an ordinary-word secret is the flow's own text and stays.
 * Everywhere else, a response repeating the word included, it is masked as any secret is.
 */

/**
 * Letters in words (`articles`, `author_id`, `read-only`, `Bearer`), not the random text a server
 * issues or a password generator makes: no digit, at most 24 characters, and not mixed in case
 * the way random text is.
 *
 * @example
 * ```ts
 * import { isOrdinaryWord } from "./public_parts.ts";
 * if (!isOrdinaryWord("admin") || !isOrdinaryWord("read-only") || isOrdinaryWord("hunter22")) throw new Error();
 * ```
 */
export function isOrdinaryWord(value: string): boolean {
  if (value.length > 24 || !/^[A-Za-z]+(?:[ _.:-][A-Za-z]+)*$/.test(value)) return false;
  return (value.match(/[a-z][A-Z]|[A-Z][a-z]/g)?.length ?? 0) < 6;
}

/**
 * How many characters of shown texts and texts as sent are kept. Past it, a text as sent could no
 * longer be told, so no text is shown any more: every word is masked by value (the safe side).
 */
const MAX_CHARS = 4_000_000;
/** A shown text longer than this is not kept (a large body): its words stay masked. */
const MAX_LENGTH = 1 << 16;

const XML: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** The forms an output writes a text in: as it is, inside a JSON string, inside XML. */
function formsOf(text: string): string[] {
  const json = JSON.stringify(text).slice(1, -1);
  const xml = text.replace(/[&<>"']/g, (c) => XML[c]);
  return [...new Set([text, json, xml])];
}

/**
 * The ordinary-word secrets of a run and the shown texts they stay readable in.
 *
 * @example
 * ```ts
 * import { ShownTexts } from "./public_parts.ts";
 * const shown = new ShownTexts();
 * shown.noteSecret("admin");
 * shown.add("GET /admin/fail");
 * const text = 'url "GET /admin/fail", role admin';
 * const spans: [number, number][] = [[10, 15], [28, 33]];
 * if (shown.drop(text, spans, false) !== 1 || spans[0][0] !== 28) throw new Error(JSON.stringify(spans));
 * ```
 */
export class ShownTexts {
  /** The registered secrets that are ordinary words. */
  readonly words = new Set<string>();
  /** Forms of shown texts, by the word they hold. */
  #forms = new Map<string, Set<string>>();
  #chars = 0;
  /** Past {@linkcode MAX_CHARS}: nothing is shown any more. */
  #full = false;
  /** Shown JSON texts without their whitespace. */
  #squeezed = new Set<string>();
  /** Header-like pairs shown as `name\0value` (a record `{name: value}` of a report). */
  #pairs = new Set<string>();
  /**
   * Texts as sent where a secret was substituted, and such pairs: where one stands (a raw request
   * in the HAR, another flow's identical shown text), the word is masked.
   */
  #tainted = new Map<string, Set<string>>();
  #taintedPairs = new Set<string>();

  /** Notes a registered secret: an ordinary word is masked by provenance in shown texts. */
  noteSecret(value: string): void {
    if (isOrdinaryWord(value)) this.words.add(value);
  }

  /** The ordinary-word secrets `text` holds. */
  wordsIn(text: string): string[] {
    const found: string[] = [];
    for (const word of this.words) if (text.includes(word)) found.push(word);
    return found;
  }

  /**
   * Keeps `text` (a request's text, masked where a secret was substituted) as shown: the words
   * it holds are the flow's own there. A text that is only a word is kept as a `name: value`
   * pair by {@linkcode addPair}, never alone: alone, it would show the word everywhere.
   */
  add(text: string, tainted = false): void {
    if (this.#full || (text.length > MAX_LENGTH && !tainted)) return;
    if (text.length > MAX_LENGTH || this.#chars > MAX_CHARS) return void (this.#full = true);
    const trimmed = text.trim();
    for (const word of this.wordsIn(text)) {
      if (trimmed === word && !tainted) continue;
      this.#addForms(tainted ? this.#tainted : this.#forms, word, text);
      // A JSON body a console pretty-prints stands there spaced and broken into lines.
      if (/^[[{]/.test(trimmed) && !tainted) this.#addSqueezed(squeeze(text));
    }
  }

  #addForms(into: Map<string, Set<string>>, word: string, text: string): void {
    const forms = into.get(word) ?? new Set();
    if (forms.size === 0) into.set(word, forms);
    for (const form of formsOf(text)) {
      if (forms.has(form)) continue;
      forms.add(form);
      this.#chars += form.length;
    }
  }

  #addSqueezed(bare: string): void {
    if (this.#squeezed.has(bare)) return;
    this.#squeezed.add(bare);
    this.#chars += bare.length;
  }

  /** Keeps a shown text (of header `name`), and what was sent there when it differs. */
  keep(shown: string, name?: string, sent?: string): void {
    for (const [text, tainted] of [[shown, false], [sent, true]] as const) {
      if (text === undefined) continue;
      if (name === undefined) this.add(text, tainted);
      else this.addPair(name, text, tainted);
    }
  }

  /** Keeps a header the request sent as the flow wrote it, as every output writes a pair. */
  addPair(name: string, value: string, tainted = false): void {
    if (this.#full || this.wordsIn(value).length === 0) return;
    const pairs = tainted ? this.#taintedPairs : this.#pairs;
    pairs.add(`${name}\0${value}`);
    pairs.add(`${name.toLowerCase()}\0${value}`);
    for (const text of [`${name}: ${value}`, `"${name}": "${value}"`, `"${name}":"${value}"`]) {
      this.add(text, tainted);
    }
  }

  /** Whether `{name: value}` is a pair a request showed as written (and none sent it so). */
  hasPair(name: string, value: string): boolean {
    const pair = `${name}\0${value}`;
    return this.#pairs.has(pair) && !this.#taintedPairs.has(pair) && !this.#full;
  }

  /**
   * Drops from `spans` (in place) those that are only an ordinary-word secret: all of them
   * (`all`, a text being made shown), or those inside a shown text's occurrence in `text`.
   * Gives how many spans are left.
   */
  drop(text: string, spans: Span[], all: boolean): number {
    if (this.words.size === 0 || (!all && (this.#forms.size === 0 || this.#full))) {
      return spans.length;
    }
    let kept = 0;
    let spaced: Squeezed | undefined;
    for (const span of spans) {
      const word = this.#wordAt(text, span);
      if (word === undefined || all) {
        if (word === undefined) spans[kept++] = span;
        continue;
      }
      if (covers(this.#tainted, text, span, word)) spans[kept++] = span;
      else if (covers(this.#forms, text, span, word)) continue;
      else if (this.#squeezed.size === 0 || !text.includes("\n")) spans[kept++] = span;
      else if (!this.#coveredSpaced(spaced ??= squeezed(text), span)) spans[kept++] = span;
    }
    spans.length = kept;
    return kept;
  }

  /** The ordinary-word secret a span is (the word, or its beginning cut with `…`). */
  #wordAt(text: string, [start, end]: Span): string | undefined {
    const hit = text.slice(start, end);
    if (this.words.has(hit)) return hit;
    if (!hit.endsWith("…")) return undefined;
    const head = hit.slice(0, -1);
    for (const word of this.words) if (word.startsWith(head)) return word;
    return undefined;
  }

  /** Whether a shown JSON text stands around the span, spaced and broken into lines as it may. */
  #coveredSpaced(spaced: Squeezed, [start, end]: Span): boolean {
    const [from, to] = [spaced.at[start], spaced.at[end - 1] + 1];
    for (const form of this.#squeezed) {
      const at = spaced.text.indexOf(form, Math.max(0, to - form.length));
      if (at !== -1 && at <= from) return true;
    }
    return false;
  }
}

/** Whether one of the texts holding `word` stands in `text` around the span. */
function covers(texts: Map<string, Set<string>>, text: string, [start, end]: Span, word: string) {
  for (const form of texts.get(word) ?? []) {
    const at = text.indexOf(form, Math.max(0, end - form.length));
    if (at !== -1 && at <= start) return true;
  }
  return false;
}

/** A text without its whitespace, and where each of its characters went. */
interface Squeezed {
  text: string;
  at: Int32Array;
}

const squeeze = (text: string) => text.replace(/\s+/g, "");

function squeezed(text: string): Squeezed {
  const at = new Int32Array(text.length + 1);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    at[i] = n;
    if (!/\s/.test(text[i])) n++;
  }
  at[text.length] = n;
  return { text: squeeze(text), at };
}
