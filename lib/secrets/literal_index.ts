/**
 * The secrets to mask, indexed to answer one question fast at any position
 * of a text: which is the longest of them that starts here? Secrets often
 * share long beginnings (`Bearer tok_…` for every flow's token, every JWT's
 * `eyJhbGciOiJIUzI1NiIs…`), so a table keyed by the first eight characters
 * put thousands of them in one list, scanned at every such position: masking
 * grew with the square of the suite. Here a list that grows past a few
 * entries splits on the next eight characters, and so on (a trie with
 * eight-character edges), so a lookup reads a few short lists however many
 * secrets share a beginning.
 *
 * @module
 */

/** Characters per level; a level's lists hold literals shorter than the next level's key. */
const STEP = 8;
/** A list longer than this splits into the next level. */
const SPLIT = 8;

interface Level {
  /** Length of the key that led here. */
  depth: number;
  /** Literals kept at this level, longest first. */
  list: string[];
  /** Deeper levels by the literal's first `depth + STEP` characters, once split. */
  next?: Map<string, Level>;
}

/** Inserts keeping the longest first (equal lengths in arrival order). */
function insert(list: string[], literal: string): void {
  const at = list.findIndex((l) => l.length < literal.length);
  list.splice(at === -1 ? list.length : at, 0, literal);
}

/**
 * Literals (four characters or more) by their beginnings.
 *
 * @example
 * ```ts
 * import { LiteralIndex } from "./literal_index.ts";
 * const index = new LiteralIndex();
 * for (let i = 0; i < 1000; i++) index.add(`Bearer tok_${i}_secret`);
 * index.add("Bearer tok_1");
 * index.add("abcd");
 * const text = "x Bearer tok_12_secret y abcd";
 * if (index.longestAt(text, 2) !== "Bearer tok_12_secret") throw new Error();
 * if (index.longestAt(text, 25) !== "abcd" || index.longestAt(text, 0) !== undefined) throw new Error();
 * if (index.longestAt("Bearer tok_1 …", 0) !== "Bearer tok_1") throw new Error();
 * ```
 */
export class LiteralIndex {
  /** Literals of eight characters or more, by their first eight. */
  readonly #long = new Map<string, Level>();
  /** Shorter literals, by their first four. */
  readonly #short = new Map<string, string[]>();

  /** Adds a literal (callers add each once). */
  add(literal: string): void {
    if (literal.length < STEP) {
      const key = literal.slice(0, 4);
      const list = this.#short.get(key);
      if (list) insert(list, literal);
      else this.#short.set(key, [literal]);
      return;
    }
    const key = literal.slice(0, STEP);
    let level = this.#long.get(key);
    if (!level) this.#long.set(key, level = { depth: STEP, list: [] });
    // Down the split levels while the literal is long enough for their keys.
    while (level.next && literal.length >= level.depth + STEP) {
      const deeperKey = literal.slice(0, level.depth + STEP);
      const deeper = level.next.get(deeperKey);
      if (!deeper) {
        level.next.set(deeperKey, { depth: level.depth + STEP, list: [literal] });
        return;
      }
      level = deeper;
    }
    insert(level.list, literal);
    if (!level.next && level.list.length > SPLIT) split(level);
  }

  /** The longest literal that starts at `at` in `text`, if any. */
  longestAt(text: string, at: number): string | undefined {
    const level = this.#long.get(text.slice(at, at + STEP));
    const hit = level && deepest(level, text, at);
    if (hit !== undefined) return hit;
    const short = this.#short.get(text.slice(at, at + 4));
    if (short) { for (const literal of short) if (text.startsWith(literal, at)) return literal; }
    return undefined;
  }
}

/** The longest literal of `level` or its deeper levels (which hold longer ones) at `at`. */
function deepest(level: Level, text: string, at: number): string | undefined {
  const deeper = level.next?.get(text.slice(at, at + level.depth + STEP));
  const hit = deeper && deepest(deeper, text, at);
  if (hit !== undefined) return hit;
  for (const literal of level.list) if (text.startsWith(literal, at)) return literal;
  return undefined;
}

/** Moves a level's literals long enough for the next key into deeper levels. */
function split(level: Level): void {
  const next = new Map<string, Level>();
  const kept: string[] = [];
  for (const literal of level.list) {
    if (literal.length < level.depth + STEP) {
      kept.push(literal);
      continue;
    }
    const key = literal.slice(0, level.depth + STEP);
    const deeper = next.get(key);
    if (deeper) deeper.list.push(literal);
    else next.set(key, { depth: level.depth + STEP, list: [literal] });
  }
  level.list = kept;
  level.next = next;
  // A deeper level that is itself crowded splits again.
  for (const deeper of next.values()) if (deeper.list.length > SPLIT) split(deeper);
}
