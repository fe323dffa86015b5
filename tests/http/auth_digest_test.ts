/**
 * `auth: {digest: …}` through the CLI against the demo API's Digest routes
 * (which compute the expected answer from RFC 7616's formulas with
 * node:crypto): MD5, SHA-256 and a header offering both, `qop=auth`, a POST
 * whose body is sent again exactly; the challenge and the answer are two
 * attempts of one step; a wrong password, and a 401 without a Digest
 * challenge, fail the step saying why; the password is in no output.
 */
import assert from "node:assert/strict";
import { DIGEST_PASSWORD } from "../../examples/demo_signed_auth.ts";
import { startDemoApi } from "../../examples/demo_api.ts";
import { digest } from "../../lib/http/auth_digest.ts";
import { AuthError } from "../../lib/http/auth_error.ts";
import { ReceivedResponse } from "../../lib/http/response.ts";
import { parseTemplate } from "../../lib/expr/template.ts";
import { runEveryReport } from "../support/run_reports.ts";
import { eagerNodeImports } from "../support/imports.ts";

const FLOW = `name: digest
auth:
  digest: {username: "\${ENV.DIGEST_USER}", password: "\${ENV.DIGEST_PASSWORD}"}
steps:
  - name: md5
    request: {url: "\${ENV.BASE_URL}/digest/md5?page=2&q=a%20b"}
    assert:
      status: 200
      json:
        - {path: $.json.algorithm, equals: MD5}
  - name: sha256
    request: {url: "\${ENV.BASE_URL}/digest/sha-256"}
    assert:
      status: 200
      json:
        - {path: $.json.algorithm, equals: SHA-256}
  - name: post_both_offered
    request:
      method: POST
      url: "\${ENV.BASE_URL}/digest/any"
      body: {name: "café", n: 1}
    assert:
      status: 200
      json:
        - {path: $.json.algorithm, equals: SHA-256}
        - {path: $.json.method, equals: POST}
        - {path: $.json.body, equals: '{"name":"café","n":1}'}
`;

/** Runs `flow` with every report and the log, and reads them all back. */
async function run(flow: string, env: Record<string, string>) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-digest-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, flow);
    return await runEveryReport(dir, env);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("digest: MD5, SHA-256 and a choice of both, a POST body sent again; two attempts each", async () => {
  const api = await startDemoApi();
  try {
    const env = { BASE_URL: api.url, DIGEST_USER: "Mufasa", DIGEST_PASSWORD };
    const r = await run(FLOW, env);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const steps = r.report.flows[0].steps;
    assert.deepEqual(
      steps.map((s: { name: string; attempts: number }) => [s.name, s.attempts]),
      [["md5", 2], ["sha256", 2], ["post_both_offered", 2]],
    );
    assert.match(r.stdout, /md5 .*2 attempts/);
    // Both requests are in the log: the challenge and the answer.
    const responses = r.outputs[5].split("\n").filter((l) => l.includes('"event":"response"'))
      .map((l) => JSON.parse(l)).filter((e) => e.step === "post_both_offered")
      .map((e) => [e.attempt, e.status]);
    assert.deepEqual(responses, [[1, 401], [2, 200]]);
    for (const text of r.outputs) assert.ok(!text.includes(DIGEST_PASSWORD), text.slice(0, 400));
    // The answer is masked whole; the URL it names still shows.
    assert.match(r.stdout, /> authorization: \*\*\*/);
    assert.match(r.stdout, /GET http:\/\/127\.0\.0\.1:\d+\/digest\/md5\?page=2&q=a%20b → 200/);
  } finally {
    await api.close();
  }
});

Deno.test("digest: a wrong password fails the step naming the refusal; the password shows nowhere", async () => {
  const api = await startDemoApi();
  try {
    const wrong = "Circle of Strife";
    const r = await run(FLOW, { BASE_URL: api.url, DIGEST_USER: "Mufasa", DIGEST_PASSWORD: wrong });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const md5 = r.report.flows[0].steps[0];
    assert.equal(md5.status, "error");
    assert.equal(md5.attempts, 2);
    assert.match(
      md5.message,
      /^Digest auth: the server answered 401 again to the Digest answer for user "Mufasa" \(realm "flowrun-demo@example\.org"\), so it refuses these credentials: check the digest username and password\.$/,
    );
    assert.match(r.stdout, /answered 401 again to the Digest answer/);
    for (const text of r.outputs) assert.ok(!text.includes(wrong), text.slice(0, 400));
  } finally {
    await api.close();
  }
});

