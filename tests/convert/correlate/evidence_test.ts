/**
 * Evidence over names (issue 52, classes 6 and 7): a value a request sends
 * that an earlier response produced is a capture from that response, whatever
 * the key or header it is sent under is named; only values no response
 * produced are asked of the user; an ordinary word of the API or a cookie's
 * name is never a secret, and masking never reaches a YAML key. Each flow
 * is checked as `flowrun validate` would load it.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../../lib/convert/har.ts";
import { loadFlow } from "../../../lib/load/mod.ts";
import { withEngines } from "../../../lib/load/engines.ts";
import { harOf } from "../../support/har_records.ts";

/** The flow's problems as the loader sees them (variables unset are not problems here). */
function problems(yaml: string): Promise<string[]> {
  return withEngines(() =>
    loadFlow(yaml, "flow.yaml", { checkEnv: false }).problems.map((p) => p.message)
  );
}

Deno.test("a nonce a response body held, sent under a secret-named header, is captured, not asked", async () => {
  const nonce = "Zm9vYmFyYmF6cXV4Ky8=";
  const { yaml, summary } = convertHar(harOf([
    { url: "https://app.test/api/challenge", json: { challenge: { nonce } } },
    {
      method: "POST",
      url: "https://app.test/api/answer",
      headers: [["X-Nonce-Token", nonce], ["content-type", "application/json"]],
      body: JSON.stringify({ ok: true }),
      json: { ok: true },
    },
  ]));
  assert.deepEqual(summary.env, [], yaml);
  assert.match(yaml, /x-nonce-token: \$\{steps\.get_challenge\.capture\.\w+\}/, yaml);
  assert.ok(!yaml.includes(nonce), yaml);
  assert.deepEqual(await problems(yaml), []);
});

Deno.test("a value a response held, sent in a secret-named body field and query parameter, is captured", async () => {
  const value = "c3RhdGU6OTk6eHl6+/w=";
  const { yaml, summary } = convertHar(harOf([
    { url: "https://app.test/api/reset", json: { data: { value } } },
    {
      method: "POST",
      url: `https://app.test/api/reset/confirm?signature=${encodeURIComponent(value)}`,
      headers: [["content-type", "application/json"]],
      body: JSON.stringify({ reset_token: value }),
      json: { ok: true },
    },
  ]));
  assert.deepEqual(summary.env, [], yaml);
  assert.match(yaml, /signature=\$\{steps\.\w+\.capture\.\w+\}/, yaml);
  assert.match(yaml, /reset_token: \$\{steps\.\w+\.capture\.\w+\}/, yaml);
  assert.deepEqual(await problems(yaml), []);
});

Deno.test("a credential no response produced is still asked of the user", () => {
  const { yaml, summary } = convertHar(harOf([
    { url: "https://app.test/api/me", headers: [["X-Api-Key", "k_live_9f8e7d6c5b4a"]], json: {} },
  ]));
  assert.deepEqual(summary.env, ["API_KEY"], yaml);
  assert.ok(!yaml.includes("k_live_9f8e7d6c5b4a"), yaml);
});

Deno.test("a word the API uses under a key named like a secret in a listing is not a secret", async () => {
  const schema = {
    data: [
      {
        schema: { foreign_key_column: "id", foreign_key_table: "articles", table_key: "articles" },
      },
    ],
  };
  const { yaml, summary } = convertHar(harOf([
    { url: "https://cms.test/relations", json: schema },
    { url: "https://cms.test/items/articles?fields=articles.title", json: { data: [] } },
    {
      method: "POST",
      url: "https://cms.test/items/articles",
      headers: [["content-type", "application/json"]],
      body: JSON.stringify({ collection: "articles", articles: { title: "Hello" } }),
      json: { data: { id: 1 } },
    },
  ]));
  assert.deepEqual(summary.env, [], yaml);
  assert.ok(!yaml.includes("RECORDED_SECRET") && !yaml.includes("***"), yaml);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/items\/articles\?fields=articles\.title/, yaml);
  assert.match(yaml, /collection: articles/, yaml);
  assert.deepEqual(await problems(yaml), []);
});

Deno.test("a session cookie's name is never a secret: it is never masked into a YAML key", async () => {
  const { yaml } = convertHar(harOf([
    {
      method: "POST",
      url: "https://cms.test/auth/login",
      headers: [["content-type", "application/json"]],
      body: JSON.stringify({ email: "ann@cms.test", password: "Sup3r-Secret!" }),
      json: { data: { session_cookie: "cms_session_token", expires: 900000 } },
      setCookies: [["cms_session_token", "eyJhbGciOi.eyJpZCI6MX0.c2lnbmF0dXJl"]],
    },
    {
      url: "https://cms.test/users/me",
      headers: [["Cookie", "cms_session_token=eyJhbGciOi.eyJpZCI6MX0.c2lnbmF0dXJl"]],
      json: { data: { id: "u1" } },
    },
  ]));
  assert.deepEqual(await problems(yaml), [], yaml);
  assert.match(yaml, /cms_session_token: \{ cookie: cms_session_token \}/, yaml);
  assert.match(
    yaml,
    /cookie: cms_session_token=\$\{steps\.login\.capture\.cms_session_token\}/,
    yaml,
  );
  assert.ok(!yaml.includes("***") && !yaml.includes("Sup3r-Secret!"), yaml);
});

