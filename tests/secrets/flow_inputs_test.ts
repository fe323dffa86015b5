/** What a flow sends in secret places is secret from the start (its fuller test: discover_test.ts). */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { secretInputs } from "../../lib/secrets/flow_inputs.ts";
import "../support/engines.ts";

Deno.test("secret-named query parameters, cookies and form fields are secret inputs", () => {
  const { flow, problems } = loadFlow(
    `name: f
vars: { sid: s-1, note: n }
steps:
  - name: s
    request:
      method: POST
      url: "http://x.test/?api_key=lit-key&page=\${vars.note}"
      cookies: { session: "\${vars.sid}" }
      form: { password: "\${ENV.PW}", comment: "\${vars.note}" }
`,
    "f.yaml",
    { env: (name) => name },
  );
  assert.deepEqual(problems, []);
  const inputs = secretInputs(flow!);
  assert.deepEqual([...inputs.vars], ["sid"]);
  assert.deepEqual([...inputs.env], ["PW"]);
  assert.deepEqual([...inputs.literals], ["lit-key"]);
});

Deno.test("constant text sent in the clear is the flow's own, but what it also sends in a secret place", () => {
  const { flow, problems } = loadFlow(
    `name: f
steps:
  - name: s
    request:
      method: POST
      url: "http://x.test/tokens?page=2"
      headers: { x-team: ci-team-7, x-api-key: lit-key-1, x-note: lit-key-1 }
      query: { filter: name-9 }
      body: { tokenName: ci-client-2, n: 1234, password: pw-123456, nested: { label: "\${ENV.L}-x", tag: tag-42 } }
  - name: t
    request:
      method: POST
      url: "http://x.test/tokens"
      body: { tokenName: ci-client-3, api_key: k-5678 }
`,
    "f.yaml",
    { env: (name) => name },
  );
  assert.deepEqual(problems, []);
  const inputs = secretInputs(flow!);
  assert.deepEqual(
    [...inputs.clear!].sort(),
    ["1234", "ci-client-2", "ci-client-3", "ci-team-7", "name-9", "tag-42"],
  );
  assert.ok(inputs.literals.has("lit-key-1"));
});

Deno.test("a literal under a query's key word is data when it is JSON or a range's bound", () => {
  const { flow, problems } = loadFlow(
    `name: f
steps:
  - name: s
    request:
      url: 'http://x.test/v?keys=["a"]&startkey=apple&key=5&api_key=lit-key'
`,
    "f.yaml",
    { env: (name) => name },
  );
  assert.deepEqual(problems, []);
  assert.deepEqual([...secretInputs(flow!).literals], ["lit-key"]);
});
