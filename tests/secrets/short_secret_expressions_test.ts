/**
 * An expression without a value is flowrun's words around the flow's own text and what a value
 * held: `Step "find" has no captured value "tok" (in "${steps.find.capture.tok}").`,
 * `Var "user" has no field "id" (in "${vars.user.id}"; its keys: name, role).`,
 * `"${origin:ENV.API_TOKEN}" is not an absolute http or https URL: "tok-…".` With short secrets
 * that are those very words (passwords `value`, `field`, `keys`, `https`, `foreach`,
 * `defined`), each value a message quotes is masked where the message is made and its words are
 * not, in every artifact; a secret of 8 characters or more is masked anywhere.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowText, saidEverywhere, sendsPasswords } from "./short_secret_artifacts.ts";

/** Sends every password; then reads a capture never made, a var's missing field, a non-URL's origin. */
const EXPRS = `name: exprs
vars:
  user: {name: a, role: b}
steps:
${sendsPasswords("find", 6)}
    capture:
      tok: {path: $.json.tok, optional: true}
  - name: capture
    always: true
    request: {url: "\${BASE_URL}/items?q=\${steps.find.capture.tok}"}
  - name: field
    always: true
    request: {url: "\${BASE_URL}/items?q=\${vars.user.id}"}
  - name: origin
    always: true
    request: {url: "\${BASE_URL}/items", headers: {origin: "\${origin:ENV.API_TOKEN}"}}
  - name: guarded
    always: true
    if: {value: "\${steps.find.capture.tok}", equals: x}
    request: {url: "\${BASE_URL}/items"}
  - name: each
    always: true
    foreach: "\${steps.find.capture.tok}"
    request: {url: "\${BASE_URL}/items"}
`;

const ENV = {
  PASSWORD_1: "value",
  PASSWORD_2: "field",
  PASSWORD_3: "keys",
  PASSWORD_4: "https",
  PASSWORD_5: "foreach",
  PASSWORD_6: "defined",
  API_TOKEN: "tok-9f8e7d6c5b",
};

Deno.test("an expression's message masks the values it quotes, never its words", async () => {
  const w = await runFlowText(EXPRS, ENV);
  assert.equal(w.code, 1, w.console);
  const steps = w.report.flows[0].steps;
  const said = [
    'Step "find" has no captured value "tok" (in "${steps.find.capture.tok}").',
    'Var "user" has no field "id" (in "${vars.user.id}"; its keys: name, role).',
    '"${origin:ENV.API_TOKEN}" is not an absolute http or https URL: "***".',
    'Step "find" has no captured value "tok" (in "${steps.find.capture.tok}").',
    "The foreach list could not be evaluated: " +
    'Step "find" has no captured value "tok" (in "${steps.find.capture.tok}").',
  ];
  assert.deepEqual(steps.slice(1).map((s) => s.message), said);

  // Every artifact says the same: the console, JUnit, the log, the HTML report's data.
  saidEverywhere(w, said);

  // No value a password or the token stood in is shown, in any artifact.
  const leaks = ["q=value", "x-a: field", '"x-b":"keys"', '"x-c": "https"', "tok-9f8e7d6c5b"];
  noLeak(w, leaks, /captured \*\*\*|no \*\*\* "id"|its \*\*\*|or \*\*\* URL|The \*\*\*/);
});
