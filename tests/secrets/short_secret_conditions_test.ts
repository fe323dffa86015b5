/**
 * A step whose `if` does not hold is skipped with flowrun's words around the flow's condition and
 * the values it compared: `Skipped: its condition ${steps.find.capture.got} equals "x" does not
 * hold (expected "x", got "***").` With short secrets that are those very words (passwords
 * `does`, `hold`, `equals`, `found`, `none`, `Skipped`) and a value that is one (`value`), each
 * value the message quotes (the values compared, a pattern and the engine's reason quoting it) is
 * masked where it is made and its words are not, in every artifact; a secret of 8 characters or
 * more is masked anywhere.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowText, saidEverywhere, sendsPasswords } from "./short_secret_artifacts.ts";

/** Sends every password; then steps whose conditions do not hold. */
const CONDITIONS = `name: conditions
steps:
${sendsPasswords("find", 7)}
    capture:
      got: $.json.got
      nope: {path: $.json.nope, optional: true}
  - name: differs
    if: {value: "\${steps.find.capture.got}", equals: x}
    request: {url: "\${BASE_URL}/items"}
  - name: same
    if: {value: "\${steps.find.capture.got}", notEquals: "\${ENV.PASSWORD_1}"}
    request: {url: "\${BASE_URL}/items"}
  - name: absent
    if: {value: "\${steps.find.capture.nope}", exists: true}
    request: {url: "\${BASE_URL}/items"}
  - name: pattern
    if: {value: "\${steps.find.capture.got}", matches: "(\${ENV.PASSWORD_1}"}
    request: {url: "\${BASE_URL}/items"}
  - name: token
    if: {value: "\${ENV.API_TOKEN}", equals: x}
    request: {url: "\${BASE_URL}/items"}
`;

const ENV = {
  PASSWORD_1: "value",
  PASSWORD_2: "does",
  PASSWORD_3: "hold",
  PASSWORD_4: "equals",
  PASSWORD_5: "found",
  PASSWORD_6: "none",
  PASSWORD_7: "Skipped",
  API_TOKEN: "tok-9f8e7d6c5b",
};

Deno.test("a condition that does not hold masks the values it quotes, never its words", async () => {
  const w = await runFlowText(CONDITIONS, ENV);
  const steps = w.report.flows[0].steps;
  const said = [
    'Skipped: its condition ${steps.find.capture.got} equals "x" does not hold ' +
    '(expected "x", got "***").',
    'Skipped: its condition ${steps.find.capture.got} notEquals "***" does not hold ' +
    '(expected anything but "***", got it).',
    "Skipped: its condition ${steps.find.capture.nope} exists true does not hold (expected a " +
    'value, found none: Step "find" has no captured value "nope" (in "${steps.find.capture.nope}")).',
    'Skipped: its condition ${steps.find.capture.got} matches "(***" does not hold ("matches" ' +
    "needs a valid regular expression, got /(***/ (Invalid regular expression: /(***/: " +
    "Unterminated group)).",
    'Skipped: its condition ${ENV.API_TOKEN} equals "x" does not hold (expected "x", got "***").',
  ];
  assert.deepEqual(steps.slice(1).map((s) => s.message), said, w.console);

  // Every artifact says the same: the console, JUnit, the log, the HTML report's data.
  saidEverywhere(w, said, { console: false, artifacts: 3 });

  // No value a password or the token stood in is shown, in any artifact.
  const leaks = ["q=value", '"value"', "(value", "tok-9f8e7d6c5b", "tok-9f8e"];
  noLeak(w, leaks, /\*\*\*: its|\*\*\* not|not \*\*\*|\} \*\*\* "x"|found \*\*\*|\*\*\* none/);
});
