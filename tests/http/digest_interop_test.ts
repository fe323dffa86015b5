/**
 * `auth: {digest: …}` against a Digest server flowrun was not built from:
 * the `http-auth` package's digest module (users from an htdigest file, as
 * Apache's htdigest writes it) on node:http, run in this process on
 * 127.0.0.1. http-auth offers MD5 and MD5-sess, with qop=auth or without qop
 * (RFC 2069); it has no SHA-256. Each passes through the CLI, a POST's body
 * arrives whole on the answered request, and a wrong password is flowrun's
 * "refuses these credentials" error.
 */
import assert from "node:assert/strict";
import auth from "http-auth";
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { runCli } from "../support/cli.ts";

const REALM = "Private area";
const ENV = { API_USER: "alice", API_PASSWORD: "pw-SECRET:é 1" };

interface DigestServer {
  base: string;
  /** http-auth's verdicts: "success" or "fail", in order. */
  verdicts: string[];
  /** The requests it let through: method, path, the body received. */
  passed: { method: string; url: string; body: string }[];
  /** Each challenge it sent. */
  challenges: string[];
  close(): Promise<void>;
}

async function startDigest(options: { algorithm?: string; qop?: string }): Promise<DigestServer> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-htdigest-" });
  const file = `${dir}/htdigest`;
  // htdigest's line: user:realm:MD5(user:realm:password).
  const ha1 = createHash("md5").update(`alice:${REALM}:${ENV.API_PASSWORD}`).digest("hex");
  await Deno.writeTextFile(file, `alice:${REALM}:${ha1}\n`);
  const digest = auth.digest({ realm: REALM, file, ...options });
  const verdicts: string[] = [];
  digest.on("success", () => verdicts.push("success"));
  digest.on("fail", () => verdicts.push("fail"));
  const passed: DigestServer["passed"] = [];
  const challenges: string[] = [];
  const handler = digest.check((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Uint8Array[] = [];
    req.on("data", (c: Uint8Array) => chunks.push(c));
    req.on("end", () => {
      const body = new TextDecoder().decode(
        Uint8Array.from(chunks.flatMap((c) => [...c])),
      );
      passed.push({ method: req.method!, url: req.url!, body });
      res.setHeader("content-type", "application/json");
      const user = (req as IncomingMessage & { user: string }).user;
      res.end(JSON.stringify({ user, body, n: passed.length }));
    });
  });
  const server = createServer((req, res) => {
    res.on("finish", () => {
      const challenge = res.getHeader("www-authenticate");
      if (challenge) challenges.push(String(challenge));
    });
    handler(req, res);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    verdicts,
    passed,
    challenges,
    async close() {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const FLOW = (base: string) =>
  `name: digest
auth:
  digest:
    username: "\${ENV.API_USER}"
    password: "\${ENV.API_PASSWORD}"
steps:
  - name: read
    request: {url: "${base}/items?page=2"}
    assert:
      status: 200
      json:
        - {path: $.json.user, equals: alice}
  - name: write
    request:
      method: POST
      url: "${base}/items"
      body: {name: "widget", tags: [a, b], note: "é ✓"}
    assert:
      status: 200
`;

async function run(base: string, env = ENV, flow = FLOW(base)) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-digest-interop-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, flow);
    const r = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`], { env });
    return { ...r, json: await Deno.readTextFile(`${dir}/r.json`).catch(() => "") };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function assertNoSecret(r: { stdout: string; stderr: string; json: string }) {
  for (const text of [r.stdout, r.stderr, r.json]) {
    assert.ok(!text.includes("SECRET"), `the password in ${text}`);
  }
}

for (
  const [name, options, challenge] of [
    ["MD5, qop=auth", {}, /algorithm="MD5"/],
    ["MD5-sess, qop=auth", { algorithm: "MD5-sess" }, /algorithm="MD5-sess"/],
    ["MD5 without qop (RFC 2069)", { qop: "none" }, /qop=""/],
  ] as const
) {
  Deno.test(`http-auth digest, ${name}: a GET and a POST with a body pass`, async () => {
    const server = await startDigest(options);
    try {
      const r = await run(server.base);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(server.challenges[0], challenge);
      // Each step: a 401 challenge, then the answer http-auth accepts.
      assert.deepEqual(server.verdicts, ["fail", "success", "fail", "success"]);
      assert.deepEqual(server.passed.map((p) => `${p.method} ${p.url}`), [
        "GET /items?page=2",
        "POST /items",
      ]);
      assert.deepEqual(JSON.parse(server.passed[1].body), {
        name: "widget",
        tags: ["a", "b"],
        note: "é ✓",
      });
      assertNoSecret(r);
    } finally {
      await server.close();
    }
  });
}

Deno.test("http-auth digest: a loop's polls answer one nonce with rising counts, each accepted", async () => {
  const server = await startDigest({});
  try {
    const flow = `name: poll
auth:
  digest: {username: "\${ENV.API_USER}", password: "\${ENV.API_PASSWORD}"}
steps:
  - name: poll
    request: {url: "${server.base}/jobs/1"}
    loop:
      max_attempts: 5
      sleep_ms: 0
      until: {json: [{path: $.json.n, equals: 3}]}
`;
    const r = await run(server.base, ENV, flow);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // One challenge, then three answers to its nonce (nc 1, 2, 3), each accepted.
    assert.deepEqual(server.verdicts, ["fail", "success", "success", "success"]);
    assert.equal(server.challenges.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("http-auth digest: a wrong password is flowrun's refused error", async () => {
  const server = await startDigest({});
  try {
    const r = await run(server.base, { ...ENV, API_PASSWORD: "wrong-SECRET" });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /Digest auth: the server answered 401 again to the Digest answer for user "alice" \(realm "Private area"\), so it refuses these credentials/,
    );
    assert.deepEqual(server.passed, []);
    assertNoSecret(r);
  } finally {
    await server.close();
  }
});
