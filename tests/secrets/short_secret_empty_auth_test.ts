/**
 * A credential whose expression renders empty stops the step in flowrun's words around the
 * flow's own text: `The bearer token "${ENV.TOKEN}" is empty: the variable it reads is unset or
 * empty, so no credential would be sent.` It quotes no value, so short secrets that are its
 * words (passwords `empty`, `reads`) mask none of it, in any artifact.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten, saidEverywhere } from "./short_secret_artifacts.ts";

/** A flow whose `auth` block (YAML, at its indent) renders an empty credential. */
const flow = (name: string, auth: string) =>
  `name: ${name}
vars: {a: "\${ENV.PASSWORD_1}", b: "\${ENV.PASSWORD_2}"}
auth:
  ${auth}
steps:
  - name: get
    request: {url: "http://127.0.0.1:9/items"}
`;

const ENV = { PASSWORD_1: "empty", PASSWORD_2: "reads", TOKEN: "" };

Deno.test("an empty credential's message keeps its words from a short secret", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-empty-auth-" });
  try {
    const files = [`${dir}/a.yaml`, `${dir}/b.yaml`];
    await Deno.writeTextFile(files[0], flow("a", 'bearer: {token: "${ENV.TOKEN}"}'));
    await Deno.writeTextFile(
      files[1],
      flow("b", 'api_key: {in: header, name: x-key, value: "${ENV.TOKEN}"}'),
    );
    const w = await runWritten(files, dir, ENV);
    assert.equal(w.code, 1, w.console);
    const why =
      "is empty: the variable it reads is unset or empty, so no credential would be sent.";
    const said = [`The bearer token "\${ENV.TOKEN}" ${why}`, `The API key "\${ENV.TOKEN}" ${why}`];
    const steps = w.report.flows.flatMap((f) => f.steps);
    assert.deepEqual(steps.map((s) => s.message).sort(), [...said].sort());
    saidEverywhere(w, said, { console: false, artifacts: 4 });
    noLeak(w, [], /is \*\*\*|it \*\*\*/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
