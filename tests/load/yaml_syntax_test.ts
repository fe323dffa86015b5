/**
 * YAML syntax errors as problems: one per line, echoes counted on the line
 * or after it, a run of duplicate keys (a step without its "- ") as one,
 * at most five listed and the rest counted, each with its likeliest fix.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { MAX_SYNTAX_ERRORS, quoteFlowValues } from "../../lib/load/yaml_syntax.ts";
import "../support/engines.ts";

const problems = (text: string) => loadFlow(text, "f.yaml").problems;

Deno.test("a value that needs quotes inside { } is named with the quoted line", () => {
  const [p] = problems(
    "name: a\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    assert: {path: $.items[0].id, equals: 1}\n",
  );
  assert.equal(p.code, "yaml-syntax");
  assert.equal(p.line, 5);
  assert.match(p.message, /^YAML syntax error: inside \{ \} or \[ \], a value holding/);
  assert.equal(p.hint, 'Quote it: assert: {path: "$.items[0].id", equals: 1}');
  assert.equal(quoteFlowValues("a: {x: ${vars.a}}"), 'a: {x: "${vars.a}"}');
  assert.equal(quoteFlowValues("a: plain"), undefined);
});

Deno.test("a step without its dash is one problem with the fix", () => {
  const text = "name: a\nsteps:\n  - name: one\n    request: {url: http://x.test}\n" +
    "    name: two\n    request: {url: http://x.test/2}\n";
  const found = problems(text);
  assert.equal(found.length, 1);
  assert.equal(found[0].hint, 'A new step starts with "- ": write "  - name:" here.');
  assert.match(found[0].message, /; 1 more after it, caused by it\)\.$/);
});

Deno.test("a key indented unlike its sibling is named with both columns", () => {
  const [p] = problems(
    "name: a\nsteps:\n  - name: s\n    request: {url: http://x.test}\n     assert: {status: 200}\n",
  );
  assert.equal(
    p.hint,
    '"assert" on line 5 is a key of the step: indent "assert" 4 spaces, like "request" on line 4.',
  );
  const [v] = problems("name: a\nvars:\n  a: 1\n   b: 2\nsteps: []\n");
  assert.equal(v.hint, 'Indent "b" 2 spaces, like "a" on line 3.');
  assert.equal(
    v.message,
    'YAML syntax error: "b" on line 4 is indented 3 spaces, but "a" (line 3) is indented 2: keys of one map line up (the parser: "Nested mappings are not allowed in compact mappings"; 1 more on this line, caused by it).',
  );
});

Deno.test("past five lines with errors, the rest are counted on the fifth", () => {
  const text = Array.from({ length: 8 }, (_, i) => `k${i}: a: b\n`).join("");
  const found = problems(text);
  assert.equal(found.length, MAX_SYNTAX_ERRORS);
  assert.deepEqual(found.map((p) => p.line), [1, 2, 3, 4, 5]);
  assert.equal(
    found[4].message,
    'YAML syntax error: the value of "k4" holds ": ", which YAML reads as the start of another key (the parser: "Nested mappings are not allowed in compact mappings"; 3 more syntax errors after it).',
  );
  assert.ok(!found[3].message.includes("more"));
});

Deno.test("a key's anchor or #comment before its block is no empty value", () => {
  const step = "  - name: s\n    request: {url: http://x.test}\n";
  for (
    const text of [
      `name: a\ntags: &t\n- a\nsteps:\n${step}`,
      `name: a\nsteps: #main\n${step}`,
      `name: a\nsteps: #main\n- name: s\n  request: {url: http://x.test}\n`,
      `name: a\nx-d: &d\n  url: http://x.test\nsteps:\n  - name: s\n    request: *d\n`,
    ]
  ) assert.deepEqual(problems(text), [], text);
  const [p] = problems(`name: a\nvars:\n  color: #fff\n  b: 1\nsteps:\n${step}`);
  assert.equal(p.hint, 'Quote it: color: "#fff"');
  assert.deepEqual([p.line, p.column], [3, 10]);
});

Deno.test("the same slip on two lines is two problems, each at its line", () => {
  const found = problems(
    "name: a\nvars:\n  scope: *\nx-a:\n  scope: *\nsteps:\n  - name: s\n    request: {url: http://x.test}\n",
  );
  assert.deepEqual(found.map((p) => [p.line, p.column, p.hint]), [
    [3, 10, 'Quote it: scope: "*"'],
    [5, 10, 'Quote it: scope: "*"'],
  ]);
});
