import assert from "node:assert/strict";
import {
  applyOperator,
  deepEqual,
  evaluateChecks,
  jsonType,
  show,
} from "../../lib/check/assert.ts";
import { compileValue, ExpressionError, type Scope } from "../../lib/expr/template.ts";
import type { Checks, Operator, PathCheck, StatusCheck } from "../../lib/model/flow.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { compilePath, type PathRoot } from "../../lib/expr/path.ts";
import { ReceivedResponse } from "../../lib/http/response.ts";
import "../support/engines.ts";

const scope: Scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };

function check(
  path: string,
  operator: Operator,
  expected: unknown,
  root: PathRoot = "response",
  line = 1,
  column = 1,
): PathCheck {
  return {
    path: compilePath(path, root),
    operator,
    expected: compileValue(expected),
    line,
    column,
  };
}

function status(operator: StatusCheck["operator"], expected: number[]): StatusCheck {
  return { operator, expected, line: 3, column: 7 };
}

function json(body: unknown, code = 200): ReceivedResponse {
  return new ReceivedResponse(code, { "content-type": "application/json" }, JSON.stringify(body));
}

/** The message of a single-check evaluation. */
function messageOf(c: PathCheck, response: ReceivedResponse, s: Scope = scope): string {
  const [result] = evaluateChecks({ paths: [c] }, response, s, "assert");
  return result.message;
}

// ---------------------------------------------------------------------------
// deepEqual, jsonType, show

Deno.test("deepEqual compares JSON values deeply and strictly", () => {
  assert.equal(deepEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] }), true);
  assert.equal(deepEqual("x", "x"), true);
  assert.equal(deepEqual(null, null), true);
  assert.equal(deepEqual([], []), true);
  assert.equal(deepEqual({}, {}), true);
  assert.equal(deepEqual(5, "5"), false);
  assert.equal(deepEqual(0, false), false);
  assert.equal(deepEqual(null, {}), false);
  assert.equal(deepEqual({}, null), false);
  assert.equal(deepEqual(null, undefined), false);
});

Deno.test("deepEqual ignores key order but keeps list order", () => {
  assert.equal(deepEqual({ a: 1, b: 2 }, { b: 2, a: 1 }), true);
  assert.equal(deepEqual([1, 2], [2, 1]), false);
});

Deno.test("deepEqual tells lists from objects and compares sizes", () => {
  assert.equal(deepEqual([], {}), false);
  assert.equal(deepEqual({ 0: "a" }, ["a"]), false);
  assert.equal(deepEqual([1, 2], [1, 2, 3]), false);
  assert.equal(deepEqual({ a: 1 }, { a: 1, b: 2 }), false);
  assert.equal(deepEqual({ a: 1, b: 2 }, { a: 1 }), false);
  assert.equal(deepEqual({ a: 1 }, { b: 1 }), false);
  assert.equal(deepEqual({ a: { b: [1] } }, { a: { b: [2] } }), false);
});

Deno.test("deepEqual does not count a missing key as an undefined one", () => {
  assert.equal(deepEqual({ a: undefined }, { b: undefined }), false);
});

Deno.test("jsonType names the JSON type, with undefined as null", () => {
  assert.equal(jsonType("s"), "string");
  assert.equal(jsonType(1.5), "number");
  assert.equal(jsonType(false), "boolean");
  assert.equal(jsonType(null), "null");
  assert.equal(jsonType(undefined), "null");
  assert.equal(jsonType([1]), "array");
  assert.equal(jsonType({}), "object");
});

Deno.test("show writes values as JSON", () => {
  assert.equal(show("a"), '"a"');
  assert.equal(show([1, 2]), "[1,2]");
  assert.equal(show({ a: null }), '{"a":null}');
  assert.equal(show(3), "3");
  assert.equal(show(null), "null");
  assert.equal(show(undefined), "undefined");
});

Deno.test("show shortens past max with an ellipsis, keeping max characters", () => {
  assert.equal(show("abcdefgh", 10), '"abcdefgh"');
  assert.equal(show("abcdefghi", 10), '"abcdefgh…');
  assert.equal(show("abcdefghi", 10).length, 10);
  assert.equal(show("x".repeat(100)), `"${"x".repeat(78)}…`);
});

// ---------------------------------------------------------------------------
// applyOperator

