/**
 * Two recordings of the same journey (`convert har a.har b.har`): the
 * entries of both are aligned, and each value the first one sends is
 * compared with the one the second sends at the same place. A value that
 * differs is dynamic (a capture, a fresh value or a variable); a value that
 * is equal is a constant. This is how load-testing tools correlate: the
 * evidence of a second session replaces the guesses of one.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { parseBody, safeDecode, valueKey, walk } from "./json.ts";
import { landmarks } from "./landmarks.ts";

/** The two recordings' API entries, paired in order, and the ones of each that have no partner. */
export interface Alignment {
  pairs: [HarRecord, HarRecord][];
  onlyA: HarRecord[];
  onlyB: HarRecord[];
}

/** Past this many cells, the table is made for each stretch between landmarks ({@linkcode anchoredPairs}). */
const MAX_LCS_CELLS = 4_000_000;

/**
 * A request's shape: its method and its path with the segments that name an
 * instance (digits, or letters mixed with digits, or a string in `handed`:
 * one an earlier answer handed out) left open, since two sessions get
 * different ids.
 *
 * @example
 * ```ts
 * import { requestShape } from "./two_recordings.ts";
 * const r = (url: string) => ({ method: "GET", url: new URL(url) }) as never;
 * if (requestShape(r("http://a.test/api/notes/41191")) !== requestShape(r("http://b.test/api/notes/7"))) {
 *   throw new Error();
 * }
 * if (requestShape(r("http://a.test/api/notes")) === requestShape(r("http://a.test/api/users"))) throw new Error();
 * ```
 */
export function requestShape(r: HarRecord, handed?: ReadonlySet<string>): string {
  const segments = r.url.pathname.split("/").map((s) => {
    const d = safeDecode(s);
    return /\d/.test(d) || d.length > 40 || handed?.has(d) ? "*" : d;
  });
  return `${r.method} ${segments.join("/")}`;
}

/** A string an answer handed out opens a path segment from this length on: shorter ones are words. */
const MIN_HANDED = 8;

/** The strings of at least {@linkcode MIN_HANDED} characters in a JSON answer, depth-bounded. */
function strings(json: unknown, into: Set<string>, depth = 0): void {
  if (depth > 12) return;
  if (typeof json === "string") {
    if (json.length >= MIN_HANDED) into.add(json);
  } else if (Array.isArray(json)) {
    for (const v of json) strings(v, into, depth + 1);
  } else if (typeof json === "object" && json !== null) {
    for (const v of Object.values(json)) strings(v, into, depth + 1);
  }
}

/**
 * Each request's shape, a segment an earlier answer of the same recording
 * handed out left open too: an opaque id may hold no digit (`KbGewkeDWv`),
 * and where it came from tells it from a word.
 */
function shapes(records: HarRecord[]): string[] {
  const handed = new Set<string>();
  return records.map((r) => {
    const shape = requestShape(r, handed);
    if (r.hasJson) strings(r.json, handed);
    return shape;
  });
}

/**
 * Pairs the entries of two recordings: the longest common sequence of
 * request shapes, so a poll recorded three times in one and five in the
 * other, or a click only one session made, leaves the rest paired.
 *
 * @example
 * ```ts
 * import { alignRecords } from "./two_recordings.ts";
 * const r = (method: string, path: string) => ({ method, url: new URL(`http://a.test${path}`) }) as never;
 * const a = [r("POST", "/login"), r("GET", "/jobs/1"), r("GET", "/jobs/1"), r("DELETE", "/jobs/1")];
 * const b = [r("POST", "/login"), r("GET", "/jobs/9"), r("DELETE", "/jobs/9")];
 * const { pairs, onlyA, onlyB } = alignRecords(a, b);
 * if (pairs.length !== 3 || onlyA.length !== 1 || onlyB.length !== 0) throw new Error();
 * ```
 */
export function alignRecords(a: HarRecord[], b: HarRecord[]): Alignment {
  const sa = shapes(a);
  const sb = shapes(b);
  const pairs = (a.length + 1) * (b.length + 1) > MAX_LCS_CELLS
    ? anchoredPairs(a, b, sa, sb)
    : commonPairs(a, b, sa, sb);
  const pairedA = new Set(pairs.map(([x]) => x));
  const pairedB = new Set(pairs.map(([, y]) => y));
  return {
    pairs,
    onlyA: a.filter((r) => !pairedA.has(r)),
    onlyB: b.filter((r) => !pairedB.has(r)),
  };
}

/**
 * The pairs of two recordings too long for one table: the shapes each sent once, in an order both
 * kept, are paired first ({@linkcode landmarks}); each stretch between two of them is paired as
 * short recordings are, or in order when it is still too long. Pairing the whole in order took a
 * poll one session sent more often before a create for the next poll of the other, past its
 * create, and the create was left unpaired.
 */
