/**
 * Step order and the check of every `${…}` against what exists where it is
 * used (lib/load/references.ts, with one check per kind in ref_checks.ts).
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import "../support/engines.ts";

const codes = (text: string, env: Record<string, string> = {}) =>
  loadFlow(text, "t.yaml", { env: (name) => env[name] }).problems.map((p) => p.code);

Deno.test("depends_on moves a step after the one it names; a cycle is one problem", () => {
  const steps = (a: string, b: string) =>
    `name: f\nsteps:\n  - name: a\n    depends_on: [${a}]\n    request: {url: "http://x.test"}\n` +
    `  - name: b\n    depends_on: [${b}]\n    request: {url: "http://x.test"}\n`;
  const { flow } = loadFlow(steps("b", ""), "t.yaml");
  assert.deepEqual(flow?.steps.map((s) => s.name), ["b", "a"]);
  assert.deepEqual(codes(steps("b", "a")), ["dependency-cycle"]);
  assert.deepEqual(codes(steps("a", "")), ["dependency-cycle"]);
  assert.deepEqual(codes(steps("c", "")), ["unknown-step"]);
});

Deno.test("each kind of reference is checked where it is used", () => {
  const use = (url: string) =>
    `name: f\nvars: {base: "http://x.test"}\nsteps:\n` +
    `  - name: a\n    request: {url: "${url}"}\n    capture: {id: $.json.id}\n` +
    `  - name: b\n    request: {url: "\${steps.a.id}"}\n`;
  assert.deepEqual(codes(use("${vars.base}/${RUN_ID}")), []);
  assert.deepEqual(codes(use("${vars.bsae}")), ["unknown-var"]);
  assert.deepEqual(codes(use("${ENV.HOST}")), ["unset-env"]);
  assert.deepEqual(codes(use("${ENV.HOST}"), { HOST: "h" }), []);
  assert.deepEqual(codes(use("${ENV.HOST:-h}")), []);
  assert.deepEqual(codes(use("${nope}")), ["unknown-name"]);
  assert.deepEqual(codes(use("${steps.a.id}")), ["later-step"]);
  assert.deepEqual(codes(use("${steps.b.id}")), ["later-step"]);
  assert.deepEqual(codes(use("${steps.c.id}")), ["unknown-step"]);
  assert.deepEqual(
    codes(use("${base}").replace('"${steps.a.id}"', '"${steps.a.idd}"')),
    ["unknown-capture"],
  );
});

Deno.test("an unset variable is one problem that names its other lines", () => {
  const text = `name: f\nsteps:\n` +
    [1, 2, 3].map((i) => `  - name: s${i}\n    request: {url: "\${ENV.HOST}/${i}"}\n`).join("");
  const { problems } = loadFlow(text, "t.yaml", { env: () => undefined });
  assert.equal(problems.length, 1);
  assert.equal(problems[0].line, 4);
  assert.match(problems[0].message, /; also used on lines 6, 8\.$/);
});