Deno.test("digest: a 401 with no Digest challenge says what the server offered", async () => {
  const api = await startDemoApi();
  try {
    // /me answers 401 with `WWW-Authenticate: Bearer`.
    const flow = FLOW.replace("/digest/md5?page=2&q=a%20b", "/me");
    const r = await run(flow, { BASE_URL: api.url, DIGEST_USER: "Mufasa", DIGEST_PASSWORD });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const first = r.report.flows[0].steps[0];
    assert.equal(first.attempts, 1);
    assert.equal(
      first.message,
      'Digest auth: the server answered 401 with WWW-Authenticate "Bearer", which has no Digest challenge.',
    );
  } finally {
    await api.close();
  }
});

Deno.test("digest handler: a poll counts the nonce up; a stale nonce is answered afresh, a refusal named", async () => {
  const secrets: [string, readonly string[] | undefined][] = [];
  const auth = {
    kind: "digest" as const,
    username: parseTemplate("u"),
    password: parseTemplate("pw-1"),
  };
  const handler = digest(auth, (t) => t.source, {
    secret: (value, shown) => void secrets.push([value, shown]),
    env: () => undefined,
    timeoutMs: 1000,
  });
  const request = () => ({
    method: "GET",
    url: "http://x.test/a?b=1",
    headers: [] as [string, string][],
  });
  const challenge = (nonce: string, stale = "") =>
    new ReceivedResponse(401, {
      "www-authenticate": `Digest realm="r", nonce="${nonce}", qop="auth"${stale}`,
    }, "");
  const first = request();
  await handler.apply(first);
  assert.deepEqual(first.headers, []);
  assert.equal(await handler.retry!(challenge("n1"), first), true);
  const answers = [request(), request()];
  for (const r of answers) await handler.apply(r);
  assert.deepEqual(answers.map((r) => /nc=(\d+)/.exec(r.headers[0][1])![1]), [
    "00000001",
    "00000002",
  ]);
  assert.ok(secrets.some(([v]) => v === "pw-1"));
  // The answer is a secret whose server-given parts and URI stay visible.
  const [, shown] = secrets.find(([v]) => v.startsWith("Digest "))!;
  assert.ok(shown!.includes("/a?b=1") && shown!.includes("n1") && shown!.includes("u"));
  // A poll's answer met by a stale-nonce 401: answered afresh, the count from 1.
  assert.equal(await handler.retry!(challenge("n2", ", stale=true"), answers[1]), true);
  const fresh = request();
  await handler.apply(fresh);
  assert.match(fresh.headers[0][1], /nonce="n2", nc=00000001/);
  await handler.resent!(new ReceivedResponse(200, {}, ""), fresh);
  await assert.rejects(
    () => handler.resent!(challenge("n3", ", stale=true"), fresh),
    (e) => e instanceof AuthError && /called the nonce stale again/.test(e.message),
  );
  // A step that writes its own Authorization gets its 401 as it is: nothing sent again.
  const own = { ...request(), headers: [["Authorization", "Basic eDp5"]] as [string, string][] };
  await handler.apply(own);
  assert.equal(await handler.retry!(challenge("n5"), own), false);
  const again = request();
  await handler.apply(again);
  // A poll's answer refused with a nonce that is not stale: the credentials are wrong.
  await assert.rejects(
    () => handler.retry!(challenge("n4"), again),
    (e) => e instanceof AuthError && /refuses these credentials/.test(e.message),
  );
});

Deno.test("the digest and aws_sigv4 kinds import node:crypto only when first used (it starts Deno's Node layer)", async () => {
  for (const name of ["auth_kinds.ts", "auth_digest.ts", "auth_sigv4.ts", "../run/mod.ts"]) {
    const url = new URL(`../../lib/http/${name}`, import.meta.url);
    assert.deepEqual(await eagerNodeImports(url), [], name);
  }
});