Deno.test("applyOperator exists: true always holds, false reports what was found", () => {
  assert.equal(applyOperator("exists", 1, true), undefined);
  assert.equal(applyOperator("exists", 1, false), "expected nothing, found number 1");
  assert.equal(applyOperator("exists", null, false), "expected nothing, found null null");
});

Deno.test("applyOperator type checks the JSON type", () => {
  assert.equal(applyOperator("type", "s", "string"), undefined);
  assert.equal(applyOperator("type", 1.5, "number"), undefined);
  assert.equal(applyOperator("type", true, "boolean"), undefined);
  assert.equal(applyOperator("type", null, "null"), undefined);
  assert.equal(applyOperator("type", [], "array"), undefined);
  assert.equal(applyOperator("type", {}, "object"), undefined);
  assert.equal(applyOperator("type", "5", "number"), 'expected type number, got string "5"');
  assert.equal(applyOperator("type", [], "object"), "expected type object, got array []");
  assert.equal(applyOperator("type", null, "object"), "expected type object, got null null");
});

Deno.test("applyOperator type integer accepts whole numbers only, number accepts both", () => {
  assert.equal(applyOperator("type", 5, "integer"), undefined);
  assert.equal(applyOperator("type", 5, "number"), undefined);
  assert.equal(applyOperator("type", 5.5, "number"), undefined);
  assert.equal(applyOperator("type", 5.5, "integer"), "expected type integer, got number 5.5");
  assert.equal(applyOperator("type", "5", "integer"), 'expected type integer, got string "5"');
});

Deno.test("applyOperator equals compares deeply", () => {
  assert.equal(applyOperator("equals", { a: 1, b: [2] }, { b: [2], a: 1 }), undefined);
  assert.equal(applyOperator("equals", "pending", "ready"), 'expected "ready", got "pending"');
  assert.equal(applyOperator("equals", [1, 2], [2, 1]), "expected [2,1], got [1,2]");
});

Deno.test("applyOperator equals says when the types differ", () => {
  assert.equal(
    applyOperator("equals", 5, "5"),
    'expected string "5", got number 5 (types differ)',
  );
  assert.equal(
    applyOperator("equals", null, 0),
    "expected number 0, got null null (types differ)",
  );
  assert.equal(
    applyOperator("equals", [1], { 0: 1 }),
    'expected object {"0":1}, got array [1] (types differ)',
  );
});

Deno.test("applyOperator notEquals fails only on a deeply equal value", () => {
  assert.equal(applyOperator("notEquals", 1, "1"), undefined);
  assert.equal(applyOperator("notEquals", 1, 2), undefined);
  assert.equal(applyOperator("notEquals", 1, 1), "expected anything but 1, got it");
  assert.equal(
    applyOperator("notEquals", { a: [1] }, { a: [1] }),
    'expected anything but {"a":[1]}, got it',
  );
});

Deno.test("applyOperator matches tests a regular expression against a string", () => {
  assert.equal(applyOperator("matches", "abc-123", "^[a-z]+-\\d+$"), undefined);
  // Unanchored: a match anywhere holds.
  assert.equal(applyOperator("matches", "xx42yy", "\\d+"), undefined);
  assert.equal(applyOperator("matches", "abc", "^\\d+$"), '"abc" does not match /^\\d+$/');
});

Deno.test("applyOperator matches rejects a value that is not a string", () => {
  assert.equal(
    applyOperator("matches", 123, "^\\d+$"),
    "expected a string matching /^\\d+$/, got number 123",
  );
  assert.equal(
    applyOperator("matches", null, "x"),
    "expected a string matching /x/, got null null",
  );
});

Deno.test("applyOperator anyOf holds when one item is deeply equal", () => {
  assert.equal(applyOperator("anyOf", "b", ["a", "b"]), undefined);
  assert.equal(applyOperator("anyOf", { a: 1 }, [{ a: 1 }]), undefined);
  assert.equal(applyOperator("anyOf", "c", ["a", "b"]), 'expected one of ["a","b"], got "c"');
  assert.equal(applyOperator("anyOf", 1, ["1"]), 'expected one of ["1"], got 1');
});

Deno.test("applyOperator anyOf needs a list", () => {
  assert.equal(applyOperator("anyOf", 1, "x"), '"anyOf" needs a list, got string "x"');
});