Deno.test("a value under a token-named key that a later response repeats is the API's, not a secret", async () => {
  const { yaml } = convertHar(harOf([
    { url: "https://cms.test/relations", json: { data: [{ foreign_key_table: "articles_2024" }] } },
    { url: "https://cms.test/collections", json: { data: [{ collection: "articles_2024" }] } },
    { url: "https://cms.test/items/articles_2024", json: { data: [] } },
  ]));
  assert.ok(!yaml.includes("***") && !yaml.includes("RECORDED_SECRET"), yaml);
  assert.match(yaml, /# GET https:\/\/cms\.test\/items\/articles_2024 → 200/, yaml);
  assert.deepEqual(await problems(yaml), []);
});

Deno.test("a token no later response repeats stays a secret: masked in comments, captured where sent", () => {
  const token = "tk_9f8e7d6c5b4a3f2e1d0c";
  const { yaml } = convertHar(harOf([
    {
      method: "POST",
      url: "https://a.test/session",
      headers: [["content-type", "application/json"]],
      body: "{}",
      json: { access_token: token },
    },
    { url: `https://a.test/export?access_token=${token}`, json: { data: [] } },
  ]));
  assert.ok(!yaml.includes(token), yaml);
  assert.match(yaml, /access_token=\$\{steps\.\w+\.capture\.access_token\}/, yaml);
});

Deno.test("a response header's token sent inside longer text (JSON in a string, a percent-encoded URL in a query value) is captured there", async () => {
  const token = "q+/Zm9vYmFy9x==";
  const at = (s: number) => `2026-01-01T00:00:0${s}Z`;
  const { yaml, summary } = convertHar(JSON.stringify({
    log: {
      entries: [
        {
          startedDateTime: at(0),
          request: { method: "GET", url: "https://a.test/api/start", headers: [] },
          response: {
            status: 200,
            headers: [{ name: "X-Request-Nonce", value: token }],
            content: { mimeType: "application/json", text: "{}" },
          },
        },
        {
          startedDateTime: at(1),
          request: {
            method: "POST",
            url: `https://a.test/api/go?next=${encodeURIComponent(`/cb?nonce=${token}`)}`,
            headers: [{ name: "content-type", value: "application/json" }],
            postData: {
              mimeType: "application/json",
              text: JSON.stringify({ envelope: JSON.stringify({ nonce: token }) }),
            },
          },
          response: { status: 200, content: { mimeType: "application/json", text: "{}" } },
        },
      ],
    },
  }));
  assert.deepEqual(summary.env, [], yaml);
  const ref = "${steps.start.capture.x_request_nonce}";
  assert.ok(yaml.includes(`?next=/cb?nonce=${ref}`), yaml);
  assert.ok(yaml.includes(`envelope: '{"nonce":"${ref}"}'`), yaml);
  assert.ok(!yaml.includes("Zm9vYmFy"), yaml);
  assert.deepEqual(await problems(yaml), []);
});

Deno.test("two recordings: equality is no evidence either way, a password equal in both is still asked, a listed word equal in both is not a secret", async () => {
  const recording = (session: string) =>
    harOf([
      {
        method: "POST",
        url: "https://cms.test/auth/login",
        headers: [["content-type", "application/json"]],
        body: JSON.stringify({ email: "ann@cms.test", password: "Sup3r-Secret!" }),
        json: { data: { access_token: session } },
      },
      {
        url: "https://cms.test/relations",
        headers: [["Authorization", `Bearer ${session}`]],
        json: {
          data: [{ schema: { foreign_key_column: "id", foreign_key_table: "articles_2024" } }],
        },
      },
      {
        url: "https://cms.test/items/articles_2024?fields[]=articles_2024.title",
        headers: [["Authorization", `Bearer ${session}`]],
        json: { data: [] },
      },
    ]);
  const { yaml, summary } = convertHar(recording("tok_1a2b3c4d5e6f7a8b"), {
    second: recording("tok_9f8e7d6c5b4a3f2e"),
  });
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
  assert.ok(!yaml.includes("Sup3r-Secret!") && !yaml.includes("tok_"), yaml);
  assert.ok(!yaml.includes("RECORDED_SECRET") && !yaml.includes("***"), yaml);
  assert.match(yaml, /authorization: Bearer \$\{steps\.login\.capture\.access_token\}/, yaml);
  assert.deepEqual(await problems(yaml), []);
});

Deno.test("a media type a response listed is not taken for a produced value: the request's content-type stays as recorded", () => {
  const { yaml } = convertHar(harOf([
    { url: "https://a.test/api/formats", json: { formats: ["application/json", "image/svg+xml"] } },
    {
      method: "POST",
      url: "https://a.test/api/items",
      headers: [["content-type", "application/json"]],
      body: JSON.stringify({ kind: "image/svg+xml" }),
      json: { ok: true },
    },
  ]));
  assert.match(yaml, /content-type: application\/json\n/, yaml);
  assert.match(yaml, /kind: image\/svg\+xml\n/, yaml);
});

Deno.test("a word the client sent before a listing shows it under a token-named key is the API's, never RECORDED_SECRET", async () => {
  const { yaml, summary } = convertHar(harOf([
    { url: "https://cms.test/items/articles_2024?limit=1", json: { data: [] } },
    { url: "https://cms.test/relations", json: { data: [{ foreign_key_table: "articles_2024" }] } },
    { url: "https://cms.test/items/articles_2024?limit=2", json: { data: [] } },
  ]));
  assert.deepEqual(summary.env, [], yaml);
  assert.ok(!yaml.includes("RECORDED_SECRET") && !yaml.includes("***"), yaml);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/items\/articles_2024\?limit=2/, yaml);
  assert.deepEqual(await problems(yaml), []);
});
