/**
 * Material the robustness tests share: the names JavaScript objects inherit
 * (as keys and values a flow or a response may hold), a seeded generator,
 * and a decoder of XML and HTML character references for reading reports back.
 */

/** Keys JavaScript objects inherit, and the ones that reach a prototype. */
export const PROTOTYPE_NAMES: readonly string[] = [
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "__proto__",
  "prototype",
  "__defineGetter__",
];

/** mulberry32: a seeded generator in [0, 1), small, fast and the same on every machine. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `text` with XML and HTML character references (`&#x27;`, `&#39;`, `&amp;`, …) decoded. */
export const entityDecode = (text: string): string =>
  text.replace(
    /&#x([0-9a-f]+);|&#(\d+);|&(amp|lt|gt|quot|apos);/gi,
    (_, hex, dec, name) =>
      hex
        ? String.fromCodePoint(parseInt(hex, 16))
        : dec
        ? String.fromCodePoint(Number(dec))
        : ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" } as Record<string, string>)[
          name.toLowerCase()
        ],
  );
