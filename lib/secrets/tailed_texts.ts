/**
 * A set of texts that finds where any of them stands in a value without
 * trying each one: thousands of names or tokens searched for in thousands of
 * values (a long recording's step names in every secret, its tokens in every
 * request) made converting quadratic. Each text is indexed by its last
 * {@linkcode TAIL} characters, looked up at every place a text may end: the
 * tail, not the head, since many texts share a beginning (every JWT begins
 * `eyJhbGciOi…`) and few an end. Shorter texts are each searched for.
 *
 * @module
 */

/** How many of a text's last characters index it. */
const TAIL = 6;

/**
 * A `Set` of texts that also tells where they stand in a value
 * ({@linkcode TailedTexts.places}), its index kept as texts are added and
 * deleted.
 *
 * @example
 * ```ts
 * import { TailedTexts } from "./tailed_texts.ts";
 * const texts = new TailedTexts();
 * texts.add("login_2");
 * texts.add("ab");
 * const at = texts.places("x login_2 ab").map(([s, t]) => `${s}:${t}`).sort();
 * if (at.join() !== "10:ab,2:login_2" || !texts.has("ab")) throw new Error(at.join());
 * ```
 */
export class TailedTexts extends Set<string> {
  readonly #byTail = new Map<string, string[]>();
  readonly #short = new Set<string>();

  /** An empty set (a `Set`'s constructor would add before the index exists). */
  constructor() {
    super();
  }

  /** Adds `text`, indexed by its tail. */
  override add(text: string): this {
    if (this.has(text)) return this;
    if (text.length < TAIL) this.#short.add(text);
    else {
      const list = this.#byTail.get(text.slice(-TAIL)) ?? [];
      list.push(text);
      this.#byTail.set(text.slice(-TAIL), list);
    }
    return super.add(text);
  }

  /** Deletes `text` and its place in the index. */
  override delete(text: string): boolean {
    const tail = text.slice(-TAIL);
    const rest = (this.#byTail.get(tail) ?? []).filter((t) => t !== text);
    if (rest.length > 0) this.#byTail.set(tail, rest);
    else this.#byTail.delete(tail);
    this.#short.delete(text);
    return super.delete(text);
  }

  /** Empties the set and its index. */
  override clear(): void {
    this.#byTail.clear();
    this.#short.clear();
    super.clear();
  }

  /**
   * Every place in `value` where one of the texts stands (overlapping ones
   * too), as `[start, text]`, each once, in no set order.
   */
  places(value: string): [number, string][] {
    const out: [number, string][] = [];
    for (const text of this.#short) {
      if (text === "") continue; // found everywhere, and an endless search
      for (let at = value.indexOf(text); at !== -1; at = value.indexOf(text, at + 1)) {
        out.push([at, text]);
      }
    }
    for (let end = TAIL; end <= value.length; end++) {
      for (const text of this.#byTail.get(value.slice(end - TAIL, end)) ?? []) {
        const at = end - text.length;
        if (at >= 0 && value.startsWith(text, at)) out.push([at, text]);
      }
    }
    return out;
  }
}
