/**
 * Made digits padded to a length with zeros, as a script makes a code or a
 * reference: `String(Math.floor(Math.random() * 10000)).padStart(4, "0")`.
 * The number is a made value (`${RANDOM.DIGITS_k}`, k digits, the first not
 * 0); padded to n of at least k it is text of n digits, the zeros Newman adds
 * before a number of k digits, then the digits (`00${RANDOM.DIGITS_4}` for
 * six): text Newman could have sent, of the length the server gets from it.
 *
 * @module
 */
import type { Sym } from "./sym.ts";

/** The longest padding read: a code, not a block of text. */
const MAX_PAD = 64;

/**
 * `padStart(n, "0")` of made digits: text of n digits; undefined for any other
 * call, fill or value.
 *
 * @example
 * ```ts
 * import { paddedDigits } from "./padded.ts";
 * const made = { k: "gen" as const, text: "${RANDOM.DIGITS_4}" };
 * const lit = (value: unknown) => ({ k: "lit" as const, value });
 * const six = paddedDigits("padStart", made, [lit(6), lit("0")]);
 * if (six?.k !== "gen" || six.text !== "00${RANDOM.DIGITS_4}") throw new Error(JSON.stringify(six));
 * if (paddedDigits("padStart", made, [lit(6), lit(" ")]) !== undefined) throw new Error();
 * if (paddedDigits("padStart", made, [lit(3), lit("0")]) !== made) throw new Error();
 * ```
 */
export function paddedDigits(
  method: string,
  on: Sym | undefined,
  args: (Sym | undefined)[],
): Sym | undefined {
  const k = on?.k === "gen" ? /^\$\{RANDOM\.DIGITS_(\d+)\}$/.exec(on.text)?.[1] : undefined;
  const [length, fill] = args.map((a) => (a?.k === "lit" ? a.value : undefined));
  const n = typeof length === "number" && Number.isInteger(length) ? length : undefined;
  if (method !== "padStart" || k === undefined || n === undefined || fill !== "0") return;
  if (n > MAX_PAD || args.length !== 2) return;
  // A length under the number's keeps it whole, as padStart does.
  if (n <= Number(k)) return on;
  return { k: "gen", text: `${"0".repeat(n - Number(k))}\${RANDOM.DIGITS_${k}}` };
}
