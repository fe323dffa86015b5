/**
 * A response value is a secret by what it is (a token the server issued), not by the name above
 * it (issue 53, item 15). Seen on Unleash: a flow that created a client token and captured the
 * whole answer (`api_token: $.json`) or the token list (`tokens: $.json.tokens`) under names
 * that look secret made `default`, `development`, `client` and `admin` *** in every report, and
 * the answer's `createdAt` made every timestamp of that minute *** (the run's start in the
 * JUnit, each log line's `ts`), its first 16 characters being a piece of a "secret".
 */
import assert from "node:assert/strict";
import { responseLeaves, secretsInResponse } from "../../lib/secrets/discover.ts";
import { assertMasked, assertReadable, runFlow } from "./unleash_artifacts.ts";
import { ADMIN_TOKEN, CLIENT_TOKEN, startStandIn, TOKEN_HASH } from "./unleash_standin.ts";

const createdAt = "2026-11-26T08:01:49.210Z";
const answer = {
  tokenName: "flowrun-client",
  environment: "development",
  projects: ["default"],
  secret: CLIENT_TOKEN,
  type: "client",
  project: "default",
  createdAt,
  expiresAt: "2027-01-01",
  seenAt: "2026-11-26 08:01:50+00:00",
  secure: false,
};

Deno.test("of an issued token's answer, only what the server issued is secret", () => {
  const found: string[] = [];
  const list = { tokens: [answer, { ...answer, tokenName: "probe" }] };
  secretsInResponse({
    headers: { "content-type": "application/json" },
    text: JSON.stringify(list),
    json: { ok: true, value: list },
  }, (v) => void found.push(v));
  assert.deepEqual([...new Set(found)], [CLIENT_TOKEN]);
  // A capture named like a secret holds the whole answer: the same rule.
  const captured: string[] = [];
  responseLeaves({ ...answer, id: 4821, uuid: "9f1c2e7a-5b3d" }, (v) => void captured.push(v));
  assert.deepEqual(captured.sort(), ["4821", "9f1c2e7a-5b3d", CLIENT_TOKEN].sort());
});

/** What a server says about a credential: words and times, never issued as one. */
const PLAIN = [
  "default",
  "development",
  "production",
  "client",
  "admin",
  "read-only",
  "Bearer",
  "2026-11-26T08:01:49.210Z",
  "2026-11-26T08:01:49+01:00",
  "2026-11-26 08:01:50+00:00",
  "2027-01-01",
];
/** What a server issues: tokens of every shape seen, ids, a number. */
const ISSUED = [
  CLIENT_TOKEN,
  ADMIN_TOKEN,
  "tok-9f8e7d6c5b4a",
  "xKpQzRtYvWmNaBcDeFgHiJ",
  "550e8400-e29b-41d4-a716-446655440000",
  "2026-11-26T08:01:49.210Z.9f8e7d6c",
  "1764144112693",
];

Deno.test("every place a response names secret registers issued values and no plain data", () => {
  for (const value of [...PLAIN, ...ISSUED]) {
    const found: string[] = [];
    const register = (v: string) => void found.push(v);
    const body = { data: { session_token: value } };
    secretsInResponse({
      headers: { "content-type": "application/json", "x-auth-token": value },
      text: JSON.stringify(body),
      json: { ok: true, value: body },
    }, register);
    secretsInResponse({
      headers: { "set-cookie": `sid=${value}; Path=/` },
      text: "",
      json: { ok: false },
    }, register);
    responseLeaves({ token: value, list: [value] }, register);
    const expected = PLAIN.includes(value) ? 0 : 5; // header, body, cookie, two leaves
    assert.equal(found.filter((v) => v === value).length, expected, `${value}: ${found}`);
  }
});

Deno.test("an Unleash-like client token is masked in every artifact, its answers' words and times are not", async () => {
  const server = startStandIn();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-unleash-secrets-" });
  try {
    const artifacts = await runFlow("unleash_client_token.yaml", server.origin, ADMIN_TOKEN, dir);
    assertMasked(artifacts, [CLIENT_TOKEN, ADMIN_TOKEN]);
    // The token's name is the flow's own text, sent in the clear: the answers echo it.
    assertReadable(artifacts, ["ci-client-2"]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an include's output and a foreach element named like secrets register what the server issued alone", async () => {
  const server = startStandIn();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-unleash-lists-" });
  try {
    const artifacts = await runFlow("unleash_token_lists.yaml", server.origin, ADMIN_TOKEN, dir);
    assertMasked(artifacts, [CLIENT_TOKEN, ADMIN_TOKEN]);
    assertReadable(artifacts);
    assert.match(artifacts["junit.xml"], /name="unleash outputs and iterations"/);
    assert.match(artifacts["junit.xml"], /name="each_token \[1\]"/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a token's derived forms (split, URL-encoded, JSON-escaped, Basic, cut) are masked, its words are not", async () => {
  const server = startStandIn();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-unleash-forms-" });
  try {
    const artifacts = await runFlow("unleash_token_forms.yaml", server.origin, ADMIN_TOKEN, dir);
    assertMasked(artifacts, [CLIENT_TOKEN, ADMIN_TOKEN]);
    const escaped = CLIENT_TOKEN.replaceAll(":", "\\u003a").replaceAll(".", "\\u002e");
    for (const [name, text] of Object.entries(artifacts)) {
      for (const form of [TOKEN_HASH, escaped, CLIENT_TOKEN.slice(0, 30)]) {
        assert.ok(!text.includes(form), `${name} holds ${form}`);
      }
    }
    // The split parts that are words are the API's own: readable in every report of the body.
    for (const name of ["report.json", "report.html", "run.har"]) {
      const text = artifacts[name].replaceAll("\\", "");
      for (const pair of ['"project":"default"', '"environment":"development"', '"hash":"***"']) {
        assert.ok(text.includes(pair), `${name} lacks ${pair}`);
      }
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failed step that sent the token writes its curl line and messages with the token masked", async () => {
  const server = startStandIn();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-unleash-fails-" });
  try {
    const artifacts = await runFlow(
      "unleash_client_fails.yaml",
      server.origin,
      ADMIN_TOKEN,
      dir,
      1,
    );
    assertMasked(artifacts, [CLIENT_TOKEN, ADMIN_TOKEN]);
    assert.match(
      artifacts.stdout,
      /curl: curl '[^']*environment=development' -H 'authorization: \*\*\*'/,
    );
    // The check compared the answer's word with the token: the word is shown, the token not.
    assert.match(artifacts["report.json"], /"actual": "development"/);
    assert.match(artifacts["junit.xml"], /<failure[^>]*>[^<]*development/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
