/**
 * A short password and a long token from the environment, handed back by a server in the encodings
 * a run writes them in: percent-encoded in a form body a failed check quotes, base64 inside a
 * Basic header at `-v`, JSON `\u00xx` escapes, a multipart body, an SSE event split across chunks
 * of the stream, a redirect's Location, a tracing backend's JSON queried by the run's trace id, a
 * gzip answer shown decoded. Every artifact (console, JSON, JUnit, HTML, log, manifest, job summary
 * and the HAR report) is read back: neither shows in clear, raw or in any of these encodings.
 */
import assert from "node:assert/strict";
import { runFlowWithHar } from "./short_secret_artifacts.ts";

const PASSWORD = "Zq7#x!";
const TOKEN = "tok_9fK2mQ7rX4vB8nL3pW6s";
const enc = new TextEncoder();
const escaped = (s: string) =>
  [...s].map((c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")).join("");
const pause = () => new Promise((r) => setTimeout(r, 30));

/** Hands each secret back in another encoding; `/traces` answers what the traced request held. */
function start(): { base: string; close: () => Promise<void> } {
  let traced = "";
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.headers.has("traceparent") && url.pathname === "/login") {
      traced = JSON.stringify({ url: req.url, auth: req.headers.get("authorization") });
    }
    switch (url.pathname) {
      case "/echo":
        return new Response(await req.text());
      case "/escaped":
        return new Response(`{"note":"a ${escaped(PASSWORD)} b","blob":"${escaped(TOKEN)}"}`);
      case "/sse": {
        const parts = [
          `data: {"n":"${PASSWORD.slice(0, 3)}`,
          `${PASSWORD.slice(3)}","t":"`,
          TOKEN.slice(0, 9),
          `${TOKEN.slice(9)}"}\n\n`,
        ];
        const body = new ReadableStream({
          async start(c) {
            for (const p of parts) [c.enqueue(enc.encode(p)), await pause()];
            c.close();
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      }
      case "/redirect":
        return new Response(null, {
          status: 302,
          headers: { location: `/landing?code=${encodeURIComponent(PASSWORD)}&t=${TOKEN}` },
        });
      case "/traces":
        return Response.json({ spans: [{ attributes: traced }] });
      case "/gzip": {
        const data = enc.encode(JSON.stringify({ text: `pw=${PASSWORD} tok=${TOKEN}` }));
        const gz = new Blob([data]).stream().pipeThrough(new CompressionStream("gzip"));
        return new Response(gz, { headers: { "content-encoding": "gzip" } });
      }
    }
    return Response.json({ ok: true });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** One failing step for each encoding, each a flow of its own (with `always`, the rest run). */
const FLOW = `name: encodings
steps:
  - name: form
    request:
      method: POST
      url: "\${BASE_URL}/echo"
      form: {note: "\${ENV.PASSWORD}", t: "\${ENV.API_TOKEN}"}
    assert: {json: [{path: $.body, equals: nope}]}
  - name: basic
    always: true
    auth: {basic: {username: ann, password: "\${ENV.PASSWORD}"}}
    request: {url: "\${BASE_URL}/echo"}
    assert: {status: 201}
  - name: escaped
    always: true
    request: {url: "\${BASE_URL}/escaped?q=\${ENV.PASSWORD}&t=\${ENV.API_TOKEN}"}
    assert: {json: [{path: $.body, equals: nope}]}
  - name: multipart
    always: true
    request:
      method: POST
      url: "\${BASE_URL}/echo"
      multipart: {note: "\${ENV.PASSWORD}", t: "\${ENV.API_TOKEN}"}
    assert: {json: [{path: $.body, equals: nope}]}
  - name: sse
    always: true
    sse: {url: "\${BASE_URL}/sse", until: "$[?@.event == 'done']", wait: 2s}
  - name: redirect
    always: true
    request: {url: "\${BASE_URL}/redirect"}
    assert: {status: 201}
  - name: traced
    always: true
    request:
      url: "\${BASE_URL}/login?password=\${ENV.PASSWORD}"
      headers: {authorization: "Bearer \${ENV.API_TOKEN}"}
  - name: backend
    always: true
    request: {url: "\${BASE_URL}/traces?trace=\${TRACE_ID}"}
    assert: {json: [{path: $.body, equals: nope}]}
  - name: gzip
    always: true
    request: {url: "\${BASE_URL}/gzip"}
    assert: {json: [{path: $.body, equals: nope}]}
`;

/** The forms a reader could turn back into a secret. */
function forms(secret: string): string[] {
  const base64 = (s: string) => btoa(String.fromCharCode(...enc.encode(s)));
  return [
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).toLowerCase(),
    escaped(secret),
    base64(secret),
    base64(`ann:${secret}`),
    ...(secret.length >= 16 ? [secret.slice(0, 16), secret.slice(-16)] : []),
  ];
}

Deno.test("a short password and a long token show in no artifact, in any encoding a server used", async () => {
  const srv = start();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-encodings-" });
  try {
    const env = { BASE_URL: srv.base, PASSWORD, API_TOKEN: TOKEN };
    const w = await runFlowWithHar(FLOW, dir, env, ["--trace"]);
    const har = w.har;
    const steps = w.report.flows[0].steps;
    assert.equal(steps.length, 9, w.console);
    assert.ok(steps.every((s) => s.name === "traced" || s.message !== undefined), w.console);
    // Each step did reach its server: the answers are in the artifacts, masked.
    assert.match(w.console, /location: \/landing\?code=\*\*\*&t=\*\*\*/);
    assert.match(w.console, /pw=\*\*\* tok=\*\*\*/);
    assert.match(w.console, /note=\*\*\*&t=\*\*\*/);
    assert.match(w.console, /"n":"\*\*\*","t":"\*\*\*"/);
    assert.match(har, /"name":\s*"traceparent"/);
    for (const text of [...w.texts, har, JSON.stringify(JSON.parse(har))]) {
      for (const form of [...forms(PASSWORD), ...forms(TOKEN)]) {
        assert.ok(!text.includes(form), `${form} in ${text.slice(0, 400)}`);
      }
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
