/**
 * The variables asked for so far by the value each holds (`BASE\nvalue` →
 * the variable's name), indexed as they are set so that "which variable of
 * this step, or of this kind, holds this value" is a lookup. A form that
 * sends the same token in every post (a CSRF field, an API key in the body)
 * asks one question per step, and walking every variable asked before made
 * thousands of posts quadratic: each post's field adds a key.
 *
 * @module
 */

/**
 * A map from `BASE\nvalue` to the variable asked for it, which also finds
 * its keys by how they end (after a line break), by how they start (up to
 * an underscore) and by the variable they hold, each in the order the keys
 * were first set, as walking the map finds them.
 *
 * @example
 * ```ts
 * import { EnvValues } from "./env_values.ts";
 * const env = new EnvValues();
 * env.set("SEND_CSRF\nc5f0", "SEND_CSRF");
 * env.set("SEND_2_CSRF\nc5f0", "SEND_2_CSRF");
 * env.set("SEND_2_CSRF\nc5f0", "SEND_CSRF");
 * if (env.endingWith("c5f0").length !== 2) throw new Error();
 * if (env.startingEnding("SEND_2_", "c5f0")[0] !== "SEND_2_CSRF\nc5f0") throw new Error();
 * if (env.holding("SEND_CSRF").length !== 2 || env.holding("SEND_2_CSRF").length !== 0) {
 *   throw new Error();
 * }
 * ```
 */
export class EnvValues extends Map<string, string> {
  /** Keys by the text after each of their line breaks. */
  #byEnd = new Map<string, string[]>();
  /** Keys by the text up to each underscore before their first line break, then by end. */
  #byStart = new Map<string, Map<string, string[]>>();
  /** Keys by the variable they hold now. */
  #byName = new Map<string, Set<string>>();

  /** Sets `key` to the variable `name`, indexing a new key. */
  override set(key: string, name: string): this {
    const old = super.get(key);
    if (old === undefined && !super.has(key)) this.#index(key);
    if (old !== undefined) this.#byName.get(old)?.delete(key);
    const holding = this.#byName.get(name) ?? new Set();
    this.#byName.set(name, holding.add(key));
    return super.set(key, name);
  }

  /** Removes `key` and its index entries. */
  override delete(key: string): boolean {
    if (!super.has(key)) return false;
    this.#byName.get(super.get(key)!)?.delete(key);
    const drop = (list: string[] | undefined) => {
      const at = list?.indexOf(key) ?? -1;
      if (at >= 0) list!.splice(at, 1);
    };
    for (const end of ends(key)) {
      drop(this.#byEnd.get(end));
      for (const start of starts(key)) drop(this.#byStart.get(start)?.get(end));
    }
    return super.delete(key);
  }

  /** Removes every key. */
  override clear(): void {
    this.#byEnd.clear();
    this.#byStart.clear();
    this.#byName.clear();
    super.clear();
  }

  /** The keys ending with a line break and `value`, in the order they were first set. */
  endingWith(value: string): readonly string[] {
    return this.#byEnd.get(value) ?? [];
  }

  /** The keys starting with `start` and ending with a line break and `value`, in order. */
  startingEnding(start: string, value: string): readonly string[] {
    // The index holds starts up to an underscore before the first line break: walk for others.
    if (!start.endsWith("_") || start.includes("\n")) {
      return this.endingWith(value).filter((key) => key.startsWith(start));
    }
    return this.#byStart.get(start)?.get(value) ?? [];
  }

  /** The keys that hold the variable `name` now. */
  holding(name: string): string[] {
    return [...this.#byName.get(name) ?? []];
  }

  #index(key: string): void {
    for (const end of ends(key)) {
      push(this.#byEnd, end, key);
      for (const start of starts(key)) {
        const byEnd = this.#byStart.get(start) ?? new Map<string, string[]>();
        this.#byStart.set(start, byEnd);
        push(byEnd, end, key);
      }
    }
  }
}

/** Appends `key` to the list of `map` at `at`, in place. */
function push(map: Map<string, string[]>, at: string, key: string): void {
  const list = map.get(at);
  if (list === undefined) map.set(at, [key]);
  else list.push(key);
}

/** The texts after each line break of `key`: what `key.endsWith("\n" + value)` can match. */
function ends(key: string): string[] {
  const out: string[] = [];
  for (let at = key.indexOf("\n"); at >= 0; at = key.indexOf("\n", at + 1)) {
    out.push(key.slice(at + 1));
  }
  return out;
}

/** The texts up to and including each underscore before the first line break of `key`. */
function starts(key: string): string[] {
  const head = key.slice(0, key.indexOf("\n") + 1 || key.length);
  const out: string[] = [];
  for (let at = head.indexOf("_"); at >= 0; at = head.indexOf("_", at + 1)) {
    out.push(head.slice(0, at + 1));
  }
  return out;
}
