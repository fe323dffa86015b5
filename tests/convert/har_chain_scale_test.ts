/**
 * `convert har` on a long token chain (tests/support/token_chain.ts): N POSTs,
 * each sending back the token the answer before handed out, converted in
 * time linear in N. Stages that, for each request, looked over every earlier
 * answer or every other request made 4,000 entries take over a minute: the
 * logins (each token searched for in every request), the names the client
 * chose (every later path read per sent string), the cookies a dropped
 * request showed (the kept requests before gathered anew per request), the
 * secrets a text may hold (each tried in every text) and the public names in
 * each secret (every step's name searched in every token). Each is timed
 * alone, where a quadratic stage shows plainly, and the whole conversion on
 * each place the token goes back: a JSON field, a bearer, a JWT bearer (all
 * sharing their first characters), a refresh token.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { newCorrelator } from "../../lib/convert/correlate/pipeline.ts";
import { findLogins } from "../../lib/convert/correlate/logins.ts";
import { ownClientNames } from "../../lib/convert/correlate/client_names.ts";
import { candidateTokens } from "../../lib/convert/correlate/token_index.ts";
import { holdDroppedCookies } from "../../lib/convert/held_cookies.ts";
import type { HarRecord } from "../../lib/convert/har_model.ts";
import type { Producer } from "../../lib/convert/model.ts";
import { Redactor } from "../../lib/secrets/mod.ts";
import { recordsOf } from "../support/har_records.ts";
import { assertLinear, TIMING } from "../support/timing.ts";
import {
  chainJwt,
  type ChainPlace,
  chainSpecs,
  chainToken,
  tokenChain,
} from "../support/token_chain.ts";

const WHERE: Record<ChainPlace, RegExp> = {
  body: /\n {8}token: \$\{steps\.[a-z_0-9]+\.capture\.token\}\n/,
  header: /authorization: Bearer \$\{steps\.[a-z_0-9]+\.capture\.token\}\n/,
  jwt: /authorization: Bearer \$\{steps\.[a-z_0-9]+\.capture\.token\}\n/,
  refresh: /refresh_token: \$\{steps\.[a-z_0-9]+\.capture\.refresh_token\}\n/,
};

for (const place of ["body", "header", "jwt", "refresh"] as const) {
  Deno.test(`a chain of ${place} tokens converts in linear time ${TIMING}`, () => {
    const hars = new Map([100, 800].map((n) => [n, tokenChain(n, place)]));
    const last = convertHar(hars.get(800)!).yaml;
    // The chain is still followed at scale: the last request sends the token the one before got.
    assert.match(last, WHERE[place]);
    // 8 times the requests: well under 8 × 3 the time (quadratic would be 64 ×).
    assertLinear(`har convert (${place})`, (n) => convertHar(hars.get(n)!), 100, 8, 3);
  });
}

/** The records of chains of 300 and 2,400 requests, by length. */
function chains(place: ChainPlace): Map<number, HarRecord[]> {
  return new Map([300, 2_400].map((n) => [n, recordsOf(chainSpecs(n, place))]));
}

Deno.test(`the logins of a token chain are found in linear time ${TIMING}`, () => {
  const records = chains("refresh");
  const c = newCorrelator("a");
  findLogins(c, records.get(2_400)!);
  // Each answer's token is sent on by the next request: every answer but the last began a session.
  assert.equal(c.loginRecords.size, 2_399);
  assertLinear("logins", (n) => findLogins(newCorrelator("a"), records.get(n)!), 300);
});

Deno.test(`the names a chain's writes sent are judged in linear time ${TIMING}`, () => {
  const records = chains("body");
  assertLinear("client names", (n) => ownClientNames(newCorrelator("a"), records.get(n)!), 300);
});

Deno.test(`the cookies a chain's requests held are read in linear time ${TIMING}`, () => {
  const records = chains("header");
  assertLinear("held cookies", (n) => {
    const all = records.get(n)!;
    return holdDroppedCookies(newCorrelator("a"), all, all);
  }, 300);
});

// Plain tokens, and JWTs, which all begin alike: an index by a secret's first characters finds
// every JWT a candidate in every text.
for (const [kind, token] of [["token", chainToken], ["JWT", chainJwt]] as const) {
  Deno.test(`which ${kind}s of a chain a text may hold is found in linear time ${TIMING}`, () => {
    const tokens = (n: number) =>
      Array.from(
        { length: n },
        (_, i): [string, Producer] => [token(i), { secret: true } as Producer],
      );
    const lists = new Map([300, 2_400].map((n) => [n, tokens(n)]));
    const texts = (n: number) => Array.from({ length: n }, (_, i) => `Bearer ${token(i)}`);
    const sent = new Map([300, 2_400].map((n) => [n, texts(n)]));
    // Each text may hold the one token it names (a candidate is then searched for in it).
    assert.ok(candidateTokens(lists.get(300)!, sent.get(300)![7]).includes(7));
    assertLinear(`secret ${kind}s`, (n) => {
      const list = lists.get(n)!;
      // As withTokens (tokens.ts) does: each candidate is then searched for in the text.
      let found = 0;
      for (const text of sent.get(n)!) {
        for (const at of candidateTokens(list, text)) if (text.includes(list[at][0])) found++;
      }
      return found;
    }, 300);
  });
}

Deno.test(`a chain's secrets are registered beside its step names in linear time ${TIMING}`, () => {
  const register = (n: number) => {
    const r = new Redactor();
    for (let i = 0; i < n; i++) r.addPublic(`sync_${i + 2}`);
    for (let i = 0; i < n; i++) r.add(chainToken(i));
    return r;
  };
  const r = register(300);
  assert.equal(r.redact(`x ${chainToken(42)} sync_42`), "x *** sync_42");
  assertLinear("secrets", register, 1_000);
});
