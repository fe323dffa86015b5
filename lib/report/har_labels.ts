/**
 * A label of its own for each opaque secret in the HAR report, in place of
 * `***`: the token a login answered and the `Authorization` a later request
 * sent carry the same label, so `flowrun convert har` captures one from the
 * other instead of asking for it (a round trip, run → HAR → convert → run,
 * needs only what the user typed). A label is random per run, never made
 * from the secret; it tells only that two places held the same secret, which
 * the flow itself says. Ordinary words and short values keep the usual
 * masking, and a secret holding another one (other than after an auth
 * scheme, `Bearer <token>`), or overlapping another where a text joins
 * them, is masked whole, so no part of it shows beside a label; whatever is left (a base64 or URL-encoded form, a piece)
 * is masked as every report masks it, after the labels.
 *
 * @module
 */
import { isOrdinaryWord } from "../secrets/public_parts.ts";

/** The shortest secret given a label: shorter ones are masked as usual. */
const MIN_LABELLED = 8;
/** An auth scheme before a secret (`Bearer `): public, kept beside the inner secret's label. */
const SCHEME = /^[A-Za-z][\w-]*\s+$/;

/**
 * Labels for the secrets of one run, each the same wherever it occurs.
 *
 * @example
 * ```ts
 * import { SecretLabels } from "./har_labels.ts";
 * const labels = new SecretLabels(() => "7f3a9c2e1b4d");
 * const secrets = ["tok_9f8e7d6c5b4a", "Bearer tok_9f8e7d6c5b4a"];
 * const out = labels.apply({ a: "Bearer tok_9f8e7d6c5b4a", b: ["tok_9f8e7d6c5b4a"] }, secrets);
 * if (out.a !== "Bearer masked-7f3a9c2e1b4d" || out.b[0] !== "masked-7f3a9c2e1b4d") throw new Error(JSON.stringify(out));
 * ```
 */
export class SecretLabels {
  readonly #labels = new Map<string, string>();
  readonly #random: () => string;

  constructor(random: () => string = randomHex) {
    this.#random = random;
  }

  /** `value` with each of `secrets` it holds replaced by its label (or `***`, above). */
  apply<T>(value: T, secrets: readonly string[]): T {
    const { whole, labelled } = this.#plan(secrets);
    if (whole.length === 0 && labelled.length === 0) return value;
    const secretsOf = [...whole, ...labelled];
    const labelledSet = new Set(labelled);
    return deepMap(value, (text) => this.#masked(text, secretsOf, labelledSet)) as T;
  }

  /** Which secrets are masked whole (they hold another one), and which get labels. */
  #plan(secrets: readonly string[]): { whole: string[]; labelled: string[] } {
    const opaque = [...new Set(secrets)].filter((s) =>
      s.length >= MIN_LABELLED && !isOrdinaryWord(s)
    );
    const whole: string[] = [];
    const labelled: string[] = [];
    for (const s of opaque) {
      const inner = opaque.filter((t) => t !== s && s.includes(t));
      if (inner.length === 0) labelled.push(s);
      else if (!inner.some((t) => s.endsWith(t) && SCHEME.test(s.slice(0, -t.length)))) {
        whole.push(s);
      }
    }
    return { whole, labelled };
  }

  /**
   * `text` with each place of one of `secrets` as its label if it is one of
   * `labelled` and stands alone, else `***`; places that overlap (one secret
   * holding another, or the end of one the start of another) are masked as
   * one `***`: replaced one secret after the other, the second kept the part
   * the first had not covered.
   */
  #masked(text: string, secrets: readonly string[], labelled: ReadonlySet<string>): string {
    const places = secrets.flatMap((s) => placesOf(text, s)).sort((a, b) => a.start - b.start);
    let out = "";
    let at = 0;
    for (let i = 0; i < places.length;) {
      const { start, secret } = places[i];
      let end = places[i].end;
      let j = i + 1;
      for (; j < places.length && places[j].start < end; j++) end = Math.max(end, places[j].end);
      const alone = j === i + 1 && labelled.has(secret);
      out += text.slice(at, start) + (alone ? this.#label(secret) : "***");
      at = end;
      i = j;
    }
    return out + text.slice(at);
  }

  #label(secret: string): string {
    let label = this.#labels.get(secret);
    if (label === undefined) this.#labels.set(secret, label = `masked-${this.#random()}`);
    return label;
  }
}

/** Where `secret` stands in `text`, overlapping places too. */
function placesOf(text: string, secret: string): { start: number; end: number; secret: string }[] {
  const places = [];
  for (let i = text.indexOf(secret); i >= 0; i = text.indexOf(secret, i + 1)) {
    places.push({ start: i, end: i + secret.length, secret });
  }
  return places;
}

function randomHex(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A copy of `value` with every string passed through `f` (keys kept). */
function deepMap(value: unknown, f: (text: string) => string): unknown {
  if (typeof value === "string") return f(value);
  if (Array.isArray(value)) return value.map((v) => deepMap(v, f));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepMap(v, f)]));
  }
  return value;
}
