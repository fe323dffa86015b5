/**
 * A capture's `when` or `otherwise` reading its own step's captures: those
 * written above it load; one below it, itself or a name not captured above is
 * a problem at the reference, with the line and column of the `${…}`.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";

const FLOW = (read: string, where = "otherwise") =>
  'name: f\nsteps:\n  - name: login\n    request: {url: "http://x.test"}\n    capture:\n' +
  "      body_token: {path: $.json.token, optional: true}\n" +
  (where === "otherwise"
    ? `      token: {cookie: t, when: {path: $.json.token, exists: false}, otherwise: "${read}"}\n`
    : `      token: {cookie: t, when: {value: "${read}", exists: false}}\n`) +
  "    extract: {later: $.x}\n";

Deno.test("otherwise and a when's value may read a capture written above", () => {
  for (const where of ["otherwise", "when"]) {
    const { problems, flow } = loadFlow(FLOW("${steps.login.capture.body_token}", where), "f.yaml");
    assert.deepEqual(problems, []);
    // A read of its own step is no dependency on it.
    assert.equal(flow?.steps[0].needs, undefined);
  }
});

Deno.test("a capture written below, the capture itself, a typo: each where it is written", () => {
  const cases: [string, string, RegExp][] = [
    ["${steps.login.capture.later}", "later-step", /"later" is written below it/],
    ["${steps.login.later}", "later-step", /"later" is written below it/],
    ["${steps.login.capture.token}", "later-step", /reads itself/],
    ["${steps.login.capture.body_tokn}", "unknown-capture", /captures no value "body_tokn" above/],
  ];
  for (const [read, code, message] of cases) {
    for (const where of ["otherwise", "when"]) {
      const text = FLOW(read, where);
      const [p, ...rest] = loadFlow(text, "f.yaml").problems;
      assert.equal(p?.code, code, read);
      assert.match(p.message, message);
      assert.equal(rest.length, 0);
      assert.equal(p.line, 7);
      assert.equal(p.column, text.split("\n")[6].indexOf(read) + 1);
    }
  }
});

Deno.test("elsewhere in the step its own captures are still refused; a later step reads them", () => {
  const ok = FLOW("${steps.login.capture.body_token}") +
    '  - name: b\n    request: {url: "http://x.test/${steps.login.capture.token}"}\n';
  assert.deepEqual(loadFlow(ok, "f.yaml").problems, []);
  const inRequest = ok.replace(
    'url: "http://x.test"',
    'url: "http://x.test/${steps.login.capture.body_token}"',
  );
  const [p] = loadFlow(inRequest, "f.yaml").problems;
  assert.equal(p?.code, "later-step");
  assert.match(p.message, /uses its own captured value/);
});
