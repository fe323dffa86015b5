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
import { sha256 } from "../_util/sha256.ts";

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
  const digest = sha256(new TextEncoder().encode(verifier));
  return btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_")
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