Deno.test("applyOperator gt, gte, lt and lte compare numbers", () => {
  assert.equal(applyOperator("gt", 5, 3), undefined);
  assert.equal(applyOperator("gt", 3, 3), "expected a number > 3, got 3");
  assert.equal(applyOperator("gte", 3, 3), undefined);
  assert.equal(applyOperator("gte", 2, 3), "expected a number >= 3, got 2");
  assert.equal(applyOperator("lt", 2, 3), undefined);
  assert.equal(applyOperator("lt", 3, 3), "expected a number < 3, got 3");
  assert.equal(applyOperator("lte", 3, 3), undefined);
  assert.equal(applyOperator("lte", 4, 3.5), "expected a number <= 3.5, got 4");
});

Deno.test("applyOperator numeric operators accept a numeric string as expected", () => {
  // Values from environment variables and run parameters arrive as text.
  assert.equal(applyOperator("gt", 5, "3"), undefined);
  assert.equal(applyOperator("lt", 5, " 3 "), "expected a number < 3, got 5");
  assert.equal(applyOperator("lte", 10, "1e1"), undefined);
  assert.equal(applyOperator("gte", -1, "-1"), undefined);
});

Deno.test("applyOperator numeric operators reject a non-numeric expected value", () => {
  assert.equal(applyOperator("gt", 5, "abc"), '"gt" needs a number, got string "abc"');
  assert.equal(applyOperator("gte", 5, ""), '"gte" needs a number, got string ""');
  assert.equal(applyOperator("lt", 5, "  "), '"lt" needs a number, got string "  "');
  assert.equal(applyOperator("lte", 5, null), '"lte" needs a number, got null null');
  assert.equal(applyOperator("gt", 5, [1]), '"gt" needs a number, got array [1]');
});

Deno.test("applyOperator numeric operators reject a non-number actual, even a numeric string", () => {
  assert.equal(applyOperator("gt", "5", 3), 'expected a number > 3, got string "5"');
  assert.equal(applyOperator("gte", null, 1), "expected a number >= 1, got null null");
  assert.equal(applyOperator("lt", [1], 3), "expected a number < 3, got array [1]");
});

Deno.test("applyOperator contains finds a deeply equal item in a list", () => {
  assert.equal(applyOperator("contains", [1, { a: 2 }], { a: 2 }), undefined);
  assert.equal(applyOperator("contains", [1, 2], 3), "expected [1,2] to contain 3");
  assert.equal(applyOperator("contains", ["1"], 1), 'expected ["1"] to contain 1');
});

Deno.test("applyOperator contains finds a substring in a string", () => {
  assert.equal(applyOperator("contains", "hello world", "lo w"), undefined);
  assert.equal(applyOperator("contains", "hello", ""), undefined);
  assert.equal(applyOperator("contains", "hello", "xyz"), 'expected "hello" to contain "xyz"');
});

Deno.test("applyOperator contains rejects values that are neither list, string nor object holding it", () => {
  assert.equal(
    applyOperator("contains", { a: 1 }, "a"),
    'expected a list or a string to contain "a", got object {"a":1}',
  );
  assert.equal(
    applyOperator("contains", 42, 4),
    "expected a list or a string to contain 4, got number 42",
  );
  // As chai's include: a number is found in text by its digits, an object holds another's members.
  assert.equal(applyOperator("contains", "abc123", 123), undefined);
  assert.equal(applyOperator("contains", { a: 1, b: [2] }, { b: [2] }), undefined);
  assert.equal(
    applyOperator("contains", { a: 1 }, { a: 2 }),
    'expected {"a":1} to contain {"a":2}',
  );
});

Deno.test("applyOperator containsAll needs every expected item, in any order", () => {
  assert.equal(applyOperator("containsAll", [1, 2, 3], [3, 1]), undefined);
  assert.equal(applyOperator("containsAll", [{ id: 1 }], [{ id: 1 }]), undefined);
  assert.equal(applyOperator("containsAll", [], []), undefined);
});

Deno.test("applyOperator containsAll lists the missing items", () => {
  assert.equal(
    applyOperator("containsAll", [1, 2], [1, 4, 5]),
    "missing 2 of 3 expected elements: 4, 5",
  );
  assert.equal(
    applyOperator("containsAll", ["a"], ["a", "b"]),
    'missing 1 of 2 expected elements: "b"',
  );
});

