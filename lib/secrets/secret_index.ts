/**
 * The index of the literals a redactor masks: every text form of every
 * registered secret and every 16-unit piece of a long one, behind filters
 * that let most positions of a text stop at one read. `Redactor` decides
 * what to register and how a text is masked; this finds where.
 *
 * @module
 */
import { PieceSet } from "./piece_set.ts";
import { entryLength, SubstringTable } from "./substring_table.ts";
import {
  BASE64_FLAG,
  bit8,
  CLASS_BIT,
  CLASS_BITS,
  classOf,
  ESCAPE_UNITS,
  FILTER_SIZE,
  hash4,
  hash8,
  LENGTH_CLASSES,
  LITERAL_FLAG,
  LONGEST_PREFIX,
  PIECE_BIT,
  PREFIX_FLAG,
  roll4,
  roll8,
  rollTo,
  STARTS8_BITS,
} from "./_index_layout.ts";

/**
 * Values shorter than this (in UTF-16 code units, not counting surrounding
 * whitespace) are never registered: masking "1", "ab" or "yes" would shred
 * every output (status codes, counts, ordinary words) while hiding almost
 * nothing a guesser could not try anyway.
 *
 * @example
 * ```ts
 * import { MIN_SECRET_LENGTH } from "./secret_index.ts";
 * import { Redactor } from "./redactor.ts";
 * const r = new Redactor();
 * r.add("x".repeat(MIN_SECRET_LENGTH - 1));
 * if (r.size !== 0) throw new Error("short values are ignored");
 * ```
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * A secret shorter than this (a PIN `1234`, a password `pass` or `admin`) is
 * found only where it stands as a token of its own: not inside a longer word
 * or number (`passed`, `password`, `12345`), which is another value, and
 * never by flowrun's last pass over the text it writes, where it would mostly
 * hit flowrun's own words (`1 flow: 2 passed`): it is masked where it is a
 * value, before that text is made (see `Redactor.redactOutput`). Eight, as
 * the shortest value GitLab agrees to mask; longer ones are random enough to
 * be masked wherever they stand.
 *
 * @example
 * ```ts
 * import { SHORT_SECRET } from "./secret_index.ts";
 * import { Redactor } from "./redactor.ts";
 * const r = new Redactor();
 * r.add("pass");
 * if (r.redact("pw=pass; 2 passed") !== "pw=***; 2 passed" || SHORT_SECRET !== 8) throw new Error();
 * ```
 */
export const SHORT_SECRET = 8;

/** Whether a UTF-16 unit joins the characters around it into one token: a letter, a digit, `_`. */
function joins(unit: number): boolean {
  if (unit < 128) {
    return (unit >= 48 && unit <= 57) || (unit >= 65 && unit <= 90) ||
      (unit >= 97 && unit <= 122) || unit === 95;
  }
  return /[\p{L}\p{N}]/u.test(String.fromCharCode(unit));
}

/**
 * Whether `text[start, end)` stands as a token of its own: no letter, digit
 * or `_` glues it to its neighbours (where its own edge is one).
 *
 * @example
 * ```ts
 * import { standsAlone } from "./secret_index.ts";
 * if (!standsAlone("pw=pass;", 3, 7) || standsAlone("passed", 0, 4) || standsAlone("xpass", 1, 5)) throw new Error();
 * if (!standsAlone("a-pass-b", 2, 6) || !standsAlone("<<!x>>", 2, 4)) throw new Error();
 * ```
 */
export function standsAlone(text: string, start: number, end: number): boolean {
  if (start > 0 && joins(text.charCodeAt(start)) && joins(text.charCodeAt(start - 1))) {
    return false;
  }
  return !(end < text.length && joins(text.charCodeAt(end - 1)) && joins(text.charCodeAt(end)));
}

