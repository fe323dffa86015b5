/**
 * The redactor: the registry of a run's secret values and the one function
 * every text passes through on its way to an artifact. It masks registered
 * values raw, in the forms the runner itself writes (JSON, percent-encoding,
 * base64 at any alignment, `Basic` credentials), inside any escaping a target
 * chose (decoded first, see `decode.ts`), where a cut made a value end in `…`,
 * and values shaped like JSON Web Tokens whether registered or not. Pure: no
 * I/O, no `Deno.*`.
 *
 * @module
 */
import { decodedViews } from "./decode.ts";
import { jsonHead } from "../_util/json_head.ts";
import { entryLength, SubstringTable } from "./substring_table.ts";
import { headOf, type Masking } from "../model/masking.ts";

/**
 * What a secret is replaced with: short, and plainly not a real value.
 *
 * @example
 * ```ts
 * import { MASK, Redactor } from "./redactor.ts";
 * const r = new Redactor();
 * r.add("hunter22");
 * if (r.redact("pw=hunter22") !== `pw=${MASK}`) throw new Error();
 * ```
 */
export const MASK = "***";

/**
 * Values shorter than this (in UTF-16 code units, not counting surrounding
 * whitespace) are never registered: masking "1", "ab" or "yes" would shred
 * every output (status codes, counts, ordinary words) while hiding almost
 * nothing a guesser could not try anyway.
 *
 * @example
 * ```ts
 * import { MIN_SECRET_LENGTH, Redactor } from "./redactor.ts";
 * const r = new Redactor();
 * r.add("x".repeat(MIN_SECRET_LENGTH - 1));
 * if (r.size !== 0) throw new Error("short values are ignored");
 * ```
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * Length of the pieces of a long secret that are masked on their own: a
 * server that echoes a secret cut short (an error message quoting the first
 * 1,000 characters of a token) must not leak that part.
 */
const PIECE = 16;

/** What every shortened text ends with; the redactor also masks a secret's start before it. */
const CUT = "…";

// ---------------------------------------------------------------------------
// Forms of a secret the runner's own writers produce; finding them directly is
// cheaper than decoding every text, and base64 can only be found this way.

const lowerHex = (s: string) =>
  s.includes("%") ? s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()) : s;

/** `encodeURIComponent` and friends throw on a lone surrogate; skip that form. */
function tryEncode(encode: (s: string) => string, s: string): string | undefined {
  try {
    return encode(s);
  } catch {
    return undefined;
  }
}

/** The inside of `JSON.stringify(s)`. */
const jsonInner = (s: string) => JSON.stringify(s).slice(1, -1);

