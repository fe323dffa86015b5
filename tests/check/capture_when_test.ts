/**
 * A capture's `when`: its conditions may read a capture of the same step
 * taken above it (`withOwnCaptures`), and a value condition under `exists`
 * reads one left unset as not there, as a step's `if` does; under another
 * operator an unset value is the capture's failure, said, not a crash.
 */
import assert from "node:assert/strict";
import { captureWhen, withOwnCaptures } from "../../lib/check/capture_when.ts";
import { compileValue, type Scope } from "../../lib/expr/template.ts";
import { ReceivedResponse } from "../../lib/http/response.ts";
import { PLAIN } from "../../lib/model/masking.ts";

const scope: Scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
const response = new ReceivedResponse(200, {}, "{}", ["t=c-1"]);

function when(operator: "exists" | "equals", expected: unknown) {
  return [{
    kind: "value" as const,
    source: "${steps.login.capture.body}",
    value: compileValue("${steps.login.capture.body}"),
    operator,
    expected: compileValue(expected),
    line: 1,
    column: 1,
  }];
}

Deno.test("a when reads the step's own capture above it through withOwnCaptures", () => {
  const own = withOwnCaptures(scope, "login", new Map([["body", "b-1"]]));
  const from = { kind: "cookie" as const, name: "t", when: when("exists", false) };
  const got = captureWhen(
    response,
    { ...from, otherwise: compileValue("${steps.login.capture.body}") },
    own,
    PLAIN,
  );
  assert.deepEqual(got, { found: true, value: "b-1" });
});

Deno.test("exists: false holds for an own capture left unset: the source is read", () => {
  const own = withOwnCaptures(scope, "login", new Map());
  const from = { kind: "cookie" as const, name: "t", when: when("exists", false) };
  assert.equal(captureWhen(response, from, own, PLAIN), "read");
});

Deno.test("another operator on an unset value fails the capture with why", () => {
  const own = withOwnCaptures(scope, "login", new Map());
  const got = captureWhen(
    response,
    { kind: "cookie", name: "t", when: when("equals", "x") },
    own,
    PLAIN,
  );
  assert.equal(
    typeof got === "object" && !got.found &&
      /could not be told: Step "login" has no captured value "body"/.test(got.why),
    true,
    JSON.stringify(got),
  );
});