/**
 * Length of the pieces of a long secret that are masked on their own: a
 * server that echoes a secret cut short (an error message quoting the first
 * 1,000 characters of a token) must not leak that part.
 *
 * @example
 * ```ts
 * import { PIECE } from "./secret_index.ts";
 * import { Redactor } from "./redactor.ts";
 * const r = new Redactor();
 * r.add("0123456789abcdefghijklmnopqrstuv");
 * if (r.redact("x 0123456789abcdef y") !== "x *** y" || PIECE !== 16) throw new Error();
 * ```
 */
export const PIECE = 16;

/** What every shortened text ends with; a secret's start before it is masked too. */
const CUT = "…";

/**
 * JSON Web Tokens (and a JWT cut short by `…`) are masked by shape, registered
 * or not: a second user's token in a response body is as secret as one's
 * own. The header and payload are base64url JSON objects, so both start `eyJ`.
 */
const JWT =
  /eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{2,}(?:\.[A-Za-z0-9_-]*)?|eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*)?(?=…)/g;

/** Characters a base64 blob is made of, used to widen a base64 hit. */
const BASE64_CHAR = /[A-Za-z0-9+/_-]/;

/** A base64 run's hit: the characters around it mix the secret's bits with its neighbours'. */
function pushWidened(
  text: string,
  start: number,
  end: number,
  push: (s: number, e: number) => void,
): void {
  if (start > 0 && BASE64_CHAR.test(text[start - 1])) start--;
  if (end < text.length && BASE64_CHAR.test(text[end])) end++;
  while (text[end] === "=") end++;
  push(start, end);
}

/**
 * Where a hit is in a text: its start and its end (exclusive).
 */
export type Span = [start: number, end: number];

/**
 * Sorts spans and merges overlapping or touching ones.
 *
 * @example
 * ```ts
 * import { mergeSpans } from "./secret_index.ts";
 * if (JSON.stringify(mergeSpans([[5, 8], [0, 2], [2, 4], [6, 9]])) !== "[[0,4],[5,9]]") throw new Error();
 * ```
 */
