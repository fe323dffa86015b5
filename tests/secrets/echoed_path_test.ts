/**
 * A piece of the path the flow itself sent, echoed back under a key named like a secret, is the
 * API's data (issue 52, class 6: "a word the API uses in its own paths" is never a secret). Seen
 * on etcd's v2 keys API: `PUT /v2/keys/foo` answers `{"node": {"key": "/foo", …}}`, and `/foo`
 * became *** in every report, the step's URL included (`GET …/v2/keys***`). (A lookup's bare
 * `key` is data by lookup_key_data_test's rule too; this rule holds under any secret-looking name:
 * a session's path, a secret's.) A value the path never held stays secret under the same name,
 * and so does a token beside the echo.
 */
import assert from "node:assert/strict";
import { secretsInResponse } from "../../lib/secrets/discover.ts";
import { runCli } from "../support/cli.ts";

function registered(body: unknown, sentUrl: string): string[] {
  const found: string[] = [];
  secretsInResponse(
    {
      headers: { "content-type": "application/json" },
      text: JSON.stringify(body),
      json: { ok: true, value: body },
    },
    (v) => void found.push(v),
    undefined,
    sentUrl,
  );
  return [...new Set(found)];
}

Deno.test("a path piece the request sent is no secret under a key named like one", () => {
  const url = "http://127.0.0.1:2379/v2/keys/queue/job%20one?wait=true";
  for (const echoed of ["/queue", "queue", "/queue/job one", "job one", "/queue/job one/"]) {
    assert.deepEqual(registered({ node: { session_id: echoed } }, url), [], echoed);
  }
  // Not whole segments of the path, or never in it: what the server issued stays secret.
  for (const issued of ["/que", "eue/job", "/other-9f8e7d", "wait=true"]) {
    assert.deepEqual(registered({ node: { session_id: issued } }, url), [issued], issued);
  }
  assert.deepEqual(registered({ secret: "/queue", session_token: "s-9f8e7d6c" }, url), [
    "s-9f8e7d6c",
  ]);
  // Without the request's URL (a redirect's hop), the rule is as before.
  assert.deepEqual(registered({ secret: "/queue" }, ""), ["/queue"]);
});

Deno.test("the run's reports show an echoed path and mask the token beside it", async () => {
  const token = "s3cr3t-9f8e7d6c5b4a";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const key = new URL(req.url).pathname.replace(/^\/v2\/keys/, "");
    return Response.json({ action: "get", node: { key, value: "bar" }, session_token: token });
  });
  const dir = await Deno.makeTempDir();
  try {
    const flow = `${dir}/keys.yaml`;
    await Deno.writeTextFile(
      flow,
      [
        "name: keys",
        "steps:",
        "  - name: read",
        "    request:",
        `      url: http://127.0.0.1:${server.addr.port}/v2/keys/foo`,
        "    assert: { status: 201 }",
        "",
      ].join("\n"),
    );
    const cli = await runCli(["run", flow, "--report-json", `${dir}/report.json`]);
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const out = cli.stdout + cli.stderr;
    const report = await Deno.readTextFile(`${dir}/report.json`);
    for (const text of [out, report]) {
      assert.ok(!text.includes(token), text);
      assert.ok(!text.includes("keys***"), text);
    }
    assert.match(out, /\/v2\/keys\/foo/);
    assert.match(out, /"key":"\/foo"/);
    assert.match(report, /\/v2\/keys\/foo/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