Deno.test("applyOperator containsAll shortens each missing item to 40 characters", () => {
  const long = "y".repeat(60);
  assert.equal(
    applyOperator("containsAll", [], [long]),
    `missing 1 of 1 expected elements: "${"y".repeat(38)}…`,
  );
});

Deno.test("applyOperator containsAll needs lists on both sides", () => {
  assert.equal(applyOperator("containsAll", [1], 1), '"containsAll" needs a list, got number 1');
  assert.equal(
    applyOperator("containsAll", "abc", ["a"]),
    'expected a list containing ["a"], got string "abc"',
  );
});

Deno.test("applyOperator length measures lists, strings and objects", () => {
  assert.equal(applyOperator("length", [1, 2], 2), undefined);
  assert.equal(applyOperator("length", "abc", 3), undefined);
  assert.equal(applyOperator("length", { a: 1, b: 2 }, 2), undefined);
  assert.equal(applyOperator("length", [], 0), undefined);
  assert.equal(applyOperator("length", "abc", "3"), undefined);
  assert.equal(applyOperator("length", [1], 2), "expected length 2, got 1");
  assert.equal(applyOperator("length", "abcd", 3), "expected length 3, got 4");
  assert.equal(applyOperator("length", {}, 1), "expected length 1, got 0");
});

Deno.test("applyOperator length rejects values without a length", () => {
  assert.equal(applyOperator("length", 5, 1), "expected something with a length, got number 5");
  assert.equal(applyOperator("length", null, 0), "expected something with a length, got null null");
  assert.equal(
    applyOperator("length", true, 1),
    "expected something with a length, got boolean true",
  );
});

// ---------------------------------------------------------------------------
// evaluateChecks: status

Deno.test("evaluateChecks passes an equal status", () => {
  const results = evaluateChecks(
    { status: status("equals", [200]), paths: [] },
    json({}),
    scope,
    "assert",
  );
  assert.deepEqual(results, [{
    phase: "assert",
    path: "status",
    operator: "equals",
    expected: 200,
    actual: 200,
    found: true,
    passed: true,
    message: "status 200",
    line: 3,
    column: 7,
  }]);
});

Deno.test("evaluateChecks fails a different status with both codes in the message", () => {
  const [result] = evaluateChecks(
    { status: status("equals", [200]), paths: [] },
    json({}, 404),
    scope,
    "assert",
  );
  assert.equal(result.passed, false);
  assert.equal(result.actual, 404);
  assert.equal(result.message, "status: expected 200, got 404");
});

Deno.test("evaluateChecks checks status anyOf and in against the list", () => {
  for (const operator of ["anyOf", "in"] as const) {
    const checks: Checks = { status: status(operator, [200, 201]), paths: [] };
    const [ok] = evaluateChecks(checks, json({}, 201), scope, "assert");
    assert.equal(ok.passed, true);
    assert.equal(ok.operator, operator);
    assert.deepEqual(ok.expected, [200, 201]);
    assert.equal(ok.message, "status 201");
    const [bad] = evaluateChecks(checks, json({}, 500), scope, "assert");
    assert.equal(bad.passed, false);
    assert.equal(bad.message, "status: expected one of [200,201], got 500");
  }
});

Deno.test("evaluateChecks returns nothing for an empty block", () => {
  assert.deepEqual(evaluateChecks({ paths: [] }, json({}), scope, "assert"), []);
});

// ---------------------------------------------------------------------------
// evaluateChecks: paths

Deno.test("evaluateChecks reports a passing path check with its position", () => {
  const [result] = evaluateChecks(
    { paths: [check("$.json.state", "equals", "ready", "response", 9, 29)] },
    json({ state: "ready" }),
    scope,
    "assert",
  );
  assert.deepEqual(result, {
    phase: "assert",
    path: "$.json.state",
    operator: "equals",
    expected: "ready",
    actual: "ready",
    found: true,
    passed: true,
    message: '$.json.state: equals "ready" holds',
    line: 9,
    column: 29,
  });
});