function anchoredPairs(
  a: HarRecord[],
  b: HarRecord[],
  sa: string[],
  sb: string[],
): [HarRecord, HarRecord][] {
  const pairs: [HarRecord, HarRecord][] = [];
  let i0 = 0;
  let j0 = 0;
  for (const [i, j] of [...landmarks(sa, sb), [a.length, b.length]]) {
    const [ra, rb, ta, tb] = [a.slice(i0, i), b.slice(j0, j), sa.slice(i0, i), sb.slice(j0, j)];
    pairs.push(
      ...((ra.length + 1) * (rb.length + 1) > MAX_LCS_CELLS
        ? inOrderPairs(ra, rb, ta, tb)
        : commonPairs(ra, rb, ta, tb)),
    );
    if (i < a.length) pairs.push([a[i], b[j]]);
    [i0, j0] = [i + 1, j + 1];
  }
  return pairs;
}

/** Pairs each request with the next one of its shape in the other recording, in order. */
function inOrderPairs(
  a: HarRecord[],
  b: HarRecord[],
  sa: string[],
  sb: string[],
): [HarRecord, HarRecord][] {
  const pairs: [HarRecord, HarRecord][] = [];
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const at = sb.indexOf(sa[i], j);
    if (at !== -1) {
      pairs.push([a[i], b[at]]);
      j = at + 1;
    }
  }
  return pairs;
}

/**
 * A pair in the table of {@linkcode commonPairs}: it outweighs every tie-break the largest
 * table can add up (at most 2,000 pairs under {@linkcode MAX_LCS_CELLS}), so the most pairs
 * come first.
 */
const PAIR = 4096;

/**
 * A unit of the weight of a pair's shape ({@linkcode landmarkWeights}): it outweighs every pair
 * and tie-break the largest table can add up (2,000 × ({@linkcode PAIR} + 1)), so the weightiest
 * shapes are paired first, then the most pairs.
 */
const LANDMARK = 2 ** 23;

/** Whether two requests were sent alike: the same path, query and body. */
function sentAlike(x: HarRecord, y: HarRecord): boolean {
  return x.url.pathname === y.url.pathname && x.url.search === y.url.search &&
    (x.bodyText ?? "") === (y.bodyText ?? "");
}

/**
 * Each shape's weight as a landmark: 4,096 shared among the times the session that sent it more
 * often sent it. A request sent once in each session (a create, a save) is a landmark of the
 * journey; a shape sent dozens of times (a page's polls, at the pace of each session) is
 * interchangeable with its neighbours, and one more pair of them is worth less than any step.
 */
function landmarkWeights(sa: string[], sb: string[]): Map<string, number> {
  const count = (shapes: string[]) => {
    const n = new Map<string, number>();
    for (const s of shapes) n.set(s, (n.get(s) ?? 0) + 1);
    return n;
  };
  const na = count(sa);
  const nb = count(sb);
  const weights = new Map<string, number>();
  for (const [s, n] of na) weights.set(s, Math.floor(4096 / Math.max(n, nb.get(s) ?? 0)));
  return weights;
}

/**
 * The common sequence of request shapes of the most weight ({@linkcode landmarkWeights}),
 * then of the most pairs; among those, the one pairing the most requests sent alike. A page
 * that polls at its own pace would otherwise trade a create each session sent once for one more
 * pair of polls; and a call one session made once more (a page tracked twice) would shift every
 * later call of that shape onto the next one of the other session, and their values read as
 * differing.
 */
function commonPairs(
  a: HarRecord[],
  b: HarRecord[],
  sa: string[],
  sb: string[],
): [HarRecord, HarRecord][] {
  const weight = landmarkWeights(sa, sb);
  const w = b.length + 1;
  const table = new Float64Array((a.length + 1) * w);
  const paired = (i: number, j: number) =>
    table[(i + 1) * w + j + 1] + PAIR + LANDMARK * (weight.get(sa[i]) ?? 0) +
    (sentAlike(a[i], b[j]) ? 1 : 0);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const skip = Math.max(table[(i + 1) * w + j], table[i * w + j + 1]);
      table[i * w + j] = sa[i] === sb[j] ? Math.max(paired(i, j), skip) : skip;
    }
  }
  const pairs: [HarRecord, HarRecord][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (sa[i] === sb[j] && table[i * w + j] === paired(i, j)) {
      pairs.push([a[i], b[j]]);
      i++;
      j++;
    } else if (table[(i + 1) * w + j] >= table[i * w + j + 1]) i++;
    else j++;
  }
  return pairs;
}

/**
 * What the second recording says about the values the first one sends: each
 * is equal at every place both sent it (a constant), or differs at one
 * (dynamic), with the second recording's value.
 */
export class Evidence {
  /** Value keys ({@linkcode valueKey}) the first recording sends that the second sent equal. */
  readonly equal = new Set<string>();
  /** Value keys that differ in the second recording, with its value. */
  readonly differs = new Map<string, unknown>();
  /** Each paired record of the first recording → its partner in the second. */
  readonly partner = new Map<HarRecord, HarRecord>();
  /**
   * Each paired record of the first recording → where both sent the same
   * value (`name\0value key`: a query or form key, a header, a cookie, a JSON
   * key): a value equal there is not made dynamic by a place it differs.
   */
  readonly equalAt = new Map<HarRecord, Set<string>>();
  #record?: HarRecord;

