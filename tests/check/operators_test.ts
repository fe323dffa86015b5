/**
 * The operator table drives everything: the schema and the docs table are
 * written from it, the loader validates constants with it, and every entry
 * evaluates and explains itself.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { PLAIN } from "../../lib/check/json_value.ts";
import { OPERATOR_TABLE } from "../../lib/check/operators.ts";
import { OPERATOR_SPECS, OPERATORS } from "../../lib/model/operators.ts";
import { drift } from "../../scripts/sync_operators.ts";
import "../support/engines.ts";

/** For each operator: a check that holds, one that fails with its message, a bad constant. */
const EXAMPLES: Record<string, { holds: [unknown, unknown]; fails: [unknown, unknown, string] }> = {
  exists: { holds: ["x", true], fails: ["x", false, 'expected nothing, found string "x"'] },
  truthy: { holds: [1, true], fails: ["", true, 'expected a truthy value, got string ""'] },
  type: { holds: [3, "integer"], fails: [3.5, "integer", "expected type integer, got number 3.5"] },
  equals: {
    holds: [{ a: [1] }, { a: [1] }],
    fails: [5, "5", 'expected string "5", got number 5 (types differ)'],
  },
  notEquals: { holds: [1, 2], fails: [1, 1, "expected anything but 1, got it"] },
  matches: { holds: ["ord-12", "^ord-\\d+$"], fails: ["x", "^\\d$", '"x" does not match /^\\d$/'] },
  anyOf: { holds: [2, [1, 2]], fails: [3, [1, 2], "expected one of [1,2], got 3"] },
  gt: { holds: [2, 1], fails: [1, 1, "expected a number > 1, got 1"] },
  gte: { holds: [1, 1], fails: [0, 1, "expected a number >= 1, got 0"] },
  lt: { holds: [0, 1], fails: [1, 1, "expected a number < 1, got 1"] },
  lte: { holds: [1, 1], fails: [2, 1, "expected a number <= 1, got 2"] },
  contains: { holds: ["abc", "b"], fails: [[1], 2, "expected [1] to contain 2"] },
  containsAll: {
    holds: [[1, 2, 3], [3, 1]],
    fails: [[1], [1, 2], "missing 1 of 2 expected elements: 2"],
  },
  length: { holds: [{ a: 1 }, 1], fails: ["ab", 1, "expected length 1, got 2"] },
};

Deno.test("the flow schema and the docs table are written from the operator table", async () => {
  assert.deepEqual(
    (await drift()).map((d) => d.file),
    [],
    "run: deno run -A scripts/sync_operators.ts",
  );
});

Deno.test("every operator in the table evaluates, explains a failure, and has an example here", () => {
  assert.deepEqual(Object.keys(EXAMPLES), OPERATORS);
  for (const op of OPERATORS) {
    const { holds, fails } = EXAMPLES[op];
    const { check } = OPERATOR_TABLE[op];
    assert.equal(check(holds[0], holds[1], PLAIN), undefined, op);
    assert.equal(check(fails[0], fails[1], PLAIN), fails[2], op);
  }
});

Deno.test("the loader refuses a constant of the wrong kind with the table's words and hint", () => {
  for (const op of OPERATORS) {
    const spec = OPERATOR_SPECS[op];
    if (!("accepts" in spec)) continue;
    const bad = op === "exists" ? '"yes"' : op === "matches" ? "5" : '"x"';
    const text =
      `name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n    assert:\n` +
      `      json:\n        - {path: $.json.a, ${op}: ${bad}}\n`;
    const { problems } = loadFlow(text, "t.yaml");
    assert.equal(problems.length, 1, `${op}: ${JSON.stringify(problems)}`);
    assert.equal(problems[0].code, "wrong-type", op);
    assert.ok(
      problems[0].message.startsWith(`Expected "${op}" to be ${spec.expects}, got`),
      problems[0].message,
    );
    if ("hint" in spec) assert.equal(problems[0].hint, spec.hint);
    const ok = `${
      text.replace(`${op}: ${bad}`, `${op}: ${JSON.stringify(EXAMPLES[op].holds[1])}`)
    }`;
    assert.deepEqual(loadFlow(ok, "t.yaml").problems, [], op);
  }
});