Deno.test("evaluateChecks reports a failing path check with the operator's message", () => {
  const [result] = evaluateChecks(
    { paths: [check("$.json.state", "equals", "ready")] },
    json({ state: "pending" }),
    scope,
    "until",
  );
  assert.equal(result.phase, "until");
  assert.equal(result.passed, false);
  assert.equal(result.found, true);
  assert.equal(result.actual, "pending");
  assert.equal(result.message, '$.json.state: expected "ready", got "pending"');
});

Deno.test("evaluateChecks reads body-rooted paths", () => {
  const [result] = evaluateChecks(
    { paths: [check("$.items[*].id", "containsAll", [2, 1], "body")] },
    json({ items: [{ id: 1 }, { id: 2 }] }),
    scope,
    "assert",
  );
  assert.equal(result.passed, true);
  assert.equal(result.path, "$.items[*].id");
  assert.deepEqual(result.actual, [1, 2]);
  assert.equal(result.message, "$.items[*].id: containsAll [2,1] holds");
});

Deno.test("evaluateChecks reads status and headers under the response root", () => {
  const response = new ReceivedResponse(
    201,
    { "content-type": "application/json; charset=utf-8" },
    "{}",
  );
  const results = evaluateChecks(
    {
      paths: [
        check("$.status", "equals", 201),
        check("$.headers.content-type", "matches", "^application/json"),
      ],
    },
    response,
    scope,
    "assert",
  );
  assert.deepEqual(results.map((r) => [r.passed, r.message]), [
    [true, "$.status: equals 201 holds"],
    [true, '$.headers.content-type: matches "^application/json" holds'],
  ]);
});

Deno.test("evaluateChecks fails a path that matched nothing", () => {
  const [result] = evaluateChecks(
    { paths: [check("$.json.missing", "equals", 1)] },
    json({ a: 1 }),
    scope,
    "assert",
  );
  assert.equal(result.passed, false);
  assert.equal(result.found, false);
  assert.equal(result.actual, null);
  assert.equal(result.message, "$.json.missing: nothing matched");
});

Deno.test("a wildcard that selects nothing selects an empty list", () => {
  const empty = json({ items: [] });
  assert.equal(
    messageOf(check("$.items[*]", "length", 0, "body"), empty),
    "$.items[*]: length 0 holds",
  );
  assert.equal(
    messageOf(check("$.items[*]", "equals", [], "body"), empty),
    "$.items[*]: equals [] holds",
  );
  assert.equal(
    messageOf(check("$.items[*]", "type", "array", "body"), empty),
    '$.items[*]: type "array" holds',
  );
  assert.equal(
    messageOf(check("$.items[*]", "exists", true, "body"), empty),
    "$.items[*] does not exist",
  );
  // A path to one value that is absent still matched nothing.
  assert.equal(
    messageOf(check("$.missing", "length", 0, "body"), empty),
    "$.missing: nothing matched",
  );
});

Deno.test("evaluateChecks says when the body is not JSON", () => {
  const response = new ReceivedResponse(502, { "content-type": "text/html" }, "<h1>Bad</h1>");
  assert.equal(
    messageOf(check("$.json.id", "equals", 1), response),
    "$.json.id: nothing matched (the response body is not JSON)",
  );
  assert.equal(
    messageOf(check("$.id", "equals", 1, "body"), response),
    "$.id: nothing matched (the response body is not JSON)",
  );
  assert.equal(
    messageOf(check("$.json.id", "exists", true), response),
    "$.json.id does not exist (the response body is not JSON)",
  );
});

Deno.test("evaluateChecks does not blame the body for a missing header", () => {
  const response = new ReceivedResponse(200, {}, "not json");
  assert.equal(
    messageOf(check("$.headers.etag", "exists", true), response),
    "$.headers.etag does not exist",
  );
});

Deno.test("evaluateChecks exists: true passes when found and fails when absent", () => {
  const response = json({ a: { b: 1 } });
  const [found, absent] = evaluateChecks(
    { paths: [check("$.json.a", "exists", true), check("$.json.z", "exists", true)] },
    response,
    scope,
    "assert",
  );
  assert.equal(found.passed, true);
  assert.equal(found.found, true);
  assert.deepEqual(found.actual, { b: 1 });
  assert.equal(found.expected, true);
  assert.equal(found.message, "$.json.a exists");
  assert.equal(absent.passed, false);
  assert.equal(absent.found, false);
  assert.equal(absent.actual, null);
  assert.equal(absent.message, "$.json.z does not exist");
});

