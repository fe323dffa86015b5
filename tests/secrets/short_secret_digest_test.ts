/**
 * A Digest answer the server refuses, or a 401 with no Digest challenge, stops the step in
 * flowrun's words around what it quotes: `Digest auth: the server answered 401 again to the Digest
 * answer for user "<user>" (realm "<realm>"), so it refuses these credentials: …`. With short
 * secrets that are those very words (passwords `server`, `refuses`, `answer`) and a realm or a
 * header that quotes one, the values (the user, the realm, the header) are masked where the
 * message is made and flowrun's words are not, in every artifact.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten, saidEverywhere } from "./short_secret_artifacts.ts";

/**
 * Refuses every request with a challenge that quotes the tenant the URL asked for: a Digest one
 * at /digest, a Basic one (nothing a Digest auth can answer) at /basic, one whose algorithm is the
 * tenant in base64 at /algorithm, one whose quote is never closed around the tenant
 * percent-encoded at /unclosed.
 */
function start(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const tenant = url.searchParams.get("tenant")!;
    const realm = `tenant ${tenant}`;
    const challenge = {
      "/digest": `Digest realm="${realm}", nonce="n0", qop="auth"`,
      "/basic": `Basic realm="${realm}"`,
      "/algorithm": `Digest realm="r", nonce="n0", algorithm=${btoa(tenant)}`,
      "/unclosed": `Digest realm="tenant%20${percentEncoded(tenant)}`,
    }[url.pathname]!;
    return new Response("no", { status: 401, headers: { "www-authenticate": challenge } });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** Every character of `text` percent-encoded (`server` as `%73%65…`). */
const percentEncoded = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("");

const flow = (path: string) =>
  `name: ${path}
auth:
  digest: {username: "\${ENV.PASSWORD_3}", password: "\${ENV.PASSWORD_2}"}
steps:
  - name: get
    request: {url: "\${ENV.BASE}/${path}?tenant=\${ENV.PASSWORD_1}"}
`;

const ENV = { PASSWORD_1: "server", PASSWORD_2: "refuses", PASSWORD_3: "answer" };

Deno.test("a Digest auth's errors keep their words from a short secret", async () => {
  const srv = start();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-digest-" });
  try {
    const paths = ["digest", "basic", "algorithm", "unclosed"];
    const files = paths.map((path) => `${dir}/${path}.yaml`);
    for (const [i, path] of paths.entries()) await Deno.writeTextFile(files[i], flow(path));
    const w = await runWritten(files, dir, { ...ENV, BASE: srv.base });
    assert.equal(w.code, 1, w.console);
    const said = [
      'Digest auth: the server answered 401 again to the Digest answer for user "***" ' +
      '(realm "tenant ***"), so it refuses these credentials: check the digest username and ' +
      "password.",
      'Digest auth: the server answered 401 with WWW-Authenticate "Basic realm=\\"tenant ***\\"", ' +
      "which has no Digest challenge.",
      `Digest auth: the server's Digest challenge "Digest realm=\\"r\\", nonce=\\"n0\\", ` +
      'algorithm=***" cannot be answered: its algorithm "***" is none of MD5, SHA-256 and ' +
      "SHA-512-256 (or their -sess forms).",
      'Digest auth: the WWW-Authenticate header "Digest realm=\\"tenant%20***" has a quoted ' +
      "string that is never closed.",
    ];
    const steps = w.report.flows.flatMap((f) => f.steps);
    assert.deepEqual(steps.map((s) => s.message).sort(), [...said].sort());
    saidEverywhere(w, said, { console: false, artifacts: 4 });
    noLeak(
      w,
      ["tenant server", 'user "answer"', btoa("server"), percentEncoded("server")],
      /the \*\*\*|it \*\*\*|Digest \*\*\*/,
    );
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
