/**
 * OAuth 2 values a browser makes or receives during an authorization-code
 * login, which a recording cannot replay: the PKCE `code_verifier` and its
 * `code_challenge` (made by the page's script), the `state` and `nonce` of
 * the authorization request (made by the script, echoed by the provider),
 * and the `code` the provider hands out only in its redirect's `Location`.
 *
 * A flow cannot compute SHA-256, so the verifier/challenge pair is made at
 * conversion: a new verifier derived from the recorded one (the same HAR
 * gives the same flow) and its S256 challenge, both valid for any provider,
 * neither the recorded secret.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";

const K = new Uint32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);

/** SHA-256 of UTF-8 text, synchronously (Web Crypto's digest is async; conversion is not). */
function sha256(text: string): Uint8Array {
  const data = new TextEncoder().encode(text);
  const bits = data.length * 8;
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.length - 4, bits >>> 0);
  const h = new Uint32Array([
    0x6a09e667,
    0xbb67ae85,
    0x3c6ef372,
    0xa54ff53a,
    0x510e527f,
    0x9b05688c,
    0x1f83d9ab,
    0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let at = 0; at < padded.length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      [k, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, k].forEach((v, i) => h[i] = (h[i] + v) >>> 0);
  }
  const out = new Uint8Array(32);
  h.forEach((v, i) => new DataView(out.buffer).setUint32(i * 4, v));
  return out;
}

/**
 * The PKCE S256 challenge of a verifier: base64url of its SHA-256, unpadded.
 *
 * @example
 * ```ts
 * import { s256 } from "./oauth.ts";
 * // RFC 7636, appendix B.
 * if (s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") !== "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM") {
 *   throw new Error();
 * }
 * ```
 */
export function s256(verifier: string): string {
  return btoa(String.fromCharCode(...sha256(verifier))).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** What the flow sends in place of recorded OAuth values. */
export interface OauthPlan {
  /** Each recorded value (verifier, challenge, state, nonce) → the var that replaces it. */
  replaced: Map<string, string>;
  /** Vars to declare, in order: name and value. */
  vars: [string, string][];
}

/** The body's form fields, or none when it is not urlencoded. */
function formOf(r: HarRecord): URLSearchParams {
  const text = r.bodyText ?? "";
  return /^[^{[<\s][^\s]*$/.test(text) && text.includes("=")
    ? new URLSearchParams(text)
    : new URLSearchParams();
}

/**
 * Finds the authorization requests (a `response_type` and a `client_id` in
 * the query) and the token requests that send a `code_verifier`: each
 * recorded verifier whose S256 (or `plain`) challenge an authorization
 * request sent becomes a var holding a new verifier, its challenge another;
 * each `state` and `nonce` becomes a var with a fresh random value per run.
 *
 * @example
 * ```ts
 * import { planOauth, s256 } from "./oauth.ts";
 * import { parseHar } from "./har_model.ts";
 * const v = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
 * const { records } = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "GET", url: `https://id.test/authorize?response_type=code&client_id=c&state=st4te&code_challenge=${s256(v)}&code_challenge_method=S256` }, response: { status: 200 } },
 *   { request: { method: "POST", url: "https://id.test/token", postData: { mimeType: "application/x-www-form-urlencoded", text: `grant_type=authorization_code&code=abc&code_verifier=${v}` } }, response: { status: 200 } },
 * ] } }), []);
 * const plan = planOauth(records, (name) => name);
 * const [[, verifier], [, challenge], [, state]] = plan.vars;
 * if (verifier === v || s256(verifier) !== challenge || state !== "${RANDOM.HEX_32}") throw new Error(JSON.stringify(plan.vars));
 * if (plan.replaced.get(v) !== "pkce_code_verifier" || plan.replaced.get("st4te") !== "oauth_state") throw new Error();
 * ```
 */
export function planOauth(records: HarRecord[], take: (name: string) => string): OauthPlan {
  const plan: OauthPlan = { replaced: new Map(), vars: [] };
  const verifiers = records.flatMap((r) => formOf(r).getAll("code_verifier"))
    .concat(records.flatMap((r) => r.url.searchParams.getAll("code_verifier")));
  for (const r of records) {
    const q = r.url.searchParams;
    if (!q.has("response_type") || !q.has("client_id")) continue;
    const challenge = q.get("code_challenge");
    const plain = q.get("code_challenge_method")?.toLowerCase() === "plain";
    const verifier = verifiers.find((v) => challenge && (plain ? v : s256(v)) === challenge);
    if (challenge && verifier && !plan.replaced.has(verifier)) {
      const fresh = s256(`flowrun convert har: a PKCE verifier in place of ${verifier}`);
      const name = take("pkce_code_verifier");
      plan.vars.push([name, fresh]);
      plan.replaced.set(verifier, name);
      if (!plain) {
        const challengeName = take("pkce_code_challenge");
        plan.vars.push([challengeName, s256(fresh)]);
        plan.replaced.set(challenge, challengeName);
      }
    }
    for (const key of ["state", "nonce"]) {
      const value = q.get(key);
      if (!value || plan.replaced.has(value)) continue;
      const name = take(`oauth_${key}`);
      plan.vars.push([name, "${RANDOM.HEX_32}"]);
      plan.replaced.set(value, name);
    }
  }
  return plan;
}

/**
 * The query parameters of a redirect's `Location` worth capturing: opaque
 * values (an authorization `code`, a magic-link token) of eight characters
 * or more, by name.
 *
 * @example
 * ```ts
 * import { locationParams } from "./oauth.ts";
 * import { parseHar } from "./har_model.ts";
 * const { records } = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "POST", url: "https://id.test/consent" }, response: { status: 302,
 *     headers: [{ name: "Location", value: "https://app.test/cb?code=Zk9x_2bQ-r8&state=ab&lang=en" }] } },
 * ] } }), []);
 * if (JSON.stringify(locationParams(records[0])) !== '[["code","Zk9x_2bQ-r8"]]') throw new Error();
 * ```
 */
export function locationParams(r: HarRecord): [string, string][] {
  const response = r.raw.response as { status?: number; headers?: unknown } | undefined;
  if (typeof response?.status !== "number" || response.status < 300 || response.status > 399) {
    return [];
  }
  const headers = Array.isArray(response.headers) ? response.headers : [];
  const location = headers.find((h) =>
    typeof h?.name === "string" && h.name.toLowerCase() === "location"
  )?.value;
  if (typeof location !== "string" || !URL.canParse(location, r.url)) return [];
  return [...new URL(location, r.url).searchParams].filter(([, v]) =>
    v.length >= 8 && !/^[a-z]+$/i.test(v) && !/^(https?:|\/)/.test(v)
  );
}
