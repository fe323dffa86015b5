/** How messages name values (lib/load/describe.ts). */
import assert from "node:assert/strict";
import { bounded, describe, isEmpty, MAX_QUOTED } from "../../lib/load/describe.ts";
import { mapNode, scalarNode, seqNode } from "../../lib/load/nodes.ts";

Deno.test("a node in words", () => {
  assert.equal(describe(null), "nothing");
  assert.equal(describe(mapNode(0)), "a map");
  assert.equal(describe(seqNode(0)), "an empty list");
  assert.equal(describe(scalarNode("200", "PLAIN", "200", [0, 3, 3])), 'the string "200"');
  assert.equal(describe(scalarNode(5, "PLAIN", "5", [0, 1, 1])), "the number 5");
  assert.equal(describe(scalarNode(null, "PLAIN", "", [0, 0, 0])), "null");
  assert.equal(
    describe(scalarNode("x".repeat(50), "PLAIN", "", [0, 0, 0])),
    `the string "${"x".repeat(40)}…"`,
  );
});

Deno.test("long quoted values keep their start and end; an empty section is empty", () => {
  const long = "a".repeat(MAX_QUOTED + 10);
  const short = bounded(`Unknown key "${long}".`);
  assert.match(short, /^Unknown key "a{90}…a{20}" \(130 characters\)\.$/);
  assert.ok(bounded("x".repeat(5000)).length <= 2001);
  assert.ok(isEmpty(null) && isEmpty(scalarNode(null, "PLAIN", "", [0, 0, 0])));
  assert.ok(!isEmpty(mapNode(0)));
});

Deno.test("the words between two short quoted values are never shortened as if quoted", () => {
  // Seen: an unknown grant_type read `got the string " (145 characters)client-…"`, the list of
  // grants between "oauth2" and the value shortened as one quoted value.
  const words = "one of " + Array.from({ length: 20 }, (_, i) => `grant_${i}`).join(", ");
  const message = `Expected "grant_type" of "oauth2" to be ${words}, got the string "bad".`;
  assert.equal(bounded(message), message);
  const escaped = `Expected "a" to be ${words}, got "say \\"${"q".repeat(150)}\\"".`;
  const out = bounded(escaped);
  assert.ok(out.includes(words), out);
  assert.match(out, /got "say \\"q{84}…q{18}\\"" \(158 characters\)\.$/);
});