export function mergeSpans(spans: Span[]): Span[] {
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
 * Literals and pieces to find in texts.
 *
 * @example
 * ```ts
 * import { type Span, SecretIndex } from "./secret_index.ts";
 * const index = new SecretIndex();
 * index.addLiteral("hunter22", false);
 * const spans: Span[] = [];
 * index.spans("pw=hunter22!", spans);
 * if (JSON.stringify(spans) !== "[[3,11]]") throw new Error(JSON.stringify(spans));
 * ```
 */
export class SecretIndex {
  /**
   * Every literal to mask (flag `LITERAL`, and `BASE64` for a base64 run,
   * masked a little wider) and its beginnings (flag `PREFIX`), by length and hash.
   */
  #table = new SubstringTable();
  /** Every 16-character piece of a long secret. */
  #pieces = new PieceSet(PIECE);
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
  /** The longest literal, which bounds how far back a cut secret can start. */
  #longest = 0;
  /**
   * The shortest literal or piece: a text shorter than it holds neither
   * (nor does any decoding of it, which is never longer), so only a cut
   * secret or a JWT can be found in it.
   */
  #shortest = Infinity;

  /** Whether a decoded view producing this UTF-16 unit is worth building. */
  readonly isWanted = (unit: number): boolean => this.#wanted[unit] === 1;

  /** How many literals the index holds. */
  get literalCount(): number {
    return this.#literalCount;
  }

  /** The shortest literal or piece (`Infinity` when there is none). */
  get shortest(): number {
    return this.#shortest;
  }

  /** Registers every 16-unit piece of a value of 16 or more units. */
  addPieces(value: string): void {
    if (value.length < PIECE) return;
    this.#shortest = Math.min(this.#shortest, PIECE);
    this.#pieces.addEach(value);
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

  /**
   * Registers a literal to mask (`base64`: a base64 run, masked a little
   * wider); with `beginnings` false, not its beginning cut short.
   */
  addLiteral(literal: string, base64: boolean, beginnings = true): void {
    const flags = base64 ? LITERAL_FLAG | BASE64_FLAG : LITERAL_FLAG;
    const before = this.#table.add(literal, 0, literal.length, flags);
    if ((before & LITERAL_FLAG) !== 0) return;
    this.#literalCount++;
    this.#longest = Math.max(this.#longest, literal.length);
    this.#shortest = Math.min(this.#shortest, literal.length);
    // Its beginnings of 4, 8 and 16 units, for a literal cut short (see #cutStart).
    const longest = beginnings ? LONGEST_PREFIX : 0;
    for (let n = MIN_SECRET_LENGTH; n <= longest && n < literal.length; n *= 2) {
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
   * {@linkcode #hit} where the filter's `bits` name a literal, but a short
   * secret's literal (a word, a PIN) only as a token of its own, and with
   * `short` false not at all (see {@linkcode SHORT_SECRET}).
   */
  #literalAt(text: string, at: number, bits: number, short: boolean): number {
    if ((bits & CLASS_BITS) === 0) return 0;
    const hit = this.#hit(text, at, bits);
    if (hit <= 0 || hit >= SHORT_SECRET) return hit;
    return short && standsAlone(text, at, at + hit) ? hit : 0;
  }

  /**
   * Adds to `spans` those of registered literals, of literals cut short
   * before `…`, and of JWTs (each through `map`, when given: undefined drops it). A literal
   * shorter than {@linkcode SHORT_SECRET} counts only where it stands alone,
   * and with `short` false not at all (nor such a stretch before a `…`).
   */
  spans(
    text: string,
    spans: Span[],
    map?: (s: number, e: number) => Span | undefined,
    short = true,
  ): void {
    const push = (s: number, e: number) => {
      const span: Span | undefined = map ? map(s, e) : [s, e];
      if (span) spans.push(span);
    };
    if (this.#literalCount > 0) {
      this.#scan(text, push, short);
      for (let cut = text.indexOf(CUT); cut !== -1; cut = text.indexOf(CUT, cut + 1)) {
        const start = this.#cutStart(text, cut);
        if (start === undefined) continue;
        // A short stretch before a cut (`pass…`) is a short secret's: a token of its own.
        if (cut - start < SHORT_SECRET && (!short || !standsAlone(text, start, cut))) continue;
        push(start, cut);
      }
    }
    if (text.includes("eyJ")) {
      for (const m of text.matchAll(JWT)) push(m.index, m.index + m[0].length);
    }
  }

  /** One pass over `text`: every piece and every literal that starts at each position. */
  #scan(text: string, push: (s: number, e: number) => void, short: boolean): void {
    const last = text.length - MIN_SECRET_LENGTH;
    const filter = this.#filter;
    const starts8 = this.#starts8;
    // hash4 of a space and the first three units, rolled forward below (not of `" " + text`,
    // which V8 would flatten: a copy of the whole text per call).
    let h = roll4(roll4(roll4(0x20, text.charCodeAt(0)), text.charCodeAt(1)), text.charCodeAt(2));
    // The eight-character hash at `at8`, rolled forward when asked again within eight units.
    let h8 = 0;
    let at8 = -9;
    // Where the hits found so far end: a piece wholly inside them would only be merged away
    // (a token found whole also matches as each of its 49 pieces), so it is not looked up.
    let covered = 0;
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
      // Literals first: a secret found whole makes its pieces' lookups unnecessary.
      const hit = this.#literalAt(text, i, bits, short);
      if (hit > 0) {
        push(i, i + hit);
        covered = Math.max(covered, i + hit);
      } else if (hit < 0) {
        pushWidened(text, i, i - hit, push);
        covered = Math.max(covered, i - hit);
      }
      if ((bits & PIECE_BIT) !== 0 && i + PIECE > covered && this.#pieces.has(text, i)) {
        push(i, i + PIECE);
        covered = i + PIECE;
      }
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
}
