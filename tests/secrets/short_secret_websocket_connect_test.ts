/**
 * A WebSocket step that could not connect says why in flowrun's words around where it went:
 * `Connection refused by 127.0.0.1:9.`, `"ftp://127.0.0.1:9/***" is not an absolute ws or wss
 * URL.` With a short secret that is one of those words (a password `refused`) and URLs that hold
 * passwords, the values (the host and port, the URL) are masked where the message is made and the
 * words are not, in every artifact.
 */
import assert from "node:assert/strict";
import { runFlowText, saidEverywhere, sendsPasswords } from "./short_secret_artifacts.ts";
import { silentListener } from "../support/silent_listener.ts";

/** Sends every password; then WebSocket steps that cannot connect. */
const CONNECT = `name: connect
steps:
${sendsPasswords("send", 4)}
  - name: refused
    always: true
    websocket:
      url: "ws://127.0.0.1:9/chat?q=\${ENV.PASSWORD_1}"
  - name: scheme
    always: true
    websocket:
      url: "ftp://127.0.0.1:9/\${ENV.PASSWORD_2}"
  - name: silent
    always: true
    options: {timeout: 300ms}
    websocket:
      url: "ws://\${ENV.SILENT}/chat"
`;

const ENV = { PASSWORD_1: "refused", PASSWORD_2: "chat", PASSWORD_3: "within", PASSWORD_4: "open" };

Deno.test("a WebSocket that cannot connect keeps its words from a short secret", async () => {
  // A host:port that takes connections and never answers: a handshake that never completes.
  const server = silentListener();
  const w = await runFlowText(CONNECT, { ...ENV, SILENT: server.host }).finally(server.close);
  assert.equal(w.code, 1, w.console);
  const steps = w.report.flows[0].steps;
  const said = [
    "Connection refused by 127.0.0.1:9.",
    '"ftp://127.0.0.1:9/***" is not an absolute ws or wss URL.',
    "The connection did not open within 300 ms.",
  ];
  assert.deepEqual(steps.slice(1).map((s) => s.message), said);

  // Every artifact says the same: the console, JUnit, the log, the HTML report's data.
  saidEverywhere(w, said, { console: false, artifacts: 4 });

  // No value a password stood in is shown, in any artifact.
  for (const text of w.texts) {
    for (const leak of ["q=refused", '/chat"', "q=chat"]) {
      assert.ok(!text.includes(leak), `${leak} in ${text.slice(0, 400)}`);
    }
    assert.ok(!/Connection \*\*\*|not \*\*\*|\*\*\* 0/.test(text), text);
  }
});
