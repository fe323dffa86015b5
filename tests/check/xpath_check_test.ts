import assert from "node:assert/strict";
import { checkXPath } from "../../lib/check/xpath_check.ts";
import { prepareXPath } from "../../lib/check/xpath.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { ReceivedResponse } from "../../lib/http/response.ts";
import { PLAIN } from "../../lib/model/masking.ts";
import type { XPathCheck } from "../../lib/model/flow.ts";
import "../support/engines.ts";

async function xpathChecks(entries: string): Promise<XPathCheck[]> {
  const { flow, problems } = loadFlow(
    `name: x\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    assert:\n      json:\n${entries}`,
    "x.yaml",
  );
  assert.deepEqual(problems, []);
  await prepareXPath([flow!]);
  return flow!.steps[0].assert.xpaths!;
}

const XML = '<?xml version="1.0"?><feed><entry id="1">A</entry><entry id="2">B</entry></feed>';
const context = {
  response: new ReceivedResponse(200, { "content-type": "application/xml" }, XML),
  scope: { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" },
  phase: "assert" as const,
  display: PLAIN,
};

Deno.test("XPath checks: a value through the operator, exists both ways, nothing matched, a name", async () => {
  const checks = await xpathChecks(
    `        - {xpath: "//entry", equals: [A, B]}
        - {xpath: "//entry[@id='2']", equals: A, name: second}
        - {xpath: "//missing", exists: false}
        - {xpath: "//entry", exists: false}
        - {xpath: "//missing", equals: x}
`,
  );
  const messages = checks.map((c) => checkXPath(c, context).message);
  assert.deepEqual(messages.slice(0, 4), [
    'xpath //entry: equals ["A","B"] holds',
    'second: xpath //entry[@id=\'2\']: expected "A", got "B"',
    "xpath //missing does not exist",
    "xpath //entry exists (expected it not to exist)",
  ]);
  assert.match(messages[4], /^xpath \/\/missing: /);
  const named = checkXPath(checks[1], context);
  assert.equal(named.name, "second");
  assert.equal(named.path, "xpath //entry[@id='2']");
});
