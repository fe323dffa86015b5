/**
 * A response value is a secret by what it is, never by a lookup's "key" word above it (issue 52,
 * class 6: "a value under a key named `*key*` … in a listing" is not a secret). An issue tracker's
 * listing `{"key": "PROJ-123"}`, a key-value store's `{"key": "/config/db"}`, a translation's
 * `{"key": "button.save"}` are the API's data: registered by the name, each was masked in every
 * report, and in every later URL that named the item (`/issue/***`). A count under a plural
 * secret word (`total_tokens: 1052`) counts them, and masked every `1052` of the run. What stays
 * secret: a value shaped like an issued key under that word (`sk_test_4eC3…`, a UUID, a JWT),
 * anything under a credential's name (`api_key`, `private_key`), and a lone number under a
 * singular one (`otp: 482913`).
 */
import assert from "node:assert/strict";
import { secretsInResponse } from "../../lib/secrets/discover.ts";
import { runCli } from "../support/cli.ts";

function registered(body: unknown): string[] {
  const found: string[] = [];
  secretsInResponse({
    headers: { "content-type": "application/json" },
    text: JSON.stringify(body),
    json: { ok: true, value: body },
  }, (v) => void found.push(v));
  return [...new Set(found)].sort();
}

const ISSUED = "sk_test_4eC39HqLyjWDarjtT1zdp7dc";
const UUID = "550e8400-e29b-41d4-a716-446655440000";

Deno.test("data under a lookup's key word and counts under a plural one are no secrets", () => {
  for (
    const body of [
      { issues: [{ id: "10001", key: "PROJ-123" }, { id: "10002", key: "PROJ-124" }] },
      { node: { key: "/config/db", value: "x" } },
      { translations: [{ key: "button.save" }, { key: "mail.smtp_host.default_sender" }] },
      { keys: ["users/1234/avatar.png", "tenant-42"], issueKey: 4821 },
      { usage: { prompt_tokens: 1052, completion_tokens: 40871, total_tokens: 41923 } },
    ]
  ) assert.deepEqual(registered(body), [], JSON.stringify(body));
});

Deno.test("what a server issues stays secret under the same words", () => {
  assert.deepEqual(registered({ id: 7, key: ISSUED }), [ISSUED]);
  assert.deepEqual(registered({ key: UUID, keys: ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"] }), [
    UUID,
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln",
  ]);
  assert.deepEqual(registered({ api_key: "PROJ-123", private_key: "k-9f8e" }), [
    "PROJ-123",
    "k-9f8e",
  ]);
  assert.deepEqual(registered({ otp: 482913, session: { token: "t-5d4c3b2a" } }), [
    "482913",
    "t-5d4c3b2a",
  ]);
});

Deno.test("a run's reports show a listing's keys and the URLs naming them", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/search") {
      return Response.json({ issues: [{ key: "PROJ-123" }], usage: { total_tokens: 41923 } });
    }
    return Response.json({ key: path.split("/").pop(), api: { key: ISSUED } }, { status: 404 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const flow = `${dir}/issues.yaml`;
    const origin = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(
      flow,
      [
        "name: issues",
        "steps:",
        "  - name: search",
        `    request: { url: "${origin}/search" }`,
        '    capture: { first: "$.json.issues[0].key" }',
        "  - name: read",
        '    request: { url: "' + origin + '/issue/${steps.search.capture.first}" }',
        "    assert: { status: 200 }",
        "",
      ].join("\n"),
    );
    const cli = await runCli(["run", flow, "--report-json", `${dir}/report.json`]);
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const report = await Deno.readTextFile(`${dir}/report.json`);
    for (const text of [cli.stdout + cli.stderr, report]) {
      assert.ok(text.includes("/issue/PROJ-123"), text);
      assert.ok(!text.includes(ISSUED), text);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
