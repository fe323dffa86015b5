/**
 * Made values a script shares between variables (script/share.ts): the
 * first variable set from one keeps its text until a second is set from it;
 * then the value becomes a var of its own, made once per flow run, and both
 * variables (and any later one) read that var where the script put the value.
 *
 * @module
 */
import { apart } from "./script/made.ts";
import type { Share } from "./script/share.ts";
import { varName } from "./vars.ts";

/**
 * What the variables a flow's scripts set to made values hold.
 *
 * @example
 * ```ts
 * import { SharedMade } from "./shared_made.ts";
 * const sharing = new SharedMade();
 * const made = new Map<string, string>();
 * const r = { local: "r", text: "${RANDOM.DIGITS_4}" };
 * made.set("a", sharing.set({ name: "a", value: r.text, shares: [r] }, made, new Map()));
 * made.set("b", sharing.set({ name: "b", value: `${r.text}@x`, shares: [r] }, made, new Map()));
 * if (sharing.held.get("r") !== r.text) throw new Error();
 * if (sharing.out("a") !== "${vars.r}" || sharing.out("b") !== "${vars.r}@x") throw new Error();
 * ```
 */
export class SharedMade {
  /** Vars holding a value two variables share, by name: made before any var reads them. */
  readonly held = new Map<string, string>();
  /** The first variable set from each share, and its text as the script made it. */
  readonly #first = new Map<Share, { name: string; value: string }>();
  /** The shares each variable was first set from, to forget when it is set again. */
  readonly #firstOf = new Map<string, Share[]>();
  /** The var holding each share read by two variables. */
  readonly #holder = new Map<Share, string>();
  /** The var made for each local, made alike, first set into one variable: a script run again. */
  readonly #byScript = new Map<string, string>();
  /** A variable's text with its shared parts read from their vars. */
  readonly #out = new Map<string, string>();

  /** The text of a variable that reads a shared value, else undefined. */
  out(name: string): string | undefined {
    return this.#out.get(name);
  }

  /** A variable set again or dropped: it no longer holds what a script made before. */
  forget(name: string, made: Map<string, string>): void {
    made.delete(name);
    this.#out.delete(name);
    for (const s of this.#firstOf.get(name) ?? []) this.#first.delete(s);
    this.#firstOf.delete(name);
  }

  /**
   * A variable set to a made value: gives the text to keep as the script made it (kept apart
   * from the other made values, made.ts), and notes where it reads a shared value.
   */
  set(
    set: { name: string; value: string; shares?: Share[] },
    made: Map<string, string>,
    known: ReadonlyMap<string, string>,
  ): string {
    const { name, value } = set;
    let out = value;
    for (const s of set.shares ?? []) {
      const first = this.#first.get(s);
      if (!first) {
        this.#first.set(s, { name, value });
        this.#firstOf.set(name, [...this.#firstOf.get(name) ?? [], s]);
        continue;
      }
      let holder = this.#holder.get(s);
      if (holder === undefined) {
        holder = this.#hold(s, first.name, made, known);
        const before = this.#out.get(first.name) ?? first.value;
        this.#out.set(first.name, before.replace(s.text, () => `\${vars.${holder}}`));
      }
      out = out.replace(s.text, () => `\${vars.${holder}}`);
    }
    if (out !== value) this.#out.set(name, out);
    return apart(value, made.values());
  }

  /**
   * The var for `s`, named after the script's local, apart from every other name. The same
   * script run again (a collection's, before each request) reuses its var: a flow var holds one
   * value per flow run, so the variables it sets read one value each time anyway.
   */
  #hold(
    s: Share,
    first: string,
    made: Map<string, string>,
    known: ReadonlyMap<string, string>,
  ): string {
    const key = `${s.local}\u0000${s.text}\u0000${first}`;
    const again = this.#byScript.get(key);
    if (again !== undefined) return this.#holder.set(s, again), again;
    const base = varName(s.local);
    const taken = (n: string) => this.held.has(n) || made.has(n) || known.has(n);
    let name = base;
    for (let i = 2; taken(name); i++) name = `${base}_${i}`;
    this.held.set(name, apart(s.text, [...made.values(), ...this.held.values()]));
    this.#holder.set(s, name);
    this.#byScript.set(key, name);
    return name;
  }
}
