/**
 * A check's message is flowrun's words around values: `status: expected 201, got 200`,
 * `$.json.got: expected "nope", got "status"`. With short secrets that are those very words
 * (passwords `status`, `number`, `holds`, `body`, a PIN `1234`), the values a message quotes are masked
 * and its words are not, in every artifact: the message is masked where it is built, value by
 * value, and the reports keep it as flowrun's text (a secret of 8 characters or more is still
 * masked anywhere in it).
 */
import assert from "node:assert/strict";
import { runWritten, startEchoing } from "./short_secret_artifacts.ts";

/** Sends every password, then fails a status check and an equals check that quotes one. */
const ECHO = `name: echo
steps:
  - name: echo
    request:
      url: "\${BASE_URL}/items?q=\${ENV.PASSWORD_1}"
      headers: {x-a: "\${ENV.PASSWORD_2}", x-b: "\${ENV.PASSWORD_3}", x-c: "\${ENV.API_TOKEN}"}
    assert:
      status: 201
      json:
        - {path: $.json.got, equals: nope}
        - {path: $.json.status, equals: passed}
  - name: text
    always: true
    request: {url: "\${BASE_URL}/text?q=\${ENV.PASSWORD_4}"}
    assert:
      json: [{path: $.json.status, exists: true}]
`;

/** Fails a number check whose actual value is the PIN, and one that quotes a long token. */
const PIN = `name: pin
steps:
  - name: pin
    request: {url: "\${BASE_URL}/items?q=\${ENV.PIN}"}
    assert:
      json:
        - {path: $.json.n, lt: 5}
        - {path: $.json.got, notEquals: "\${ENV.PIN}"}
  - name: poll
    always: true
    request: {url: "\${BASE_URL}/items?q=\${ENV.PIN}"}
    loop:
      max_attempts: 2
      sleep_ms: 0
      until:
        json: [{path: $.json.n, gte: 5000}]
  - name: token
    always: true
    request: {url: "\${BASE_URL}/items?q=\${ENV.API_TOKEN}"}
    assert:
      json: [{path: $.json.got, equals: "status \${ENV.API_TOKEN}"}]
`;

const ENV = {
  PASSWORD_1: "status",
  PASSWORD_2: "number",
  PASSWORD_3: "holds",
  PASSWORD_4: "body",
  PIN: "1234",
  API_TOKEN: "tok-9f8e7d6c5b",
};

Deno.test("a check's message masks the values it quotes, never its words", async () => {
  const srv = startEchoing();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-messages-" });
  try {
    await Deno.writeTextFile(`${dir}/echo.yaml`, ECHO);
    await Deno.writeTextFile(`${dir}/pin.yaml`, PIN);
    const files = [`${dir}/echo.yaml`, `${dir}/pin.yaml`];
    const w = await runWritten(files, dir, { BASE_URL: srv.base, ...ENV });
    assert.equal(w.code, 1, w.console);
    const [echo, pin] = w.report.flows;
    const messages = (step: (typeof echo.steps)[number]) => step.assertions.map((a) => a.message);
    assert.deepEqual(messages(echo.steps[0]), [
      "status: expected 201, got 200",
      '$.json.got: expected "nope", got "***"',
      '$.json.status: equals "passed" holds',
    ]);
    assert.equal(echo.steps[0].message, "status: expected 201, got 200 (and 1 more).");
    assert.deepEqual(messages(echo.steps[1]), [
      "$.json.status does not exist (the response body is not JSON)",
    ]);
    assert.deepEqual(messages(pin.steps[0]), [
      "$.json.n: expected a number < 5, got ***",
      '$.json.got: expected anything but "***", got it',
    ]);
    assert.equal(pin.steps[0].message, "$.json.n: expected a number < 5, got *** (and 1 more).");
    // A poll that never held says so around its condition's message.
    assert.equal(
      pin.steps[1].message,
      "Still unmet after 2 attempts: $.json.n: expected a number >= 5000, got ***.",
    );
    // A long secret is masked anywhere in a message, as before; a short one in a value it quotes.
    assert.deepEqual(messages(pin.steps[2]), ['$.json.got: expected "*** ***", got "***"']);

    // Every artifact says the same: the console, JUnit, the log, the HTML report's data.
    const said = [
      "status: expected 201, got 200",
      'expected "nope", got "***"',
      "$.json.n: expected a number < 5, got ***",
      "(the response body is not JSON)",
    ];
    for (const text of said) {
      assert.ok(w.console.includes(text), `console: ${text}\n${w.console}`);
      assert.ok(w.texts.filter((t) => t.includes(text)).length >= 4, text);
    }
    assert.match(w.console, /✔ \$\.json\.status: equals "passed" holds/);
    const logged = w.log.filter((l) => l.event === "assertion").map((l) => l.message);
    assert.ok(logged.includes("status: expected 201, got 200"), JSON.stringify(logged));

    // No value a password or the PIN stood in is shown, in any artifact.
    const leaks = [
      'got "status"',
      "got 1234",
      '"status",',
      'but "1234"',
      "q=status",
      "q=1234",
      "x-a: number",
      "plain body",
      "q=body",
      "x-b: holds",
      "tok-9f8e7d6c5b",
    ];
    for (const text of w.texts) {
      for (const leak of leaks) assert.ok(!text.includes(leak), `${leak} in ${text.slice(0, 400)}`);
      assert.ok(!/\*\*\* (201|status|"passed")|got \*\*\*, |\*\*\* for each/.test(text), text);
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
