/**
 * A Digest exchange registers no public protocol text as a secret (issue 53, item 15): the
 * `Authorization: Digest …` value a flow sent was registered whole, pieces and all, so after a
 * digest failure in one flow, any 16 characters of it (`", algorithm=MD5, `) were masked in every
 * other flow's text. Only the response hash is the credential.
 */
import assert from "node:assert/strict";
import { Redactor } from "../../lib/secrets/redactor.ts";
import { runCli } from "../support/cli.ts";

const CHALLENGE = 'Digest realm="flows", nonce="6a1f0c2b9d", algorithm=MD5, qop="auth"';

Deno.test("a Digest value's protocol words are no secret; its response hash is", () => {
  const r = new Redactor();
  const hash = "0123456789abcdef0123456789abcdef";
  const sent = `Digest username="ann", realm="flows", nonce="6a1f0c2b9d", uri="/x", ` +
    `algorithm=MD5, response="${hash}", qop=auth, nc=00000001, cnonce="aabbccdd11223344"`;
  r.add(sent);
  assert.equal(r.redact(`authorization: ${sent}`), "authorization: ***");
  assert.equal(r.redact(`hash ${hash} and ${hash.slice(0, 20)}`), "hash *** and ***");
  for (const text of [CHALLENGE, 'uri="/x", algorithm=MD5, response="', "nc=00000001, cnonce"]) {
    assert.equal(r.redact(text), text);
  }
});

Deno.test("after a Digest failure in one flow, another flow's text keeps its algorithm=MD5", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (new URL(req.url).pathname === "/digest") {
      return new Response("no", { status: 401, headers: { "www-authenticate": CHALLENGE } });
    }
    return Response.json({ challenge: CHALLENGE }, { status: 500 });
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-provenance-digest-" });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(
      `${dir}/a.yaml`,
      `name: a\nauth:\n  digest: {username: ann, password: "\${ENV.DIGEST_PASSWORD}"}\n` +
        `steps:\n  - name: in\n    request: {url: "${base}/digest"}\n    assert: {status: 200}\n`,
    );
    await Deno.writeTextFile(
      `${dir}/b.yaml`,
      `name: b\nsteps:\n  - name: other\n    request: {url: "${base}/other"}\n    assert: {status: 200}\n`,
    );
    const cli = await runCli(
      ["run", `${dir}/a.yaml`, `${dir}/b.yaml`, "--jobs", "1", "--report-json", `${dir}/r.json`],
      { env: { DIGEST_PASSWORD: "pw-Secret-42" } },
    );
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const report = await Deno.readTextFile(`${dir}/r.json`);
    const other = JSON.parse(report).flows[1].steps[0];
    assert.equal(JSON.parse(other.response.body).challenge, CHALLENGE, other.response.body);
    assert.ok(cli.stdout.includes(", algorithm=MD5, "), cli.stdout);
    assert.ok(!cli.stdout.includes("pw-Secret-42") && !report.includes("pw-Secret-42"));
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