Deno.test("evaluateChecks exists: false passes when absent and fails when found", () => {
  const response = json({ a: 1 });
  const [absent, found] = evaluateChecks(
    { paths: [check("$.json.z", "exists", false), check("$.json.a", "exists", false)] },
    response,
    scope,
    "assert",
  );
  assert.equal(absent.passed, true);
  assert.equal(absent.message, "$.json.z does not exist");
  assert.equal(found.passed, false);
  assert.equal(found.actual, 1);
  assert.equal(found.message, "$.json.a: expected nothing, found number 1");
});

Deno.test("evaluateChecks treats a found null as existing", () => {
  const [result] = evaluateChecks(
    { paths: [check("$.json.n", "exists", true)] },
    json({ n: null }),
    scope,
    "assert",
  );
  assert.equal(result.passed, true);
  assert.equal(result.found, true);
  assert.equal(result.actual, null);
});

Deno.test("evaluateChecks evaluates every check even after failures", () => {
  const results = evaluateChecks(
    {
      status: status("equals", [200]),
      paths: [
        check("$.json.a", "equals", 2),
        check("$.json.missing", "exists", true),
        check("$.json.a", "gte", 1),
        check("$.b", "type", "string", "body"),
      ],
    },
    json({ a: 1, b: "x" }, 500),
    scope,
    "assert",
  );
  assert.deepEqual(results.map((r) => [r.path, r.operator, r.passed]), [
    ["status", "equals", false],
    ["$.json.a", "equals", false],
    ["$.json.missing", "exists", false],
    ["$.json.a", "gte", true],
    ["$.b", "type", true],
  ]);
});

Deno.test("evaluateChecks resolves expected values from the scope", () => {
  const s: Scope = {
    env: (name) => (name === "MIN" ? "3" : undefined),
    vars: new Map<string, unknown>([["id", 7], ["tags", ["a", "b"]]]),
    steps: new Map([["login", new Map<string, unknown>([["user", "u1"]])]]),
    runId: "run-9",
  };
  const results = evaluateChecks(
    {
      paths: [
        check("$.json.id", "equals", "${vars.id}"),
        check("$.json.tags", "equals", "${vars.tags}"),
        check("$.json.owner", "equals", "${steps.login.user}"),
        check("$.json.count", "gte", "${ENV.MIN}"),
        check("$.json.ref", "equals", "ref-${RUN_ID}"),
        check("$.json.obj", "equals", { id: "${vars.id}", fixed: true }),
      ],
    },
    json({
      id: 7,
      tags: ["a", "b"],
      owner: "u1",
      count: 3,
      ref: "ref-run-9",
      obj: { fixed: true, id: 7 },
    }),
    s,
    "assert",
  );
  assert.deepEqual(results.map((r) => r.expected), [
    7,
    ["a", "b"],
    "u1",
    "3",
    "ref-run-9",
    { id: 7, fixed: true },
  ]);
  assert.deepEqual(results.map((r) => r.passed), [true, true, true, true, true, true]);
});

Deno.test("evaluateChecks keeps the type of a resolved expected value for equals", () => {
  // "${ENV.N}" is text, so it does not equal the number 5.
  const s: Scope = { ...scope, env: (name) => (name === "N" ? "5" : undefined) };
  assert.equal(
    messageOf(check("$.json.n", "equals", "${ENV.N}"), json({ n: 5 }), s),
    '$.json.n: expected string "5", got number 5 (types differ)',
  );
});

Deno.test("evaluateChecks throws ExpressionError for an unresolvable expected value", () => {
  assert.throws(
    () =>
      evaluateChecks(
        { paths: [check("$.json.id", "equals", "${vars.nope}")] },
        json({ id: 1 }),
        scope,
        "assert",
      ),
    (e: unknown) => {
      assert.ok(e instanceof ExpressionError);
      assert.equal(e.message, 'Flow var "nope" is not defined (in "${vars.nope}").');
      return true;
    },
  );
});

Deno.test("evaluateChecks compacts a huge string actual value", () => {
  const big = "x".repeat(3000);
  const [result] = evaluateChecks(
    { paths: [check("$.json.big", "type", "string")] },
    json({ big }),
    scope,
    "assert",
  );
  assert.equal(result.passed, true);
  assert.equal(result.actual, `${"x".repeat(2000)}… (1000 more characters)`);
});

