/** The flow's `vars` (lib/load/vars.ts). */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import "../support/engines.ts";

const load = (vars: string) =>
  loadFlow(
    `name: f\nvars: ${vars}\nsteps:\n  - name: s\n    request: {url: http://x.test}\n`,
    "t.yaml",
  );

Deno.test("names in order, values as templates that may use the vars before them", () => {
  const { flow, problems } = load('{host: x.test, url: "http://${vars.host}", n: 5, empty: }');
  assert.deepEqual(problems, []);
  assert.deepEqual(flow?.vars.map((v) => [v.name, v.value.kind]), [
    ["host", "const"],
    ["url", "template"],
    ["n", "const"],
    ["empty", "const"],
  ]);
});

Deno.test("reserved and unreferenceable names; structured values", () => {
  const codes = (vars: string) => load(vars).problems.map((p) => [p.code, p.hint]);
  assert.deepEqual(codes("{RUN_ID: x}"), [["bad-name", "Set the run id with --run-id."]]);
  assert.deepEqual(codes('{"a b": x}').map(([c]) => c), ["bad-name"]);
  // A var may hold a map or a list (a body, a set of headers), bounded in depth.
  assert.deepEqual(codes("{list: [1, 2], map: {a: {b: 1}}}"), []);
  assert.deepEqual(
    load("{list: [1, 2], map: {a: '${RUN_ID}'}}").flow?.vars.map((v) => v.value.kind),
    ["const", "map"],
  );
  assert.deepEqual(codes(`{deep: ${"[".repeat(65)}${"]".repeat(65)}}`).map(([c]) => c), [
    "var-too-large",
  ]);
  assert.deepEqual(codes("[a]").map(([c]) => c), ["wrong-type"]);
});