/** Printable ASCII but space, `"`, `/` and `\`: what JSON and `\/` leave as is. */
const JSON_PLAIN = /^[!#-.0-[\]-~]*$/;

/** What encodeURIComponent, encodeURI and form encoding all leave as is. */
const URL_PLAIN = /^[A-Za-z0-9*._-]*$/;

/** The value, whitespace-collapsed (one-line messages), JSON-escaped once and twice, `\/` too. */
function textForms(value: string): string[] {
  // Most secrets (tokens, keys, ids) have no whitespace and nothing JSON escapes: one form.
  if (JSON_PLAIN.test(value)) return [value];
  const flat = value.replace(/\s+/g, " ");
  const out: string[] = [];
  for (const v of new Set([value, flat, flat.trim()])) {
    const once = jsonInner(v);
    out.push(v);
    for (const json of [once, jsonInner(once)]) out.push(json, json.replaceAll("/", "\\/"));
  }
  return out;
}

/** Percent-encoded forms: component, form (`+` for space), whole-URI; both hex cases. */
function urlForms(value: string): string[] {
  // Letters, digits and -_.* are left as they are by all three encoders: no other form.
  if (URL_PLAIN.test(value)) return [];
  const component = tryEncode(encodeURIComponent, value);
  const forms = [
    component,
    component?.replaceAll("%20", "+"),
    formEncoded(value),
    tryEncode(encodeURI, value),
  ].filter((f): f is string => f !== undefined);
  return [...forms, ...forms.map(lowerHex)];
}

/**
 * `value` as `URLSearchParams` writes a form value (the URL standard's
 * application/x-www-form-urlencoded serializer): what `encodeURIComponent`
 * writes, `!'()~` escaped too, `+` for a space, a lone surrogate as U+FFFD.
 * The same string as `new URLSearchParams({ v: value }).toString().slice(2)`,
 * without building an object through Deno's WebIDL layer (about 20 µs a
 * registered value, one per login of a long suite).
 *
 * @example
 * ```ts
 * import { formEncoded } from "./redactor.ts";
 * if (formEncoded("a b!~é") !== "a+b%21%7E%C3%A9") throw new Error(formEncoded("a b!~é"));
 * ```
 */
export function formEncoded(value: string): string {
  return encodeURIComponent(value.toWellFormed())
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll("%20", "+");
}

const UTF8 = new TextEncoder();

/** Shortest base64 run accepted as a hit: fewer characters match by chance. */
const MIN_BASE64_RUN = 4;

/**
 * The characters of base64(…secret…) that depend only on the secret's bytes,
 * for each of the three positions the secret can start at within a 3-byte
 * group, in the standard and URL-safe alphabets. Character i covers bits
 * [6i, 6i+6); with p filler bytes before it the secret covers bits
 * [8p, 8(p+n)), so the fully determined characters are those with
 * 6i ≥ 8p and 6i+6 ≤ 8(p+n).
 */
function base64Runs(value: string): string[] {
  const bytes = UTF8.encode(value);
  const runs: string[] = [];
  for (let p = 0; p < 3; p++) {
    // p filler bytes before, zeros after to a whole group (they only touch characters cut off).
    const padded = new Uint8Array(Math.ceil((p + bytes.length) / 3) * 3);
    padded.set(bytes, p);
    // The typed array's own encoder: `btoa` wants a binary string and costs ~2 ms to load.
    const run = padded.toBase64().slice(
      Math.ceil((8 * p) / 6),
      Math.floor((8 * (p + bytes.length)) / 6),
    );
    if (run.length < MIN_BASE64_RUN) continue;
    runs.push(run);
    // Letters and digits only: the URL-safe, percent-encoded and `\/` forms are the same.
    if (!run.includes("+") && !run.includes("/")) continue;
    const inQuery = encodeURIComponent(run);
    runs.push(
      run.replaceAll("+", "-").replaceAll("/", "_"),
      inQuery,
      lowerHex(inQuery),
      run.replaceAll("/", "\\/"),
    );
  }
  return runs;
}

/** Auth schemes whose credential follows one space: `Bearer abc`, `Basic dXNl…`. */
const AUTH_SCHEME = /^(Basic|Bearer|Token|ApiKey|DPoP|Negotiate|NTLM)\s+(\S+)$/i;

/** Decodes standard or URL-safe base64 as UTF-8, or undefined. */
function decodeBase64(text: string): string | undefined {
  try {
    const bytes = Uint8Array.fromBase64(text.replaceAll("-", "+").replaceAll("_", "/"));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * JSON Web Tokens (and a JWT cut short by `…`) are masked by shape, registered
 * or not: a second user's token in a response body is as secret as one's
 * own. The header and payload are base64url JSON objects, so both start `eyJ`.
 */
const JWT =
  /eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{2,}(?:\.[A-Za-z0-9_-]*)?|eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*)?(?=…)/g;

/** Characters a base64 blob is made of, used to widen a base64 hit. */
const BASE64_CHAR = /[A-Za-z0-9+/_-]/;

type Span = [start: number, end: number];

/** What code that shortens values for people needs of a redactor; defined in `model/`. */
export type { Masking } from "../model/masking.ts";

/** How many line breaks `text` holds. */
function breaks(text: string): number {
  let n = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) n++;
  return n;
}

/** Sorts spans and merges overlapping or touching ones. */
function merge(spans: Span[]): Span[] {
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Span[] = [];
  for (const [s, e] of spans) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/**
 * Masks registered secret values, raw and encoded, in any text.
 *
 * @example
 * ```ts
 * import { Redactor } from "./redactor.ts";
 * const r = new Redactor();
 * r.add("s3cr3t/+=& value");
 * const url = "https://api.test/?token=" + encodeURIComponent("s3cr3t/+=& value");
 * if (r.redact(url) !== "https://api.test/?token=***") throw new Error(r.redact(url));
 * if (r.redact('{"p":"s3cr3t\\u002F\\u002B=\\u0026 value"}') !== '{"p":"***"}') throw new Error();
 * ```
 */
export class Redactor implements Masking {
  /** Registered values, in the order added. */
  #values = new Set<string>();
  /** Values given to `add` (before their parts are derived). */
  #added = new Set<string>();
  /**
   * Every literal to mask (flag `LITERAL`, and `BASE64` for a base64 run,
   * masked a little wider) and every 16-character piece of a long secret
   * (flag `PIECE`), by length and hash.
   */
  #table = new SubstringTable();
  /** How many literals the table holds. */
  #literalCount = 0;
  /** The distinct lengths of literals in each length class (see `classOf`), shortest first. */
  #lengths: number[][] = LENGTH_CLASSES.map(() => []);
  /**
   * By the hash of four characters: `PIECE_BIT` when a piece starts with
   * them, and the bit of each length class of the literals that do. Most
   * positions of a text stop at this one read; the others ask the table only
   * for the lengths that may start there.
   */
  #filter = new Uint8Array(FILTER_SIZE);
  /**
   * One bit per hash of the first eight characters of each piece and of each
   * literal of eight or more. Tokens soon start with every four hex digits
   * there are (65,536 of them), so past a few thousand tokens the four-
   * character filter held at every hex position and each asked the table
   * (redaction took twice as long per character); this bit leaves the table
   * a few positions in a hundred.
   */
  #starts8 = new Uint8Array(STARTS8_BITS / 8);
  /** UTF-16 units a decoded view must produce to be worth building (see `decodedViews`). */
  #wanted = ESCAPE_UNITS.slice();
  #isWanted = (unit: number) => this.#wanted[unit] === 1;
  /** The longest literal, which bounds how far back a cut secret can start. */
  #longest = 0;
  /**
   * The shortest literal or piece: a text shorter than it holds neither
   * (nor does any decoding of it, which is never longer), so only a cut
   * secret or a JWT can be found in it.
   */
  #shortest = Infinity;

  /**
   * Registers a secret value. Also registers its parts: the value trimmed;
   * for an Authorization-style value (`Basic|Bearer|Token|ApiKey|DPoP|
   * Negotiate|NTLM <credential>`) the credential; and for `Basic` the decoded
   * `user:password` and the password alone (the user name alone is not
   * secret). Values shorter than {@linkcode MIN_SECRET_LENGTH}, not counting
   * surrounding whitespace, are ignored. Idempotent.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("Basic " + btoa("demo:hunter22"));
   * r.add("Basic " + btoa("demo:hunter22"));
   * // the value, the credential, "demo:hunter22" and "hunter22"
   * if (r.size !== 4) throw new Error(String(r.size));
   * if (r.redact("password=hunter22") !== "password=***") throw new Error();
   * ```
   */
  add(value: string): void {
    // The same values arrive with every request (a token in each Authorization header):
    // known ones stop here, before trimming, scheme matching and decoding again.
    if (this.#added.has(value)) return;
    this.#added.add(value);
    const trimmed = value.trim();
    const auth = AUTH_SCHEME.exec(trimmed);
    // The base64 forms and the pieces of `Bearer <credential>` are the credential's: base64 of
    // the value holds the credential's at one alignment, and a piece that is not inside the
    // credential is mostly the scheme. Registering the credential's alone halves the work
    // of the registration every flow that logs in makes.
    this.#register(value, auth === null);
    this.#register(trimmed, auth === null);
    if (!auth) return;
    this.#register(auth[2]);
    if (auth[1].toLowerCase() !== "basic") return;
    const decoded = decodeBase64(auth[2]);
    const colon = decoded?.indexOf(":") ?? -1;
    if (decoded === undefined || colon < 0) return;
    this.#register(decoded);
    this.#register(decoded.slice(colon + 1));
  }

  /**
   * Whether a value was registered (as given, or as a part of one).
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("Bearer abc123");
   * if (!r.has("abc123") || r.has("abc")) throw new Error();
   * ```
   */
  has(value: string): boolean {
    return this.#values.has(value);
  }

  /** Registers `value`'s literals and, with `whole`, its base64 forms and pieces. */
  #register(value: string, whole = true): void {
    if (value.trim().length < MIN_SECRET_LENGTH || this.#values.has(value)) return;
    this.#values.add(value);
    // Most forms of a value are the value again (`Bearer t` has five text forms, one distinct).
    const literals = new Set(textForms(value));
    for (const f of urlForms(value)) literals.add(f);
    // Each form as a POSIX shell's single quotes write it (`'` as `'\''`): a pasted command.
    for (const f of [...literals]) if (f.includes("'")) literals.add(f.replaceAll("'", "'\\''"));
    for (const f of literals) if (f.length >= MIN_SECRET_LENGTH) this.#literal(f, false);
    if (!whole) return;
    // Base64 of the value and of its JSON forms (a base64 blob of a JSON document, maybe nested).
    const forms = JSON_PLAIN.test(value)
      ? [value]
      : new Set([value, jsonInner(value), jsonInner(jsonInner(value))]);
    for (const form of forms) {
      for (const run of base64Runs(form)) this.#literal(run, true);
    }
    if (value.length < PIECE) return;
    this.#shortest = Math.min(this.#shortest, PIECE);
    this.#table.addEach(value, PIECE, PIECE_FLAG);
    let h4 = hash4(value, 0);
    let h8 = hash8(value, 0);
    for (let i = 0;; i++) {
      this.#filter[h4] |= PIECE_BIT;
      this.#markStart8(h8);
      if (i + PIECE >= value.length) return;
      h4 = roll4(h4, value.charCodeAt(i + 4));
      h8 = roll8(h8, value.charCodeAt(i), value.charCodeAt(i + 8));
    }
  }

  #literal(literal: string, base64: boolean): void {
    const flags = base64 ? LITERAL_FLAG | BASE64_FLAG : LITERAL_FLAG;
    const before = this.#table.add(literal, 0, literal.length, flags);
    if ((before & LITERAL_FLAG) !== 0) return;
    this.#literalCount++;
    this.#longest = Math.max(this.#longest, literal.length);
    this.#shortest = Math.min(this.#shortest, literal.length);
    // Its beginnings of 4, 8 and 16 units, for a literal cut short (see #cutStart).
    for (let n = MIN_SECRET_LENGTH; n <= LONGEST_PREFIX && n < literal.length; n *= 2) {
      this.#table.add(literal, 0, n, PREFIX_FLAG);
    }
    if (literal.length >= 8) this.#markStart8(hash8(literal, 0));
    const lengthClass = classOf(literal.length);
    this.#filter[hash4(literal, 0)] |= CLASS_BIT << lengthClass;
    const lengths = this.#lengths[lengthClass];
    if (!lengths.includes(literal.length)) {
      lengths.push(literal.length);
      lengths.sort((a, b) => a - b);
    }
    for (let i = 0; i < literal.length; i++) this.#wanted[literal.charCodeAt(i)] = 1;
  }

  /** Sets the `#starts8` bit of eight characters, given their {@linkcode hash8}. */
  #markStart8(h8: number): void {
    const b = bit8(h8);
    this.#starts8[b >>> 3] |= 1 << (b & 7);
  }

  /**
   * The length of the longest literal at `at` (negative when it is a base64
   * run), or 0: only the length classes the filter names are asked for.
   */
  #hit(text: string, at: number, bits: number): number {
    for (let c = LENGTH_CLASSES.length - 1; c >= 0; c--) {
      if ((bits & (CLASS_BIT << c)) === 0) continue;
      const word = this.#table.longestAt(text, at, this.#lengths[c], LITERAL_FLAG);
      if (word === 0) continue;
      const length = entryLength(word);
      return (word & BASE64_FLAG) !== 0 ? -length : length;
    }
    return 0;
  }

  /**
   * Number of distinct registered values, parts included (for tests).
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("Bearer abc123");
   * if (r.size !== 2) throw new Error(); // the value and "abc123"
   * ```
   */
  get size(): number {
    return this.#values.size;
  }

  /** Spans of registered literals, of literals cut short before `…`, and of JWTs. */
  #spans(text: string, spans: Span[], map?: (s: number, e: number) => Span): void {
    const push = (s: number, e: number) => spans.push(map ? map(s, e) : [s, e]);
    const last = text.length - MIN_SECRET_LENGTH;
    if (this.#literalCount > 0) {
      const filter = this.#filter;
      const starts8 = this.#starts8;
      // hash4 of a space and the first three units, rolled forward below (not of `" " + text`,
      // which V8 would flatten: a copy of the whole text per call).
      let h = roll4(roll4(roll4(0x20, text.charCodeAt(0)), text.charCodeAt(1)), text.charCodeAt(2));
      // The eight-character hash at `at8`, rolled forward when asked again within eight units.
      let h8 = 0;
      let at8 = -9;
      for (let i = 0; i <= last; i++) {
        h = roll4(h, text.charCodeAt(i + 3));
        let bits = filter[h];
        if (bits === 0) continue;
        // Pieces and literals of eight or more units start only where the second filter says so.
        if ((bits & ~CLASS_BIT) !== 0) {
          const fits = i + 8 <= text.length;
          if (fits) {
            h8 = i - at8 > 8 ? hash8(text, i) : rollTo(h8, text, at8, i);
            at8 = i;
          }
          const b = bit8(h8);
          if (!fits || (starts8[b >>> 3] & (1 << (b & 7))) === 0) bits &= CLASS_BIT;
        }
        if ((bits & PIECE_BIT) !== 0 && (this.#table.flagsAt(text, i, PIECE) & PIECE_FLAG) !== 0) {
          push(i, i + PIECE);
        }
        if ((bits & CLASS_BITS) === 0) continue;
        const hit = this.#hit(text, i, bits);
        if (hit === 0) continue;
        let start = i;
        let end = i + Math.abs(hit);
        if (hit < 0) {
          // The characters around a base64 run mix the secret's bits with its neighbours'.
          if (start > 0 && BASE64_CHAR.test(text[start - 1])) start--;
          if (end < text.length && BASE64_CHAR.test(text[end])) end++;
          while (text[end] === "=") end++;
        }
        push(start, end);
      }
      for (let cut = text.indexOf(CUT); cut !== -1; cut = text.indexOf(CUT, cut + 1)) {
        const start = this.#cutStart(text, cut);
        if (start !== undefined) push(start, cut);
      }
    }
    if (text.includes("eyJ")) {
      for (const m of text.matchAll(JWT)) push(m.index, m.index + m[0].length);
    }
  }

  /**
   * Where a registered literal may start whose beginning, at least four
   * characters, ends at `cut`: the stretch up to the cut begins with one of
   * the literal's registered beginnings (4, 8 or 16 units) at least half
   * as long as the stretch, or 16 units for a longer one (sixteen characters
   * of a secret's beginning are the secret). Never misses a cut secret; may
   * mask a stretch that only begins like one (keeping every literal's text
   * to be exact cost about 1 KiB per secret).
   */
  #cutStart(text: string, cut: number): number | undefined {
    for (let j = Math.max(0, cut - this.#longest); j <= cut - MIN_SECRET_LENGTH; j++) {
      if ((this.#filter[hash4(text, j)] & CLASS_BITS) === 0) continue;
      let n = MIN_SECRET_LENGTH;
      while (n * 2 <= cut - j && n < LONGEST_PREFIX) n *= 2;
      if ((this.#table.flagsAt(text, j, n) & PREFIX_FLAG) !== 0) return j;
    }
    return undefined;
  }

  /**
   * Replaces every occurrence of every registered secret in `text` with
   * {@linkcode MASK}, in every form a reader could turn back into it:
   *
   * - raw, and with whitespace runs collapsed to one space;
   * - inside any stack of up to three decodings of JSON string escapes (any
   *   character as `\uXXXX`, either hex case, `\/`), percent-encoding (either
   *   hex case, `+` for space) and HTML/XML character references (named,
   *   decimal, hex): the text is decoded, the secret found there, and its
   *   whole encoded extent masked in the original;
   * - inside a larger base64 or base64url string at any byte alignment (a hit
   *   is widened by one character each side plus `=` padding);
   * - cut short: at least its first four characters directly before `…`, and
   *   any 16 consecutive characters of it anywhere (a server quoting part of
   *   a token);
   * - and any JSON Web Token, registered or not.
   *
   * Overlapping hits merge into one mask. Text with no hit is returned
   * unchanged (the same string).
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("hunter22+ok");
   * if (r.redact("pw=hunter22\\u002Bok") !== "pw=***") throw new Error();
   * if (r.redact("pw=hunt…") !== "pw=***…") throw new Error();
   * if (r.redact("pw=hunter22&#43;ok") !== "pw=***") throw new Error();
   * const clean = "step login passed";
   * if (r.redact(clean) !== clean) throw new Error();
   * ```
   */
  redact(text: string): string {
    if (text.length < MIN_SECRET_LENGTH) return text;
    if (this.#literalCount === 0 && !text.includes("eyJ")) return text;
    // Most texts of a result are short (names, statuses, values): one comparison each.
    if (text.length < this.#shortest && !text.includes(CUT) && !text.includes("eyJ")) return text;
    const spans: Span[] = [];
    this.#spans(text, spans);
    for (const view of decodedViews(text, this.#isWanted)) {
      this.#spans(view.text, spans, (s, e) => [view.from[s], view.to[e - 1]]);
    }
    if (spans.length === 0) return text;
    let out = "";
    let at = 0;
    for (const [s, e] of merge(spans)) {
      out += text.slice(at, s) + MASK;
      at = e;
    }
    return out + text.slice(at);
  }

  /**
   * {@linkcode redact} for a text of whole lines (a flow's lines of a log)
   * that must keep every line break: masked at once, which costs about half
   * of masking each line, unless a mask would swallow a line break (a
   * secret with a line break in it, or a cut one reaching back across a
   * line), in which case each line is masked on its own. Every decoding
   * that matters anywhere in the text is tried on all of it, so nothing
   * masked line by line is missed.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("tok-1234");
   * r.add("end\nstart");
   * if (r.redactLines('{"a":"tok-1234"}\n{"b":2}\n') !== '{"a":"***"}\n{"b":2}\n') throw new Error();
   * if (r.redactLines("x end\nstart y\n") !== "x end\nstart y\n") throw new Error();
   * ```
   */
  redactLines(text: string): string {
    const masked = this.redact(text);
    if (masked === text || breaks(masked) === breaks(text)) return masked;
    return text.split("\n").map((line) => this.redact(line)).join("\n");
  }

  /**
   * Masks `text`, then shortens it to at most `max` characters (code points)
   * ending in `…`: the only safe order, since a cut secret is no longer
   * recognisable. A cut never splits a mask or a surrogate pair.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * const jwtLike = "k".repeat(200);
   * r.add(jwtLike);
   * if (r.shorten(`token ${jwtLike} end`, 20) !== "token *** end") throw new Error();
   * if (r.shorten(`token ${jwtLike} end`, 9) !== "token …") throw new Error();
   * if (r.shorten("abcdefghijkl", 5) !== "abcd…") throw new Error();
   * ```
   */
  shorten(text: string, max: number): string {
    return this.head(text, max - 1, max);
  }

  /**
   * Masks `text`, then keeps its first `keep` characters (code points)
   * followed by `…` when the masked text is longer than `limit` (default
   * `keep`). A cut never splits a mask or a surrogate pair.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("s3cret-value");
   * if (r.head("id s3cret-value", 3) !== "id …") throw new Error();
   * if (r.head("abcdef", 5) !== "abcde…" || r.head("abcde", 5) !== "abcde") throw new Error();
   * ```
   */
  head(text: string, keep: number, limit = keep): string {
    return headOf(this.redact(text), keep, limit);
  }

  /**
   * Deep-redacts a JSON-like (acyclic) value: every string in it, at any
   * depth of arrays and plain objects, goes through {@linkcode redact}, and a
   * number that was registered as a secret becomes {@linkcode MASK}; object
   * keys stay as they are. Returns a new array or object only where something
   * changed, otherwise the same one. Values of other kinds (class instances,
   * Maps, Dates) are returned untouched: convert them first.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("tok-1234");
   * r.add("987654");
   * const clean = { ok: true };
   * const v = r.redactValue({ headers: [["authorization", "Bearer tok-1234"]], pin: 987654, clean });
   * if (v.headers[0][1] !== "Bearer ***" || (v.pin as unknown) !== "***" || v.clean !== clean) throw new Error();
   * ```
   */
  redactValue<T>(value: T): T {
    if (value !== null && typeof value === "object" && this.#clean(value)) return value;
    return this.#redactDeep(value, 0);
  }

  /**
   * Whether nothing inside a JSON-like value holds a secret, by one scan of
   * its JSON text: every string is there JSON-escaped, which the scan decodes
   * (a secret in a string is a hit in the text), and a registered number is
   * there as its digits. A hit, or a value JSON cannot write, means the
   * value is walked. Most step results hold no secret: one native
   * serialisation and one scan instead of a visit to every field.
   */
  #clean(value: object): boolean {
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch {
      return false;
    }
    return text !== undefined && this.redact(text) === text;
  }

  #redactDeep<T>(value: T, depth: number): T {
    if (typeof value === "string") return this.redact(value) as T;
    // Deeper than any flow may nest, a value is masked as its JSON text: walking it would
    // overflow the stack, and no report needs its structure.
    if (depth > WALK_DEPTH && value !== null && typeof value === "object") {
      return this.redact(jsonHead(value, Infinity).text) as T;
    }
    if (typeof value === "number") return (this.#values.has(String(value)) ? MASK : value) as T;
    // Nothing is copied until something changes: most results hold no secret.
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const redacted = this.#redactDeep(value[i], depth + 1);
        if (redacted !== value[i]) out ??= value.slice(0, i);
        out?.push(redacted);
      }
      return (out ?? value) as T;
    }
    if (value !== null && typeof value === "object") {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return value;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      let entries: [string, unknown][] | undefined;
      for (let i = 0; i < keys.length; i++) {
        const item = record[keys[i]];
        const redacted = this.#redactDeep(item, depth + 1);
        if (redacted !== item) entries ??= keys.slice(0, i).map((key) => [key, record[key]]);
        entries?.push([keys[i], redacted]);
      }
      // fromEntries defines properties, so a "__proto__" key stays a plain key.
      return (entries ? Object.fromEntries(entries) : value) as T;
    }
    return value;
  }
}

/** How deep {@linkcode Redactor.redactValue} walks a value before it masks the rest as text. */
const WALK_DEPTH = 1000;

/** Entries of the filter in front of the literal and piece indexes (1 MiB). */
const FILTER_SIZE = 1 << 20;
const FILTER_MASK = FILTER_SIZE - 1;
/** Filter bit: a piece starts with these four characters. */
const PIECE_BIT = 1;
/** Filter bit of the shortest length class; each longer class has the next bit. */
const CLASS_BIT = 2;
/**
 * Literal lengths are grouped in classes of doubling size (4–7, 8–15, …,
 * 256 and up), one filter bit each, so a position is asked only about the
 * lengths of literals that may start there.
 */
const LENGTH_CLASSES = [4, 8, 16, 32, 64, 128, 256];
const CLASS_BITS = ((1 << LENGTH_CLASSES.length) - 1) * CLASS_BIT;

/** The length class of a literal of `length` units (four or more). */
function classOf(length: number): number {
  let c = 0;
  while (c + 1 < LENGTH_CLASSES.length && length >= LENGTH_CLASSES[c + 1]) c++;
  return c;
}

/** Flags of the table's entries. */
const LITERAL_FLAG = 1;
const BASE64_FLAG = 2;
const PIECE_FLAG = 4;
/** A literal's beginning of 4, 8 or 16 units (shorter than the literal). */
const PREFIX_FLAG = 8;
/** The longest beginning registered for a cut secret. */
const LONGEST_PREFIX = 16;

/**
 * Units a decoded view is always built for, whatever the secrets: those an
 * escape is written with (a decoded one may start or complete another escape
 * in a stacked view), those of a JSON Web Token (masked by shape, registered
 * or not) and the `…` a cut secret ends at.
 */
const ESCAPE_UNITS = (() => {
  const units = new Uint8Array(0x10000);
  for (const c of "\\%&;#_.-…") units[c.charCodeAt(0)] = 1;
  for (const [from, to] of [["0", "9"], ["A", "Z"], ["a", "z"]]) {
    for (let u = from.charCodeAt(0); u <= to.charCodeAt(0); u++) units[u] = 1;
  }
  return units;
})();

/** Bits of the filter of the first eight characters of pieces and long literals (512 KiB). */
const STARTS8_LOG2 = 22;
const STARTS8_BITS = 1 << STARTS8_LOG2;

/** Base of the eight-character polynomial hash, and its seventh power (what the unit leaving weighs). */
const P8 = 0x01000193;
const P8_7 = (() => {
  let p = 1;
  for (let k = 0; k < 7; k++) p = Math.imul(p, P8);
  return p;
})();

/**
 * The polynomial hash of the eight characters of `text` at `at`: rollable,
 * so a scan that asks at many positions pays two multiplications a step
 * (see {@linkcode roll8}); {@linkcode bit8} picks the filter bit.
 */
function hash8(text: string, at: number): number {
  let h = 0;
  for (let k = at; k < at + 8; k++) h = (Math.imul(h, P8) + text.charCodeAt(k)) | 0;
  return h;
}

/** {@linkcode hash8} moved one unit on: `out` leaves, `next` enters. */
function roll8(h: number, out: number, next: number): number {
  return (Math.imul((h - Math.imul(out, P8_7)) | 0, P8) + next) | 0;
}

/** {@linkcode hash8} at `from` rolled forward to `to` (at most eight units on: cheaper than afresh). */
function rollTo(h: number, text: string, from: number, to: number): number {
  for (let at = from; at < to; at++) h = roll8(h, text.charCodeAt(at), text.charCodeAt(at + 8));
  return h;
}

/** The `#starts8` bit of a {@linkcode hash8}: mixed, so every unit reaches the top bits kept. */
function bit8(h: number): number {
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> (32 - STARTS8_LOG2);
}

/** A filter index for the four characters of `text` at `at`: cheap, collisions are resolved by the index. */
function hash4(text: string, at: number): number {
  return ((text.charCodeAt(at) << 15) ^ (text.charCodeAt(at + 1) << 10) ^
    (text.charCodeAt(at + 2) << 5) ^ text.charCodeAt(at + 3)) & FILTER_MASK;
}

/** {@linkcode hash4} moved one unit on, `next` entering: the oldest falls off the top of the mask. */
function roll4(h: number, next: number): number {
  return ((h << 5) ^ next) & FILTER_MASK;
}
