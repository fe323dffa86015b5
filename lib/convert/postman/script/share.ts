/**
 * A value made at run time that a script keeps in a local (`const r =
 * _.random(1, 9)`, `const s = pm.variables.replaceIn("{{$randomInt}}")`) is
 * made once: every variable the script sets from it holds the same value in
 * Newman. A flow's `${RANDOM.…}` is drawn at each use, so the local is marked
 * here, and the marks travel with the text joined from it (`"u" + s`); the
 * flow then makes the value once, in a var of its own (shared_made.ts).
 *
 * @module
 */
import type { Share, Sym } from "./sym.ts";

export type { Share };

/** A flow expression drawn afresh at each use: random values and the clock. */
const FRESH = /\$\{(RANDOM|NOW)\./;

/**
 * `value` as the local `local` holds it: a made value drawn at each use is
 * marked as one value (a new mark each time a script binds one); anything
 * else, or a value already marked (`const t = r`), is as it was.
 *
 * @example
 * ```ts
 * import { shareable } from "./share.ts";
 * const r = shareable("r", { k: "gen", text: "${RANDOM.DIGITS_4}" });
 * if (r?.k !== "gen" || r.shares?.[0].local !== "r") throw new Error(JSON.stringify(r));
 * if (shareable("t", r) !== r || shareable("x", { k: "lit", value: 1 })?.k !== "lit") throw new Error();
 * ```
 */
export function shareable(local: string, value: Sym | undefined): Sym | undefined {
  if (value?.k !== "gen" || value.moment || value.date || value.shares || !FRESH.test(value.text)) {
    return value;
  }
  return { ...value, shares: [{ local, text: value.text }] };
}

/**
 * The marks of the made values `parts` joins, as a made value's `shares`
 * (none: no field, so unmarked values stay as they were written).
 *
 * @example
 * ```ts
 * import { sharesOf } from "./share.ts";
 * const share = { local: "s", text: "${RANDOM.HEX_8}" };
 * const joined = sharesOf([{ k: "lit", value: "u" }, { k: "gen", text: share.text, shares: [share] }]);
 * if (joined.shares?.[0] !== share || sharesOf([{ k: "lit", value: 1 }]).shares) throw new Error();
 * ```
 */
export function sharesOf(parts: (Sym | undefined)[]): { shares?: Share[] } {
  const all = parts.flatMap((p) => p?.k === "gen" ? p.shares ?? [] : []);
  return all.length > 0 ? { shares: all } : {};
}
