/**
 * A status an expression gives that is no status code says so in flowrun's words around the
 * value: `"${vars.want}" of "status" is "***", not a status code from 100 to 599.` With short
 * secrets that are those very words (passwords `status`, `code`, `from`) and a value that is one
 * (`wrong`, also percent-encoded), the value is masked where the message is made and the words are
 * not, in every artifact; a secret of 8 characters or more is masked anywhere.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowText, saidEverywhere, sendsPasswords } from "./short_secret_artifacts.ts";

/** Sends every password; then checks statuses that are no status code. */
const STATUS = `name: statuses
vars:
  coded: "wr%6Fng"
steps:
${sendsPasswords("send", 4)}
  - name: word
    always: true
    request: {url: "\${BASE_URL}/items"}
    assert: {status: "\${ENV.PASSWORD_4}"}
  - name: bound
    always: true
    request: {url: "\${BASE_URL}/items"}
    assert: {status: {lt: "\${vars.coded}"}}
  - name: long
    always: true
    request: {url: "\${BASE_URL}/items"}
    assert: {status: "\${ENV.API_TOKEN}"}
`;

const ENV = {
  PASSWORD_1: "status",
  PASSWORD_2: "code",
  PASSWORD_3: "from",
  PASSWORD_4: "wrong",
  API_TOKEN: "tok-9f8e7d6c5b",
};

Deno.test("a status that is no code masks the value it quotes, never its words", async () => {
  const w = await runFlowText(STATUS, ENV);
  assert.equal(w.code, 1, w.console);
  const steps = w.report.flows[0].steps;
  const said = [
    '"${ENV.PASSWORD_4}" of "status" is "***", not a status code from 100 to 599.',
    '"${vars.coded}" of "status" is "***", not a status code from 100 to 599.',
    '"${ENV.API_TOKEN}" of "status" is "***", not a status code from 100 to 599.',
  ];
  assert.deepEqual(steps.slice(1).map((s) => s.message), said);

  // Every artifact says the same: the console, JUnit, the log, the HTML report's data.
  saidEverywhere(w, said);

  // No value a password or the token stood in is shown, in any artifact.
  const leaks = ["q=status", '"wrong"', "wr%6Fng", "tok-9f8e7d6c5b", "tok-9f8e"];
  noLeak(w, leaks, /of "\*\*\*"|status \*\*\*|\*\*\* 100/);
});
