/**
 * A label of its own for each opaque secret in the HAR report, in place of
 * `***`: the token a login answered and the `Authorization` a later request
 * sent carry the same label, so `flowrun convert har` captures one from the
 * other instead of asking for it (a round trip, run → HAR → convert → run,
 * needs only what the user typed). A label is random per run, never made
 * from the secret; it tells only that two places held the same secret, which
 * the flow itself says. Ordinary words and short values keep the usual
 * masking, and a secret holding another one (other than after an auth
 * scheme, `Bearer <token>`) is masked whole first, so no part of it shows
 * beside a label; whatever is left (a base64 or URL-encoded form, a piece)
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
    const replace = (text: string) => {
      let out = text;
      for (const s of whole) out = out.replaceAll(s, "***");
      for (const s of labelled) out = out.replaceAll(s, () => this.#label(s));
      return out;
    };
    return deepMap(value, replace) as T;
  }

  /** Which secrets are masked whole first, and which get labels (shortest first). */
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
    whole.sort((a, b) => b.length - a.length);
    labelled.sort((a, b) => a.length - b.length);
    return { whole, labelled };
  }

  #label(secret: string): string {
    let label = this.#labels.get(secret);
    if (label === undefined) this.#labels.set(secret, label = `masked-${this.#random()}`);
    return label;
  }
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
