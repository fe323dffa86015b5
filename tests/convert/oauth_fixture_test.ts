/**
 * The OAuth 2 rules of `convert har` on a second provider shape, a hand-made
 * Keycloak-like recording (tests/fixtures/har/keycloak_pkce_graphql.har: realm
 * paths, `response_mode=query`, a `302` to the SPA's `/silent-callback` with
 * `code`, `state` and `session_state`, JWT tokens, a refresh, GraphQL on the
 * app's host): the code is captured from the redirect's `Location`, the PKCE
 * pair is a new valid one, `state` and `nonce` are fresh, `redirect_uri`
 * follows the app's base URL, and the refreshed token is the one sent after.
 * The rules were built on tests/apps/oauthql.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { s256 } from "../../lib/convert/oauth.ts";
import { runCli } from "../support/cli.ts";
import { harCheck } from "../support/harcheck.ts";

const HAR = new URL("../fixtures/har/keycloak_pkce_graphql.har", import.meta.url).pathname;

Deno.test("a Keycloak-shaped PKCE login converts to a flow that makes its own authorization", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/flow.yaml`;
    const converted = await runCli(["convert", "har", HAR, "-o", out]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(out);
    const har = await Deno.readTextFile(HAR);
    const recorded = JSON.parse(har).log.entries;
    const doc = parse(flow) as {
      vars: Record<string, string>;
      steps: {
        name: string;
        request: Record<string, unknown>;
        capture?: Record<string, unknown>;
      }[];
    };
    // The pair is made at conversion: valid, and not the recorded one.
    const verifier = doc.vars.pkce_code_verifier;
    assert.match(verifier, /^[A-Za-z0-9_-]{43}$/, flow);
    assert.equal(doc.vars.pkce_code_challenge, s256(verifier));
    assert.equal(doc.vars.oauth_state, "${RANDOM.HEX_32}");
    assert.equal(doc.vars.oauth_nonce, "${RANDOM.HEX_32}");
    const authorize = doc.steps.find((s) => String(s.request.url).includes("/auth?"))!;
    assert.match(
      String(authorize.request.url),
      /redirect_uri=\$\{vars\.base_url(_\d)?\}\/silent-callback&.*state=\$\{vars\.oauth_state\}&nonce=\$\{vars\.oauth_nonce\}&code_challenge=\$\{vars\.pkce_code_challenge\}&code_challenge_method=S256/,
    );
    // The code comes from the redirect's Location; the token steps read captures.
    const redirect = doc.steps.find((s) => s.capture?.code)!;
    assert.deepEqual(redirect.capture!.code, { header: "location", query: "code" });
    const [exchange, refresh] = doc.steps.filter((s) => String(s.request.url).endsWith("/token"));
    assert.deepEqual(exchange.request.form, {
      grant_type: "authorization_code",
      code: `\${steps.${redirect.name}.capture.code}`,
      redirect_uri: exchange.request.form && (exchange.request.form as Record<string, string>)
        .redirect_uri,
      code_verifier: "${vars.pkce_code_verifier}",
      client_id: "web",
    });
    assert.match(
      (exchange.request.form as Record<string, string>).redirect_uri,
      /^\$\{vars\.base_url(_\d)?\}\/silent-callback$/,
    );
    assert.equal(
      (refresh.request.form as Record<string, string>).refresh_token,
      `\${steps.${exchange.name}.capture.refresh_token}`,
    );
    // GraphQL: the order id from the mutation, in the persisted GET's variables and the POST after.
    const last = doc.steps.at(-1)!;
    assert.match(
      JSON.stringify(last.request.headers),
      new RegExp(`Bearer \\$\\{steps\\.${refresh.name}\\.capture\\.access_token\\}`),
    );
    assert.match(
      flow,
      /variables=%7B%22id%22%3A%22\$\{steps\.place_order\.capture\.order_id\}%22%7D/,
    );
    assert.deepEqual(
      (last.request.body as { variables: unknown }).variables,
      { id: "${steps.place_order.capture.order_id}" },
    );
    assert.doesNotMatch(converted.stderr, /OAUTH_CODE/);
    for (const e of recorded) {
      const q = new URL(e.request.url).searchParams;
      for (const k of ["state", "nonce", "code_challenge", "code"]) {
        const v = q.get(k);
        if (v) assert.ok(!flow.includes(v), `${k} ${v} is in the flow\n${flow}`);
      }
    }
    assert.ok(!flow.includes("Qm9vLXJlY29yZGVkLXZlcmlmaWVyLWtleWNsb2FrLTAwMDAx"), flow);
    assert.deepEqual(harCheck(har, flow).leaks, [], flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
