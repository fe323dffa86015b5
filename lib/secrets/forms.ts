/**
 * The forms of a secret the runner's own writers produce (JSON escapes,
 * percent-encoding, form encoding, shell quoting, base64 at any alignment)
 * and the parts of an Authorization-style value: finding these directly is
 * cheaper than decoding every text, and base64 can only be found this way.
 * What `Redactor.add` registers for a value.
 *
 * @module
 */
export { caseForms } from "./case_forms.ts";
export { echoedForms, echoedPieces, Echoes } from "./echo_forms.ts";

const lowerHex = (s: string) =>
  s.includes("%") ? s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()) : s;

/** `encodeURIComponent` and friends throw on a lone surrogate; skip that form. */
function tryEncode(encode: (s: string) => string, s: string): string | undefined {
  try {
    return encode(s);
  } catch {
    return undefined;
  }
}

/** The inside of `JSON.stringify(s)`. */
const jsonInner = (s: string) => JSON.stringify(s).slice(1, -1);

/** Printable ASCII but space, `"`, `/` and `\`: what JSON and `\/` leave as is. */
const JSON_PLAIN = /^[!#-.0-[\]-~]*$/;

/** What encodeURIComponent, encodeURI and form encoding all leave as is. */
const URL_PLAIN = /^[A-Za-z0-9*._-]*$/;

/** The value, whitespace-collapsed (one-line messages), JSON-escaped once and twice, `\/` too. */
function textForms(value: string): string[] {
  // Most secrets (tokens, keys, ids) have no whitespace and nothing JSON escapes: one form.
  if (JSON_PLAIN.test(value)) return [value];
  const flat = value.replace(/\s+/g, " ");
  const out: string[] = [];
  for (const v of new Set([value, flat, flat.trim()])) {
    const once = jsonInner(v);
    out.push(v);
    for (const json of [once, jsonInner(once)]) out.push(json, json.replaceAll("/", "\\/"));
  }
  return out;
}

/** Percent-encoded forms: component, form (`+` for space), whole-URI; both hex cases. */
function urlForms(value: string): string[] {
  // Letters, digits and -_.* are left as they are by all three encoders: no other form.
  if (URL_PLAIN.test(value)) return [];
  const component = tryEncode(encodeURIComponent, value);
  const forms = [
    component,
    component?.replaceAll("%20", "+"),
    formEncoded(value),
    tryEncode(encodeURI, value),
  ].filter((f): f is string => f !== undefined);
  return [...forms, ...forms.map(lowerHex)];
}

/**
 * `value` as `URLSearchParams` writes a form value (the URL standard's
 * application/x-www-form-urlencoded serializer): what `encodeURIComponent`
 * writes, `!'()~` escaped too, `+` for a space, a lone surrogate as U+FFFD.
 * The same string as `new URLSearchParams({ v: value }).toString().slice(2)`,
 * without building an object through Deno's WebIDL layer (about 20 µs a
 * registered value, one per login of a long suite).
 *
 * @example
 * ```ts
 * import { formEncoded } from "./forms.ts";
 * if (formEncoded("a b!~é") !== "a+b%21%7E%C3%A9") throw new Error(formEncoded("a b!~é"));
 * ```
 */
export function formEncoded(value: string): string {
  return encodeURIComponent(value.toWellFormed())
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll("%20", "+");
}

const UTF8 = new TextEncoder();

/** Shortest base64 run accepted as a hit: fewer characters match by chance. */
const MIN_BASE64_RUN = 4;

/**
 * The characters of base64(…secret…) that depend only on the secret's bytes,
 * for each of the three positions the secret can start at within a 3-byte
 * group, in the standard and URL-safe alphabets. Character i covers bits
 * [6i, 6i+6); with p filler bytes before it the secret covers bits
 * [8p, 8(p+n)), so the fully determined characters are those with
 * 6i ≥ 8p and 6i+6 ≤ 8(p+n).
 */
function base64Runs(value: string): string[] {
  const bytes = UTF8.encode(value);
  const runs: string[] = [];
  for (let p = 0; p < 3; p++) {
    // p filler bytes before, zeros after to a whole group (they only touch characters cut off).
    const padded = new Uint8Array(Math.ceil((p + bytes.length) / 3) * 3);
    padded.set(bytes, p);
    // The typed array's own encoder: `btoa` wants a binary string and costs ~2 ms to load.
    const run = padded.toBase64().slice(
      Math.ceil((8 * p) / 6),
      Math.floor((8 * (p + bytes.length)) / 6),
    );
    if (run.length < MIN_BASE64_RUN) continue;
    runs.push(run);
    // Letters and digits only: the URL-safe, percent-encoded and `\/` forms are the same.
    if (!run.includes("+") && !run.includes("/")) continue;
    const inQuery = encodeURIComponent(run);
    runs.push(
      run.replaceAll("+", "-").replaceAll("/", "_"),
      inQuery,
      lowerHex(inQuery),
      run.replaceAll("/", "\\/"),
    );
  }
  return runs;
}

/** Auth schemes whose credential follows one space: `Bearer abc`, `Basic dXNl…`. */
const AUTH_SCHEME = /^(Basic|Bearer|Token|ApiKey|DPoP|Negotiate|NTLM)\s+(\S+)$/i;

/**
 * The response hash of a `Digest` Authorization value: its one credential. Registered whole, the
 * value's pieces masked `", algorithm=MD5, ` in every other flow's text after a digest failure.
 */
const DIGEST_RESPONSE = /^Digest\s.*?(?:^|[\s,])response\s*=\s*"?([^",\s]+)/i;

