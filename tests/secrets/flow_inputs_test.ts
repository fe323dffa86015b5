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
