/**
 * A structure a request sends under a key named like a secret (Unleash
 * Edge's `POST /edge/issue-token` body `tokens: [{environment: development,
 * projects: [default]}]`, the description of tokens to issue) is not a
 * credential: each of its fields is a secret by its own name or by what it
 * is. Seen on the real server: that one step of a converted suite masked
 * `development` and `default` in every report of the run (URLs, bodies,
 * step names). A credential written under such a key, or a list of them,
 * stays masked.
 */
import assert from "node:assert/strict";
import { secretsInJson } from "../../lib/secrets/discover.ts";
import { runCli } from "../support/cli.ts";

Deno.test("secretsInJson: a structure under a secret-named key registers its credentials, not its words", () => {
  const found: string[] = [];
  secretsInJson({
    tokens: [{ environment: "development", projects: ["default"], secret: "plain-words" }],
    token: { kind: "edge", value: "tok_9f3ac21b77e4", createdAt: "2026-11-26T08:00:00Z" },
    password: "admin",
    apiKeys: ["k-abc123xyz", "backup"],
  }, (v) => void found.push(v));
  // A field named like a secret is one whatever it holds; a random value is one wherever it is.
  for (const secret of ["plain-words", "tok_9f3ac21b77e4", "admin", "k-abc123xyz", "backup"]) {
    assert.ok(found.includes(secret), `${secret} in ${found}`);
  }
  for (const word of ["development", "default", "edge", "2026-11-26T08:00:00Z"]) {
    assert.ok(!found.includes(word), `${word} in ${found}`);
  }
});

Deno.test("a run that sends such a structure keeps its words readable in every output, and its credential masked", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ tokens: [] }, { status: 401 }),
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-request-structures-" });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(
      `${dir}/edge.yaml`,
      `name: edge\nsteps:\n  - name: issue\n    request:\n      method: POST\n      url: ${base}/edge/issue-token\n` +
        `      body:\n        tokens:\n          - { environment: development, projects: [default], hmac: hm-7c1e2a9b44d0 }\n` +
        `    assert: { status: 200 }\n  - name: project\n    always: true\n    request: { url: "${base}/api/admin/projects/default/environments/development" }\n` +
        `    assert: { status: 200 }\n`,
    );
    const run = await runCli([
      "run",
      `${dir}/edge.yaml`,
      "--report-json",
      `${dir}/r.json`,
      "--report-junit",
      `${dir}/r.xml`,
    ]);
    assert.equal(run.code, 1, run.stdout);
    const outputs = [
      run.stdout,
      await Deno.readTextFile(`${dir}/r.json`),
      await Deno.readTextFile(`${dir}/r.xml`),
    ];
    for (const text of outputs) {
      assert.ok(text.includes("/api/admin/projects/default/environments/development"), text);
      assert.ok(!text.includes("hm-7c1e2a9b44d0"), text);
    }
    assert.match(
      run.stdout,
      /"environment":"development","projects":\["default"\],"hmac":"\*\*\*"/,
    );
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a secret URL (an invite link a server issued) masks itself, not its server's address in other URLs", async () => {
  const { Redactor } = await import("../../lib/secrets/redactor.ts");
  const r = new Redactor();
  const link = "http://localhost:4242/new-user?invite=9f8e7d6c5b4a39281706f5e4d3c2b1a0";
  r.add(link);
  assert.equal(
    r.redact('{"url":"http://localhost:4242/webhook"}'),
    '{"url":"http://localhost:4242/webhook"}',
  );
  assert.equal(r.redact(`see ${link} now`), "see *** now");
  assert.equal(r.redact("invite 9f8e7d6c5b4a39281706f5e4"), "invite ***");
  // A secret that is only an address is still masked whole.
  const origin = new Redactor();
  origin.add("https://internal.example:8443");
  assert.equal(origin.redact("GET https://internal.example:8443/x"), "GET ***/x");
});
