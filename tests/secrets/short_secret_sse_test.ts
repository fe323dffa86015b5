/**
 * An `sse:` step that fails says why in flowrun's words around what it quotes:
 * `GET http://127.0.0.1:4/ev?q=*** failed: connection refused.`, and an `until` that never held
 * notes a reconnection that failed (`reconnecting failed: GET <url> failed: …`). With short
 * secrets that are those very words (passwords `failed`, `hold`, `server`, `arrived`) and URLs
 * that hold passwords, the values (the URL, the runtime's words) are masked where the message is
 * made and the words are not, in every artifact; the verdict, which the reports keep as a
 * check's message, never shows a password the URL held.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowText, saidEverywhere, sendsPasswords } from "./short_secret_artifacts.ts";
import { silentListener } from "../support/silent_listener.ts";

/** Sends every password; then a stream whose reconnection fails, and a refused stream. */
const STREAM = `name: stream
steps:
${sendsPasswords("send", 5)}
  - name: cut
    always: true
    sse:
      url: "\${ENV.STREAM}/ev?q=\${ENV.PASSWORD_1}&p=\${ENV.PASSWORD_5}"
      until: "$[?@.data == 'never']"
      reconnects: 1
  - name: refused
    always: true
    sse:
      url: "\${ENV.CLOSED}/ev?q=\${ENV.PASSWORD_1}"
  - name: scheme
    always: true
    sse:
      url: "ftp://127.0.0.1:9/\${ENV.PASSWORD_3}"
`;

const ENV = {
  PASSWORD_1: "failed",
  PASSWORD_2: "hold",
  PASSWORD_3: "server",
  PASSWORD_4: "arrived",
  // Quoted percent-encoded in the URL: masked in that form too.
  PASSWORD_5: "o ké",
};

/** A port nothing listens on: one the system gave a listener, closed again. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * A raw HTTP server: the first connection gets one event and a short `retry`, then the stream
 * ends; every later connection is closed before an answer (a reconnection that fails).
 */
function cutStream(): { url: string; close: () => void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let served = 0;
  const serve = async (conn: Deno.Conn) => {
    await conn.read(new Uint8Array(4096)).catch(() => null);
    if (served++ === 0) {
      const head =
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
      await conn.write(new TextEncoder().encode(`${head}retry: 10\ndata: 1\n\n`)).catch(() => {});
    }
    conn.close();
  };
  (async () => {
    for await (const conn of listener) serve(conn).catch(() => {});
  })().catch(() => {});
  const { port } = listener.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, close: () => listener.close() };
}

Deno.test("an sse step's errors and verdicts keep their words from a short secret", async () => {
  const server = cutStream();
  const closed = `http://127.0.0.1:${closedPort()}`;
  const env = { ...ENV, STREAM: server.url, CLOSED: closed };
  const w = await runFlowText(STREAM, env).finally(server.close);
  assert.equal(w.code, 1, w.console);
  const steps = w.report.flows[0].steps;
  const port = server.url.split(":")[2];
  const until = `until "$[?@.data == 'never']" did not hold in the 1 event that arrived before ` +
    `the server ended the stream (reconnecting failed: GET http://127.0.0.1:${port}/ev?q=***&p=*** ` +
    `failed: the server closed the connection without sending a response).`;
  assert.deepEqual(steps[1].assertions.map((a) => a.message), [until]);
  const said = [
    `GET ${closed}/ev?q=*** failed: connection refused.`,
    '"ftp://127.0.0.1:9/***" is not an absolute http or https URL.',
  ];
  assert.deepEqual(steps.slice(2).map((s) => s.message), said);

  // Every artifact says the same: the console, JUnit, the log, the HTML report's data.
  saidEverywhere(w, said, { console: false, artifacts: 4 });
  assert.ok(w.texts.filter((t) => t.includes(until)).length >= 3, until);

  // No value a password stood in is shown, in any artifact; no word of flowrun's is masked.
  const leaks = ["q=failed", "/server", "o%20k%C3%A9", "o ké", "o+k%C3%A9"];
  noLeak(w, leaks, /\*\*\* (hold|the|connection|ended|stream)|not \*\*\*|1 event that \*\*\*/);
});

/** A stream that never answers in time, and an answer that is no event stream. */
const SLOW = `name: slow
steps:
  - name: send
    request:
      url: "\${BASE_URL}/items?q=\${ENV.PASSWORD_1}"
      headers: {x-a: "\${ENV.PASSWORD_2}"}
  - name: silent
    always: true
    options: {timeout: 300ms}
    sse:
      url: "\${ENV.SILENT}/ev?q=\${ENV.PASSWORD_1}"
  - name: json
    always: true
    sse:
      url: "\${BASE_URL}/items?q=\${ENV.PASSWORD_2}"
      until: "$[?@.data == 'never']"
`;

Deno.test("an sse step's timeout and a verdict on a non-stream answer keep their words", async () => {
  // A host:port that takes connections and never answers.
  const server = silentListener();
  const at = `http://${server.host}`;
  const env = { PASSWORD_1: "within", PASSWORD_2: "stream", SILENT: at };
  const w = await runFlowText(SLOW, env).finally(server.close);
  assert.equal(w.code, 1, w.console);
  const steps = w.report.flows[0].steps;
  const timeout = `GET ${at}/ev?q=*** did not answer within 300 ms.`;
  assert.deepEqual(steps[1].message, timeout);
  const answered = `until "$[?@.data == 'never']" did not hold in the 0 events that arrived ` +
    `(the server answered 200 with application/json, not an event stream).`;
  assert.deepEqual(steps[2].assertions.map((a) => a.message), [answered]);
  saidEverywhere(w, [timeout], { console: false, artifacts: 4 });
  assert.ok(w.texts.filter((t) => t.includes(answered)).length >= 3, answered);
  noLeak(w, ["q=within", "q=stream"], /\*\*\* 300|event \*\*\*|not an event \*\*\*/);
});