  constructor(alignment: Alignment) {
    for (const [a, b] of alignment.pairs) {
      this.partner.set(a, b);
      this.#record = a;
      this.compareRequests(a, b);
    }
    this.#record = undefined;
  }

  /** Whether both recordings sent `value` under `name` in record `r` (`aggregate[count]=id`). */
  isEqualAt(r: HarRecord, name: string, value: unknown): boolean {
    return this.equalAt.get(r)?.has(`${name}\0${valueKey(value)}`) ?? false;
  }

  /** Whether both recordings sent `value` at every place the first one sent it. */
  isConstant(value: unknown): boolean {
    const k = valueKey(value);
    return value !== "" && this.equal.has(k) && !this.differs.has(k);
  }

  /** The second recording's value where the first sent `value`, when they differ. */
  counterpart(value: unknown): unknown {
    return this.differs.get(valueKey(value));
  }

  isDynamic(value: unknown): boolean {
    return this.differs.has(valueKey(value));
  }

  private note(a: unknown, b: unknown, name?: string): void {
    if (typeof a !== "string" && typeof a !== "number") return;
    if (a === "") return;
    const k = valueKey(a);
    if (valueKey(b) === k) {
      this.equal.add(k);
      if (name !== undefined && this.#record) {
        const at = this.equalAt.get(this.#record) ?? new Set<string>();
        this.equalAt.set(this.#record, at.add(`${name}\0${k}`));
      }
    } else if (!this.differs.has(k) && (typeof b === "string" || typeof b === "number")) {
      this.differs.set(k, b);
    }
  }

  private compareRequests(a: HarRecord, b: HarRecord): void {
    const pa = a.url.pathname.split("/");
    const pb = b.url.pathname.split("/");
    pa.forEach((s, i) => this.note(safeDecode(s), safeDecode(pb[i] ?? "")));
    this.pairLists(
      [...a.url.searchParams],
      [...b.url.searchParams],
      (va, vb, name) => this.compareText(va, vb, name),
    );
    const headersA = a.headers.map((h) => [h.name.toLowerCase(), h.value] as [string, string]);
    const headersB = b.headers.map((h) => [h.name.toLowerCase(), h.value] as [string, string]);
    this.pairLists(headersA.filter(([n]) => n !== "cookie"), headersB, (va, vb, name) => {
      this.note(va, vb, name);
      // `Bearer <credential>`: the credential on its own too.
      const ca = /^\S+\s+(\S+)$/.exec(va)?.[1];
      const cb = /^\S+\s+(\S+)$/.exec(vb)?.[1];
      if (ca && cb) this.note(ca, cb);
    });
    this.pairLists(
      a.cookies.map((c) => [c.name, c.value]),
      b.cookies.map((c) => [c.name, c.value]),
      (va, vb, name) => this.note(va, vb, name),
    );
    this.compareBodies(a.bodyText, b.bodyText);
  }

  /**
   * A query or form value; JSON inside it (a GraphQL GET's `variables=`) leaf by leaf, and a
   * whole form serialized into it (`rows[]=tok=9f3a…&length=10`, a table's XHR) field by
   * field: a token inside differs on its own, as one sent alone does.
   */
  private compareText(a: string, b: string, name: string, depth = 0): void {
    this.note(a, b, name);
    if (/^\s*[[{]/.test(a)) return this.compareBodies(a, b);
    if (depth > 0 || !isFormEncoded(a) || !isFormEncoded(b)) return;
    this.pairLists(
      [...new URLSearchParams(a)],
      [...new URLSearchParams(b)],
      (va, vb, inner) => this.compareText(va, vb, inner, depth + 1),
    );
  }

  private compareBodies(a: string | undefined, b: string | undefined): void {
    if (!a || !b) return;
    let ja: unknown, jb: unknown;
    try {
      ja = parseBody(a);
      jb = parseBody(b);
    } catch {
      if (!isFormEncoded(a.trim())) return;
      this.pairLists(
        [...new URLSearchParams(a)],
        [...new URLSearchParams(b)],
        (va, vb, name) => this.compareText(va, vb, name),
      );
      return;
    }
    walk(ja, (path, key, leaf) => {
      let node: unknown = jb;
      for (const p of path) {
        node = typeof node === "object" && node !== null
          ? (node as Record<string | number, unknown>)[p as string | number]
          : undefined;
      }
      this.note(leaf, node, key);
    });
  }

  /** Pairs name/value lists by name, the n-th of a repeated name with the n-th. */
  private pairLists(
    a: [string, string][],
    b: [string, string][],
    visit: (va: string, vb: string, name: string) => void,
  ): void {
    const seen = new Map<string, number>();
    for (const [name, value] of a) {
      const n = seen.get(name) ?? 0;
      seen.set(name, n + 1);
      const other = b.filter(([m]) => m === name)[n];
      if (other) visit(value, other[1], name);
    }
  }
}

/** Whether `text` is a form's `name=value&…` encoding, an `=` in each of its fields. */
function isFormEncoded(text: string): boolean {
  return /^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*$/.test(text);
}
