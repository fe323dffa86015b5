/**
 * YAML limits measured before anything recurses: nesting on the parser's
 * tokens, and aliases resolved to their nearest anchor, with the first alias
 * that makes a cycle, adds too many nodes, or nests too deep once expanded.
 */
import assert from "node:assert/strict";
import { parseDocument } from "yaml";
import { checkAliases, parseBounded, tooDeepAt } from "../../lib/load/yaml_limits.ts";
import "../support/engines.ts";

Deno.test("aliases resolve to the nearest anchor defined before them", () => {
  const doc = parseDocument("a: &x 1\nb: *x\nc: &x 2\nd: *x\n");
  const { targets, problem } = checkAliases(doc);
  assert.equal(problem, undefined);
  const values = [...targets.values()].map((n) => (n as { value?: unknown }).value);
  assert.deepEqual(values, [1, 2]);
  assert.deepEqual(checkAliases(parseDocument("")), { targets: new Map() });
  assert.equal(checkAliases(parseDocument("a: 1\n")).targets.size, 0);
});

Deno.test("the first alias past a limit, in document order", () => {
  const cycle = checkAliases(parseDocument("a: &x [1, *x]\n"));
  assert.equal(cycle.problem?.kind, "cycle");
  const bomb = "a: &a [1, 2]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: [*c, *c, *c]\n";
  const large = checkAliases(parseDocument(bomb), 30);
  assert.equal(large.problem?.kind, "too-large");
  assert.ok(large.problem!.added > 30);
  assert.equal(checkAliases(parseDocument(bomb), 1000).problem, undefined, "memoised, bounded");
  const deep = checkAliases(parseDocument("a: &x [[[[1]]]]\nb: [[[*x]]]\n"), 1000, 6);
  assert.equal(deep.problem?.kind, "too-deep");
  assert.equal(
    checkAliases(parseDocument("a: &x [[[[1]]]]\nb: [[[*x]]]\n"), 1000, 9).problem,
    undefined,
  );
});

Deno.test("nesting is found on the tokens, before composing", () => {
  const deep = parseBounded(`a: ${"[".repeat(400)}`, undefined, 256);
  assert.ok("tooDeepAt" in deep);
  const ok = parseBounded("a: [1]\n", undefined, 256);
  assert.ok("tokens" in ok && tooDeepAt(ok.tokens, 256) === undefined);
});
