/**
 * The redactor: the registry of a run's secret values and the one function
 * every text passes through on its way to an artifact. It masks registered
 * values raw, in the forms the runner writes (JSON, percent-encoding, base64,
 * `Basic`), inside any escaping (decoded first, see `decode.ts`), cut short
 * with `…`, and JSON Web Tokens whether registered or not; ordinary-word
 * secrets by provenance in request text (`shown`). Pure: no `Deno.*`.
 *
 * @module
 */
import { headOf } from "../model/masking.ts";
import { authParts, base64Forms, echoedPieces, Echoes, literalForms } from "./forms.ts";
import {
  mergeSpans,
  MIN_SECRET_LENGTH,
  SecretIndex,
  SHORT_SECRET,
  type Span,
} from "./secret_index.ts";
import { dropKeySpans, ShownTexts } from "./public_parts.ts";
import { ownText } from "./unguessable.ts";
import { maskValue, type ValueMasks } from "./value_walk.ts";
import { TailedTexts } from "./tailed_texts.ts";

export { formEncoded } from "./forms.ts";
export { MIN_SECRET_LENGTH, SHORT_SECRET } from "./secret_index.ts";

/**
 * What a secret is replaced with: short, and plainly not a real value.
 *
 * @example
 * ```ts
 * import { MASK, Redactor } from "./redactor.ts";
 * const r = new Redactor();
 * r.add("hunter22");
 * if (r.redact("pw=hunter22") !== `pw=${MASK}`) throw new Error();
 * ```
 */
export const MASK = "***";

/** What every shortened text ends with; the redactor also masks a secret's start before it. */
const CUT = "…";

/** What code that shortens values for people needs of a redactor; defined in `model/`. */
export type { Masking } from "../model/masking.ts";

/**
 * Masks registered secret values, raw and encoded, in any text.
 *
 * @example
 * ```ts
 * import { Redactor } from "./redactor.ts";
 * const r = new Redactor();
 * r.add("s3cr3t/+=& value");
 * const url = "https://api.test/?token=" + encodeURIComponent("s3cr3t/+=& value");
 * if (r.redact(url) !== "https://api.test/?token=***") throw new Error(r.redact(url));
 * if (r.redact('{"p":"s3cr3t\\u002F\\u002B=\\u0026 value"}') !== '{"p":"***"}') throw new Error();
 * ```
 */
export class Redactor {
  /** Registered values, in the order added; those given to `add`, with their shown texts. */
  #values = new Set<string>();
  #added = new Map<string, readonly string[] | undefined>();
  #index = new SecretIndex(); // where registered values and their pieces stand in a text
  /** Texts that are never secret (the run id), however a secret is made of them. */
  #public = new TailedTexts();
  #shown = new ShownTexts();
  #echoes = new Echoes(); // the other forms a server echoes a secret in, and where to look
  /** Each short (or Authorization) value given to `add`, after `size` values: `said_since.ts`. */
  readonly shortAdded: [number, string, readonly string[] | undefined][] = [];

