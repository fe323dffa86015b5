/**
 * Facts about the session read before any step is built: which records are
 * logins (their response issues a token a later request sends) and which
 * OAuth values the client made fresh (PKCE verifier and challenge, state,
 * nonce), sent as vars instead.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { walk } from "../json.ts";
import { planOauth } from "../oauth.ts";
import { looksLikeToken } from "../values.ts";
import type { Correlator } from "./state.ts";
import { TailedTexts } from "../../secrets/mod.ts";

/**
 * Marks records whose response holds a token a later request sends and no
 * request sent before (the answer issued it): they are logins.
 *
 * @example
 * ```ts
 * import { findLogins } from "./logins.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
 * const login = { url: new URL("https://a.test/login"), headers: [], hasJson: true, json: { access_token: token } };
 * const later = { url: new URL("https://a.test/me"), headers: [{ name: "authorization", value: `Bearer ${token}` }] };
 * // deno-lint-ignore no-explicit-any
 * findLogins(c, [login, later] as any);
 * if (c.loginRecords.size !== 1) throw new Error();
 * ```
 */
export function findLogins(c: Correlator, records: HarRecord[]): void {
  const sent = records.map((l) =>
    `${l.url.href}\n${l.headers.map((h) => h.value).join("\n")}\n${l.bodyText ?? ""}`
  );
  const answered = records.map((r) => {
    const tokens: string[] = [];
    if (!r.hasJson) return tokens;
    walk(r.json, (_path, key, leaf) => {
      if (looksLikeToken(key, leaf)) tokens.push(leaf as string);
    });
    return tokens;
  });
  const { first, last } = sentAt(answered.flat(), sent);
  answered.forEach((tokens, i) => {
    // A token the client sent already was issued before: an answer that echoes it issues nothing.
    const issued = tokens.filter((t) => !((first.get(t) ?? Infinity) <= i));
    const later = issued.some((t) => (last.get(t) ?? -1) > i);
    if (later) c.loginRecords.add(records[i]);
  });
}

/**
 * For each of `tokens`, the first and the last of `sent` (the requests' texts)
 * it stands in: each text read once against an index of the tokens, not
 * every earlier and later request searched for each token an answer handed
 * out (quadratic on a chain of refreshed tokens).
 */
function sentAt(
  tokens: readonly string[],
  sent: readonly string[],
): { first: Map<string, number>; last: Map<string, number> } {
  const index = new TailedTexts();
  for (const t of tokens) index.add(t);
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  sent.forEach((text, j) => {
    for (const [, t] of index.places(text)) {
      if (!first.has(t)) first.set(t, j);
      last.set(t, j);
    }
  });
  return { first, last };
}

/**
 * Declares the vars an OAuth flow sends fresh in place of recorded values
 * (see `oauth.ts`), which are then secrets.
 *
 * @example
 * ```ts
 * import { freshOauthValues } from "./logins.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * freshOauthValues(c, []);
 * if (c.oauthFresh.size !== 0) throw new Error();
 * ```
 */
export function freshOauthValues(c: Correlator, records: HarRecord[]): void {
  const oauth = planOauth(records, (name) => c.varNames.take(name));
  c.vars.push(...oauth.vars);
  for (const [value, name] of oauth.replaced) {
    c.oauthFresh.set(value, c.sp.varRef(name));
    c.secrets.add(value);
  }
}
