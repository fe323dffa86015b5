/**
 * Credentials a collection writes out, each what it is (a public project's own
 * Restful Booker suite, measured by hand, see docs/real-servers.md, sent two
 * different invalid cookies that the summary asked for as one `COOKIE`):
 *
 * - a literal in a credential header of a request whose own tests expect a
 *   refusal (401 or 403, in every spelling) is sent as written, as Newman
 *   sends it, unless a request expecting anything else sends the same text;
 * - two different literals of one header that are credentials are two
 *   variables (`COOKIE`, `COOKIE_2`), one value one variable.
 *
 * Newman is the reference: the same requests carry the same cookies and
 * tokens, and every check passes in both runners.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** `[name, header, value, test]`: each a GET of /me with one credential header and its check. */
const CASES: [string, string, string, string][] = [
  ["valid", "Cookie", "token=s3cr3t-valid", "pm.response.to.have.status(200);"],
  ["expired", "Cookie", "token=ccb59d3efd94c3a", "pm.response.to.have.status(403);"],
  ["invalid", "Cookie", "token=invalid_random_string", "pm.expect(pm.response.code).to.eql(403);"],
  ["bearer", "Authorization", "Bearer expired-token", "pm.response.to.be.unauthorized;"],
  [
    "forbidden",
    "Cookie",
    "token=nope",
    'pm.test("refused", () => pm.response.to.have.status("Forbidden"));',
  ],
  [
    "other valid",
    "Cookie",
    "token=second-valid",
    'pm.test("ok", () => pm.expect(pm.response.code).to.equal(200));',
  ],
  ["valid again", "Cookie", "token=s3cr3t-valid", "pm.response.to.be.ok;"],
];

function collection(base: string) {
  return {
    info: { name: "Credentials", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: CASES.map(([name, key, value, test]) => ({
      name,
      event: [{ listen: "test", script: { exec: [test] } }],
      request: { method: "GET", url: "{{baseUrl}}/me", header: [{ key, value }] },
    })),
  };
}

/** 200 for the two valid cookies and `Bearer good`; 401 for another bearer; else 403. */
function meServer() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const cookie = req.headers.get("cookie") ?? "";
    const auth = req.headers.get("authorization") ?? "";
    seen.push(auth || cookie);
    if (["token=s3cr3t-valid", "token=second-valid"].includes(cookie)) return Response.json({});
    return new Response(null, { status: auth && auth !== "Bearer good" ? 401 : 403 });
  });
  return { seen, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman refused credentials: a wrong credential a test expects refused is sent as written; two credentials are two", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-refused-" });
  const server = meServer();
  try {
    const file = `${dir}/collection.json`;
    await Deno.writeTextFile(file, JSON.stringify(collection(server.url)));
    const counts = await runNewman(file, { baseUrl: server.url });
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const summary = converted.stdout + converted.stderr;
    const asked = summary.match(/^Set before running: (.*)$/m)![1];
    assert.deepEqual([...asked.matchAll(/\b([A-Z][A-Z0-9_]+) \(/g)].map((m) => m[1]), [
      "BASE_URL",
      "COOKIE",
      "COOKIE_2",
    ]);
    const flow = await Deno.readTextFile(`${dir}/flows/1_credentials.yaml`);
    assert.doesNotMatch(flow, /s3cr3t-valid|second-valid/, flow);
    for (
      const wrong of ["ccb59d3efd94c3a", "invalid_random_string", "expired-token", "token=nope"]
    ) {
      assert.ok(flow.includes(wrong), wrong);
    }
    const env = { COOKIE: "token=s3cr3t-valid", COOKIE_2: "token=second-valid" };
    const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "), { env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    // Newman's credentials first, then the flow's: the same, request by request.
    assert.equal(server.seen.length, 2 * CASES.length);
    assert.deepEqual(server.seen.slice(CASES.length), server.seen.slice(0, CASES.length));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