/** Decodes standard or URL-safe base64 as UTF-8, or undefined. */
function decodeBase64(text: string): string | undefined {
  try {
    const bytes = Uint8Array.fromBase64(text.replaceAll("-", "+").replaceAll("_", "/"));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Every text form of a value to mask as a literal: the value, whitespace-
 * collapsed, with each `+` read as a space (a form decoder's reading of a
 * token written unencoded in a query), JSON-escaped once and twice (`\/`
 * too), percent- and form-encoded in both hex cases, and each of those as a
 * POSIX shell's single quotes write it (`'` as `'\''`), for a pasted command.
 *
 * @example
 * ```ts
 * import { literalForms } from "./forms.ts";
 * const forms = literalForms("it's a/b");
 * for (const f of ["it's a/b", "it's a\\/b", "it's%20a%2Fb", "it%27s+a%2Fb", "it'\\''s a/b"]) {
 *   if (!forms.has(f)) throw new Error(f + " in " + [...forms].join(" | "));
 * }
 * if (!literalForms("Qm8+vZ3/k").has("Qm8 vZ3/k")) throw new Error();
 * ```
 */
export function literalForms(value: string): Set<string> {
  // Most forms of a value are the value again (`Bearer t` has five text forms, one distinct).
  const literals = new Set(textForms(value));
  // Each `+` read as a space, as a form decoder reads a token a server wrote unencoded in a query.
  if (value.includes("+") && !/\s/.test(value)) {
    for (const f of textForms(value.replaceAll("+", " "))) literals.add(f);
  }
  for (const f of urlForms(value)) literals.add(f);
  for (const f of [...literals]) if (f.includes("'")) literals.add(f.replaceAll("'", "'\\''"));
  return literals;
}

/**
 * The base64 runs of a value and of its JSON forms (a base64 blob of a JSON
 * document, maybe nested), at each byte alignment, in both alphabets; each
 * run of 16 characters or more also lower-cased, as a loose reading of a
 * text reads a blob wrapped into lines (see `loose_view.ts`).
 *
 * @example
 * ```ts
 * import { base64Forms } from "./forms.ts";
 * const blob = btoa("token=hunter22-secret");
 * if (!base64Forms("hunter22-secret").some((run) => blob.includes(run))) throw new Error();
 * if (!base64Forms("hunter22-secret").includes(btoa("hunter22-secret").toLowerCase().slice(0, 20))) throw new Error();
 * ```
 */
export function base64Forms(value: string): string[] {
  const forms = JSON_PLAIN.test(value)
    ? [value]
    : new Set([value, jsonInner(value), jsonInner(jsonInner(value))]);
  const runs: string[] = [];
  for (const form of forms) runs.push(...base64Runs(form));
  return [...runs, ...runs.filter((run) => run.length >= 16).map((run) => run.toLowerCase())];
}

/**
 * The parts of an Authorization-style value (`Basic|Bearer|Token|ApiKey|DPoP|
 * Negotiate|NTLM <credential>`, trimmed): the credential, and for `Basic`
 * the decoded `user:password` and the password alone; for `Digest …` the
 * response hash alone (the rest is protocol text: `algorithm=MD5`, the
 * realm, the nonce). Undefined for any other value.
 *
 * @example
 * ```ts
 * import { authParts } from "./forms.ts";
 * const parts = authParts("Basic " + btoa("demo:hunter22"));
 * if (parts?.decoded !== "demo:hunter22" || parts.password !== "hunter22") throw new Error();
 * if (authParts("Bearer abc")?.credential !== "abc" || authParts("abc") !== undefined) throw new Error();
 * if (authParts('Digest realm="r", algorithm=MD5, response="9f0e"')?.credential !== "9f0e") throw new Error();
 * ```
 */
export function authParts(
  trimmed: string,
): { credential: string; decoded?: string; password?: string } | undefined {
  const digest = DIGEST_RESPONSE.exec(trimmed);
  if (digest) return { credential: digest[1] };
  const auth = AUTH_SCHEME.exec(trimmed);
  if (!auth) return undefined;
  if (auth[1].toLowerCase() !== "basic") return { credential: auth[2] };
  const decoded = decodeBase64(auth[2]);
  const colon = decoded?.indexOf(":") ?? -1;
  if (decoded === undefined || colon < 0) return { credential: auth[2] };
  return { credential: auth[2], decoded, password: decoded.slice(colon + 1) };
}
