import assert from "node:assert/strict";
import { GroupBranches } from "../../lib/check/groups.ts";
import type { CheckContext } from "../../lib/check/context.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { ReceivedResponse } from "../../lib/http/response.ts";
import { PLAIN } from "../../lib/model/masking.ts";
import type { PathCheck } from "../../lib/model/flow.ts";
import "../support/engines.ts";

/** The path checks of a step whose `json` list is `checks`. */
function pathChecks(checks: string): PathCheck[] {
  const { flow, problems } = loadFlow(
    `name: g\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    assert:\n      json:\n${checks}`,
    "g.yaml",
  );
  assert.deepEqual(problems, []);
  return flow!.steps[0].assert.paths;
}

function context(body: unknown): CheckContext {
  return {
    response: new ReceivedResponse(
      200,
      { "content-type": "application/json" },
      JSON.stringify(body),
    ),
    scope: { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" },
    phase: "assert",
    display: PLAIN,
  };
}

const GROUP = `        - name: listing
          if: {path: $.json.items, notEquals: []}
          checks:
            - {path: $.json.count, gt: 0}
            - {path: $.json.items, type: array}
          else:
            - {path: $.json.count, equals: 0}
`;

Deno.test("the branch taken runs; the other is one skipped result, on its first check only", () => {
  const [first, second, otherwise] = pathChecks(GROUP);
  const full = new GroupBranches(context({ items: [1], count: 1 }));
  assert.equal(full.skippedBy(first), undefined);
  assert.equal(full.skippedBy(second), undefined);
  const skipped = full.skippedBy(otherwise)!;
  assert.equal(skipped.skipped, true);
  assert.equal(skipped.passed, true);
  assert.equal(skipped.name, "listing");
  assert.equal(
    skipped.message,
    'listing: skipped 1 "else" check: its condition $.json.items notEquals [] holds',
  );
  const empty = new GroupBranches(context({ items: [], count: 0 }));
  assert.equal(
    empty.skippedBy(first)!.message,
    "listing: skipped 2 checks: its condition $.json.items notEquals [] does not hold " +
      "(expected anything but [], got it)",
  );
  assert.equal(empty.skippedBy(second), null);
  assert.equal(empty.skippedBy(otherwise), undefined);
});

Deno.test("a condition on a path that matched nothing does not hold", () => {
  const [first] = pathChecks(GROUP);
  const result = new GroupBranches(context({ count: 0 })).skippedBy(first)!;
  assert.match(result.message, /does not hold \(nothing matched\)$/);
  assert.equal(result.found, false);
});

Deno.test("a condition that could not be told checks neither branch and fails the group", () => {
  const [first, otherwise] = pathChecks(
    `        - if: {path: $.json.name, matches: "^(a+)+$"}
          checks: [{path: $.json.count, gt: 0}]
          else: [{path: $.json.count, equals: 0}]
`,
  );
  const branches = new GroupBranches(context({ name: `${"a".repeat(40)}!`, count: 0 }));
  const result = branches.skippedBy(first)!;
  assert.equal(result.passed, false);
  assert.match(result.message, /^neither branch was checked: its condition \$\.json\.name matches/);
  assert.equal(branches.skippedBy(otherwise), null);
});
