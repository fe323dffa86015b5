/**
 * A WebSocket message that cannot be sent says so in flowrun's words and the flow's own:
 * `"binary" of message 1 of "send" is not base64 once its expressions are resolved.` It quotes
 * no value (the value may hold a secret an expression brought in). With short secrets that are
 * those very words (passwords `binary`, `message`, `send`, `base64`, `once`), no word of it is
 * masked, in any artifact, and the value the expression gave is shown nowhere.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowText, saidEverywhere, sendsPasswords } from "./short_secret_artifacts.ts";

/** Sends every password; then a binary message an expression made that is not base64. */
const SOCKET = `name: socket
steps:
${sendsPasswords("send", 5)}
  - name: frame
    always: true
    websocket:
      url: "ws://127.0.0.1:9/chat"
      send:
        - binary: "\${ENV.API_TOKEN} \${ENV.PASSWORD_1}!"
`;

const ENV = {
  PASSWORD_1: "binary",
  PASSWORD_2: "message",
  PASSWORD_3: "send",
  PASSWORD_4: "base64",
  PASSWORD_5: "once",
  API_TOKEN: "tok-9f8e7d6c5b",
};

Deno.test("a WebSocket message that cannot be sent keeps its words from a short secret", async () => {
  const w = await runFlowText(SOCKET, ENV);
  assert.equal(w.code, 1, w.console);
  const steps = w.report.flows[0].steps;
  const said = ['"binary" of message 1 of "send" is not base64 once its expressions are resolved.'];
  assert.deepEqual(steps.slice(1).map((s) => s.message), said);

  // Every artifact says the same: the console, JUnit, the log, the HTML report's data.
  saidEverywhere(w, said);

  // No value a password or the token stood in is shown, in any artifact.
  const leaks = ["q=binary", "tok-9f8e7d6c5b", "tok-9f8e", "binary!"];
  noLeak(w, leaks, /of \*\*\* 1|not \*\*\*|are \*\*\*/);
});