  /**
   * Declares a text public (the run id, written everywhere): a secret made
   * only of public texts is not registered, one that holds one is masked as
   * a whole but not by its public part. Declare it before such secrets.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.addPublic("20261125-060431-503cc2");
   * r.add("pw-20261125-060431-503cc2");
   * r.add("20261125-060431-503cc2");
   * if (r.redact("u-20261125-060431-503cc2") !== "u-20261125-060431-503cc2") throw new Error();
   * if (r.redact("p=pw-20261125-060431-503cc2") !== "p=***") throw new Error();
   * ```
   */
  addPublic(text: string): void {
    if (text.trim().length >= MIN_SECRET_LENGTH) this.#public.add(text);
  }
  /**
   * Registers a secret value and its parts: trimmed; an Authorization-style
   * value's credential (`Basic|Bearer|Token|ApiKey|DPoP|Negotiate|NTLM`);
   * for `Basic` the decoded `user:password` and the password. Idempotent;
   * shorter than {@linkcode MIN_SECRET_LENGTH} (trimmed) is ignored. `shown`
   * are texts it was made from that are no secret (a non-secret var's
   * value): masked as a whole, but no piece of it within one of them.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("Basic " + btoa("demo:hunter22"));
   * r.add("Basic " + btoa("demo:hunter22"));
   * // the value, the credential, "demo:hunter22" and "hunter22"
   * if (r.size !== 4) throw new Error(String(r.size));
   * if (r.redact("password=hunter22") !== "password=***") throw new Error();
   * ```
   */
  add(value: string, shown?: readonly string[]): void {
    // The same values arrive with every request: known ones stop here, before any work.
    if (this.#added.has(value)) return;
    this.#added.set(value, shown);
    const trimmed = value.trim();
    const auth = authParts(trimmed);
    if (trimmed.length < SHORT_SECRET || auth) this.shortAdded.push([this.size, value, shown]);
    // The base64 forms and the pieces of `Bearer <credential>` are the credential's: base64 of
    // the value holds the credential's at one alignment, and a piece that is not inside the
    // credential is mostly the scheme. Registering the credential's alone halves the work
    // of the registration every flow that logs in makes.
    this.#register(value, auth === undefined, shown);
    this.#register(trimmed, auth === undefined, shown);
    if (!auth) return;
    this.#register(auth.credential, true, shown);
    if (auth.decoded === undefined || auth.password === undefined) return;
    this.#register(auth.decoded, true, shown);
    this.#register(auth.password, true, shown);
  }

  /**
   * Every value given to `add`, with its shown texts, in order: what a worker's redactor adds.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("pw-20261125", ["20261125"]);
   * const copy = new Redactor();
   * for (const [value, shown] of r.added()) copy.add(value, shown);
   * if (copy.redact("pw-20261125 20261125") !== "*** 20261125") throw new Error();
   * ```
   */
  added(): [string, readonly string[] | undefined][] {
    return [...this.#added];
  }

  /**
   * Whether a value was registered (as given, or as a part of one).
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("Bearer abc123");
   * if (!r.has("abc123") || r.has("abc")) throw new Error();
   * ```
   */
  has(value: string): boolean {
    return this.#values.has(value);
  }

  /**
   * Registers `value`'s literals and, with `whole`, its base64 forms and
   * pieces: those of its own text (see `ownText`), and its unguessable core.
   */
  #register(value: string, whole = true, shown: readonly string[] = []): void {
    if (value.trim().length < MIN_SECRET_LENGTH || this.#values.has(value)) return;
    const own = ownText(value, this.#public, shown);
    if (own === undefined) return;
    this.#values.add(value);
    this.#shown.noteSecret(value);
    for (const f of literalForms(value)) {
      if (f.length >= MIN_SECRET_LENGTH) this.#index.addLiteral(f, false, own.beginnings);
    }
    if (!whole) return;
    for (const run of base64Forms(value)) this.#index.addLiteral(run, true);
    for (const part of echoedPieces(own.stretches)) this.#index.addPieces(part);
    for (const f of literalForms(own.core ?? "")) if (f !== "") this.#index.addLiteral(f, false);
    for (const f of this.#echoes.forms(value)) this.#index.addLiteral(f, false, own.beginnings);
  }

  /**
   * Number of distinct registered values, parts included (for tests).
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("Bearer abc123");
   * if (r.size !== 2) throw new Error(); // the value and "abc123"
   * ```
   */
  get size(): number {
    return this.#values.size;
  }

  /**
   * Replaces every registered secret in `text` with {@linkcode MASK}, in
   * every form a reader could turn back into it: raw, whitespace collapsed;
   * inside up to three decodings of JSON escapes, percent-encoding and
   * HTML/XML references (its whole encoded extent masked); inside base64 at
   * any alignment; cut short (its first four characters before `…`, any 16
   * of its characters anywhere); and any JSON Web Token, registered or not.
   * Overlapping hits merge; a text with no hit is returned as it is.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("hunter22+ok");
   * if (r.redact("pw=hunter22\\u002Bok") !== "pw=***") throw new Error();
   * if (r.redact("pw=hunt…") !== "pw=***…") throw new Error();
   * if (r.redact("pw=hunter22&#43;ok") !== "pw=***") throw new Error();
   * const clean = "step login passed";
   * if (r.redact(clean) !== clean) throw new Error();
   * ```
   */
  redact(text: string): string {
    return this.#mask(text, false);
  }

  /**
   * The last pass over a text flowrun writes (a console line, a report's
   * file), made of values already masked with {@linkcode redact} or
   * {@linkcode redactValue} and of flowrun's own words: masks every secret
   * but those shorter than {@linkcode SHORT_SECRET}, which there would hit
   * flowrun's words (`1 flow: 2 passed`, `pass --var`) more often than a
   * value (a short password is masked where it is a value, before).
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * [r.add("flow"), r.add("tok-12345678")];
   * if (r.redactOutput("1 flow: tok-12345678") !== "1 flow: ***") throw new Error();
   * if (r.redact("kind: flow") !== "kind: ***") throw new Error();
   * ```
   */
  redactOutput(text: string): string {
    return this.#mask(text, false, false);
  }

  /**
   * Masks request text the runner masked by provenance (where it substituted
   * a secret): every secret but ordinary words (`admin`), the flow's own text
   * here. {@linkcode redact} then leaves those words inside this text, and
   * masks them elsewhere (and in `sent`, the text as sent, wherever it
   * stands). With `name`, `text` is that header's value.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * [r.add("admin"), r.add("tok-1234")];
   * if (r.shown("/admin/x?t=tok-1234") !== "/admin/x?t=***") throw new Error();
   * if (r.redact("GET /admin/x?t=*** → 500; role admin") !== "GET /admin/x?t=*** → 500; role ***") throw new Error();
   * if (r.shown("admin", "x-role") !== "admin" || r.redactValue({ "x-role": "admin" })["x-role"] !== "admin") throw new Error();
   * ```
   */
  shown(text: string, name?: string, sent?: string): string {
    const masked = this.#mask(text, true);
    this.#shown.keep(masked, name, sent === text ? undefined : sent);
    return masked;
  }

  /** The ordinary-word secrets in `text` (see {@linkcode shown}). */
  ordinaryWordsIn(text: string): string[] {
    return this.#shown.wordsIn(text);
  }

  #mask(text: string, shown: boolean, short = true): string {
    if (text.length < MIN_SECRET_LENGTH) return text;
    if (this.#index.literalCount === 0 && !text.includes("eyJ")) return text;
    // Most texts of a result are short (names, statuses, values): one comparison each.
    if (text.length < this.#index.shortest && !text.includes(CUT) && !text.includes("eyJ")) {
      return text;
    }
    const spans: Span[] = [];
    // The text itself first, then its other readings (decoded, spaced, unwrapped, lower-cased).
    for (const view of this.#echoes.readings(text, this.#index.isWanted)) {
      this.#index.spans(view.text, spans, view.map, short && view.short);
    }
    if (dropKeySpans(text, spans) === 0 || this.#shown.drop(text, spans, shown) === 0) return text;
    let out = "";
    let at = 0;
    for (const [s, e] of mergeSpans(spans)) {
      out += text.slice(at, s) + MASK;
      at = e;
    }
    return out + text.slice(at);
  }

  /**
   * {@linkcode redact} for records one a line (JSON Lines: a break in a value is escaped, and
   * a secret wrapped there is found in its line) keeping every line break: masked at once, unless
   * a mask would swallow a line break (two records that join into a secret); then line by line.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("tok-1234");
   * r.add("end\nstart");
   * if (r.redactLines('{"a":"tok-1234"}\n{"b":2}\n') !== '{"a":"***"}\n{"b":2}\n') throw new Error();
   * if (r.redactLines("x end\nstart y\n") !== "x end\nstart y\n") throw new Error();
   * ```
   */
  redactLines(text: string): string {
    const masked = this.redact(text);
    if (masked === text || masked.split("\n").length === text.split("\n").length) return masked;
    return text.split("\n").map((line) => this.redact(line)).join("\n");
  }

  /**
   * Masks `text`, then shortens it to at most `max` code points ending in
   * `…` (masked first: a cut secret is no longer recognisable).
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * const jwtLike = "k".repeat(200);
   * r.add(jwtLike);
   * if (r.shorten(`token ${jwtLike} end`, 20) !== "token *** end") throw new Error();
   * if (r.shorten(`token ${jwtLike} end`, 9) !== "token …") throw new Error();
   * if (r.shorten("abcdefghijkl", 5) !== "abcd…") throw new Error();
   * ```
   */
  shorten(text: string, max: number): string {
    return this.head(text, max - 1, max);
  }

  /**
   * Masks `text`, then keeps its first `keep` code points and `…` when it is
   * longer than `limit` (default `keep`); never splitting a mask or a pair.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("s3cret-value");
   * if (r.head("id s3cret-value", 3) !== "id …") throw new Error();
   * if (r.head("abcdef", 5) !== "abcde…" || r.head("abcde", 5) !== "abcde") throw new Error();
   * ```
   */
  head(text: string, keep: number, limit = keep): string {
    return headOf(this.redact(text), keep, limit);
  }

  /**
   * Deep-redacts a JSON-like (acyclic) value: each string through
   * {@linkcode redact}, a registered number as {@linkcode MASK}, keys kept.
   * The fields of flowrun's own records (see `own_fields.ts`: a step's
   * `status` and `name`, a duration) are flowrun's words: a secret shorter
   * than {@linkcode SHORT_SECRET} is not masked there, nor any of their
   * numbers. A new array or object only where something changed; class
   * instances, Maps and Dates are returned untouched.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redactor.ts";
   * const r = new Redactor();
   * r.add("tok-1234");
   * r.add("987654");
   * const clean = { ok: true };
   * const v = r.redactValue({ headers: [["authorization", "Bearer tok-1234"]], pin: 987654, clean });
   * if (v.headers[0][1] !== "Bearer ***" || (v.pin as unknown) !== "***" || v.clean !== clean) throw new Error();
   * r.add("pass");
   * const step = r.redactValue({ name: "pass it", status: "passed", actual: "pass", duration_ms: 987654 });
   * if (JSON.stringify(step) !== '{"name":"pass it","status":"passed","actual":"***","duration_ms":987654}') throw new Error();
   * ```
   *
   * `said` masks flowrun's own messages in it instead (see `said_since.ts`).
   */
  redactValue<T>(value: T, said?: (text: string) => string): T {
    if (value !== null && typeof value === "object" && this.#clean(value)) return value;
    return maskValue(value, said ? { ...this.#masks, said } : this.#masks);
  }

  /** What {@linkcode redactValue}'s walk asks (see `value_walk.ts`). */
  readonly #masks: ValueMasks = {
    text: (text) => this.redact(text),
    own: (text) => this.redactOutput(text),
    number: (value) => this.#values.has(String(value)) ? MASK : value,
    // A header the request showed as the flow wrote it (see `shown`).
    shown: (key, text) => this.#shown.hasPair(key, text) ? this.#mask(text, true) : undefined,
    sentName: (text) => this.#mask(text, true),
  };

  /** Whether a value's JSON text holds no secret (most step results): then it is not walked. */
  #clean(value: object): boolean {
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch {
      return false;
    }
    return text !== undefined && this.redact(text) === text;
  }
}
