/**
 * Whether a regular expression's worst case on an input is small enough to
 * run on the calling thread, read from the pattern's text alone. Used by
 * `_util/regex.ts` and by the OpenAPI converter's pattern values.
 *
 * @module
 */
import { BoundedCache } from "./bounded_cache.ts";

/** Steps a match on the calling thread may take at worst (see isTame): well under 0.1 s. */
const TAME_STEPS = 1e7;

/**
 * What bounds a pattern's backtracking, or undefined when nothing simple
 * does: `open` quantifiers without an upper bound, and `factor`, the product
 * of the choices every other quantifier and alternative adds.
 */
type Shape = { open: number; factor: number } | undefined;

const shapes = new BoundedCache<Shape>(1000);

/**
 * Whether a match may run on the calling thread: its worst case is small for
 * this input. A pattern with no backreference, no lookaround and no
 * quantified group (the nesting that makes backtracking exponential) tries
 * each of the n + 1 start positions with at most (n + 1)^open ways to split
 * the input between its open-ended quantifiers, times the choices of its
 * bounded ones and alternatives. When that product is under `TAME_STEPS`
 * (1e7), the helper thread's round trip (about 0.2 ms) and start are not
 * needed. Most patterns in flows (`^item-`, `^[a-z]+-\d+$` on a field,
 * `"id":"([^"]+)"` on a body) qualify.
 *
 * @example
 * ```ts
 * import { isTame } from "./regex_shape.ts";
 * if (!isTame("^[a-z]+-\\d+$", 100)) throw new Error();
 * if (isTame("^(a+)+$", 10)) throw new Error("a quantified group is never tame");
 * if (isTame("^(\\w)\\w*\\1$", 10)) throw new Error("nor is a backreference");
 * if (isTame("a*b*c*d*e*", 1_000_000)) throw new Error("too many ways on a long input");
 * ```
 */
export function isTame(source: string, length: number): boolean {
  const shape = shapes.get(source, () => shapeOf(source));
  return shape !== undefined && (length + 1) ** (shape.open + 1) * shape.factor <= TAME_STEPS;
}

/** Where a scan of a pattern is, and what it has counted so far. */
interface Scan {
  readonly source: string;
  /** The character being read; a step moves it past what it consumed. */
  i: number;
  open: number;
  factor: number;
}

/** One character's reading: false when the pattern has no simple bound. */
type ShapeStep = (scan: Scan) => boolean;

/** `*` and `+`: an open-ended quantifier; a lazy one has the same choices in another order. */
const openEnded: ShapeStep = (s) => {
  s.open++;
  if (s.source[s.i + 1] === "?") s.i++;
  return true;
};

/** `?` and `|`: two ways. */
const twoWays: ShapeStep = (s) => {
  s.factor *= 2;
  return true;
};

/** The characters that shape backtracking; any other is one character matched. */
const SHAPE_STEPS = new Map<string, ShapeStep>([
  ["\\", (s) => {
    if (/[1-9k]/.test(s.source[s.i + 1] ?? "")) return false; // a backreference
    s.i++;
    return true;
  }],
  ["[", (s) => {
    // A class is one character, whatever it holds.
    for (s.i++; s.i < s.source.length && s.source[s.i] !== "]"; s.i++) {
      if (s.source[s.i] === "\\") s.i++;
    }
    return true;
  }],
  ["(", (s) => !/^\?<?[=!]/.test(s.source.slice(s.i + 1, s.i + 4))], // lookaround
  [")", (s) => !/[*+?{]/.test(s.source[s.i + 1] ?? "")], // a quantified group
  ["*", openEnded],
  ["+", openEnded],
  ["?", twoWays],
  ["|", twoWays],
  ["{", (s) => {
    const bound = /^\{(\d+)(,(\d*))?\}/.exec(s.source.slice(s.i));
    if (!bound) return true; // a literal "{"
    if (bound[3] === "") s.open++;
    else if (bound[3] !== undefined) s.factor *= Number(bound[3]) - Number(bound[1]) + 1;
    s.i += bound[0].length - 1;
    if (s.source[s.i + 1] === "?") s.i++;
    return true;
  }],
]);

function shapeOf(source: string): Shape {
  const scan: Scan = { source, i: 0, open: 0, factor: 1 };
  for (; scan.i < source.length; scan.i++) {
    const step = SHAPE_STEPS.get(source[scan.i]);
    if (step && !step(scan)) return undefined;
  }
  return { open: scan.open, factor: scan.factor };
}