Deno.test("evaluateChecks compacts a huge object actual value into a marked excerpt", () => {
  const items = Array.from({ length: 500 }, (_, i) => ({ id: i }));
  const text = JSON.stringify(items);
  const [result] = evaluateChecks(
    { paths: [check("$.items", "length", 499, "body")] },
    json({ items }),
    scope,
    "assert",
  );
  assert.equal(result.passed, false);
  assert.equal(result.message, "$.items: expected length 499, got 500");
  assert.equal(
    result.actual,
    `${text.slice(0, 2000)}… (${text.length - 2000} more characters, truncated)`,
  );
});

Deno.test("evaluateChecks keeps actual values up to the limit as they are", () => {
  const s = "y".repeat(2000);
  const [str] = evaluateChecks(
    { paths: [check("$.s", "type", "string", "body")] },
    json({ s }),
    scope,
    "assert",
  );
  assert.equal(str.actual, s);
  const list = [1, 2, 3];
  const [arr] = evaluateChecks(
    { paths: [check("$.list", "length", 3, "body")] },
    json({ list }),
    scope,
    "assert",
  );
  assert.deepEqual(arr.actual, list);
});

Deno.test("evaluateChecks compacts the actual value of a failed exists: false", () => {
  const big = "z".repeat(2500);
  const [result] = evaluateChecks(
    { paths: [check("$.json.big", "exists", false)] },
    json({ big }),
    scope,
    "assert",
  );
  assert.equal(result.passed, false);
  assert.equal(result.actual, `${"z".repeat(2000)}… (500 more characters)`);
  assert.equal(result.message, `$.json.big: expected nothing, found string "${"z".repeat(78)}…`);
});

Deno.test("evaluateChecks shortens long values in messages", () => {
  const long = "w".repeat(200);
  assert.equal(
    messageOf(check("$.json.v", "equals", "short"), json({ v: long })),
    `$.json.v: expected "short", got "${"w".repeat(78)}…`,
  );
});

// ---------------------------------------------------------------------------
// evaluateChecks with a loaded flow

Deno.test("evaluateChecks runs the checks of a loaded flow in order", () => {
  const { flow, problems } = loadFlow(
    `name: f
vars: {min: 5}
steps:
  - name: s
    request: {url: http://x.test}
    assert:
      status: {in: [200, 204]}
      json:
        - {path: $.json.id, equals: 7, type: integer}
      jsonpath:
        - {path: $.id, gte: "\${vars.min}"}
`,
    "f.yaml",
  );
  assert.deepEqual(problems, []);
  assert.ok(flow);
  const s: Scope = { ...scope, vars: new Map([["min", 5]]) };
  const results = evaluateChecks(flow.steps[0].assert, json({ id: 7.5 }, 204), s, "assert");
  assert.deepEqual(
    results.map((r) => [r.path, r.operator, r.passed, r.message, r.line, r.column]),
    [
      ["status", "in", true, "status 204", 7, 7],
      ["$.json.id", "equals", false, "$.json.id: expected 7, got 7.5", 9, 29],
      ["$.json.id", "type", false, "$.json.id: expected type integer, got number 7.5", 9, 40],
      ["$.id", "gte", true, "$.id: gte 5 holds", 11, 24],
    ],
  );
});

// ---------------------------------------------------------------------------
// Expected values from expressions skip the loader's checks; bad ones must fail the check, not the run.

Deno.test({
  name: "applyOperator length rejects a non-numeric expected value",
  fn() {
    assert.equal(
      applyOperator("length", [1, 2, 3], "abc"),
      '"length" needs a number, got string "abc"',
    );
  },
});

Deno.test({
  name: "evaluateChecks reports an invalid regular expression as a failed check",
  fn() {
    const s: Scope = { ...scope, env: (name) => (name === "P" ? "(" : undefined) };
    const results = evaluateChecks(
      { paths: [check("$.json.v", "matches", "${ENV.P}")] },
      json({ v: "x" }),
      s,
      "assert",
    );
    assert.equal(results.length, 1);
    assert.equal(results[0].passed, false);
    assert.equal(results[0].found, true);
    assert.ok(
      results[0].message.startsWith("$.json.v: ") && results[0].message.includes("/(/"),
      results[0].message,
    );
  },
});
