/** The state of loading one file (lib/load/context.ts). */
import assert from "node:assert/strict";
import { Loading } from "../../lib/load/context.ts";
import { EXCERPT_WINDOW } from "../../lib/load/excerpt.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import "../support/engines.ts";

Deno.test("a problem on a very long line quotes the part around its column", () => {
  const long = "x".repeat(EXCERPT_WINDOW * 3);
  const text =
    `name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test/${long}", bogus: 1}\n`;
  const [p] = loadFlow(text, "t.yaml").problems;
  assert.equal(p.code, "unknown-key");
  assert.ok(p.excerpt!.length <= EXCERPT_WINDOW && p.excerpt!.includes("bogus"), p.excerpt);
  assert.ok(p.excerptStart! > 1);
});

Deno.test("a mistake inside an anchor is reported where the alias uses it", () => {
  const text = "name: f\nx-req: &req {url: http://x.test, mehtod: GET}\nsteps:\n" +
    "  - name: s\n    request: *req\n";
  const [p] = loadFlow(text, "t.yaml").problems;
  assert.equal(p.line, 5);
  assert.match(p.message, /\(in the anchor "&req" at line 2:/);
});

Deno.test("merge keys: explicit keys win; an unknown alias is a problem", () => {
  const text = "name: f\nx-base: &base {url: http://a.test, method: PUT}\nsteps:\n" +
    "  - name: s\n    request: {<<: *base, url: http://b.test}\n";
  const { flow } = loadFlow(text, "t.yaml");
  assert.equal(flow?.steps[0].request.url.source, "http://b.test");
  assert.equal(flow?.steps[0].request.method, "PUT");
  const ctx = new Loading("t.yaml", {});
  assert.equal(ctx.problems.length, 0);
  const problems = loadFlow("name: f\nsteps: *nope\n", "t.yaml").problems;
  assert.deepEqual(problems.map((p) => p.message), [
    'Expected "steps" to be a non-empty list, got nothing.',
    'Unknown alias "*nope".',
  ]);
});
