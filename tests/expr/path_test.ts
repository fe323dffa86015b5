import assert from "node:assert/strict";
import "../support/engines.ts";
import {
  compilePath,
  FILTER_DESCENT_LIMIT,
  type PathRoot,
  PathSyntaxError,
  RESPONSE_MEMBERS,
  select,
} from "../../lib/expr/path.ts";

function pathError(source: string, root: PathRoot): PathSyntaxError {
  try {
    compilePath(source, root);
  } catch (error) {
    assert.ok(error instanceof PathSyntaxError, `not a PathSyntaxError: ${error}`);
    return error;
  }
  assert.fail(`compilePath(${JSON.stringify(source)}, "${root}") did not throw`);
}

const RESPONSE_HINT_TAIL = '; under "extract" and "assert.jsonpath" the body is $.';
const RFC_HINT =
  "Paths follow RFC 9535, e.g. $.items[0].id, $.items[*].id or $.items[?@.price > 10].name.";

const doc = {
  items: [
    { id: 1, price: 5, name: "a" },
    { id: 2, price: 20, name: "b" },
    { id: 3, price: 9, name: "c" },
  ],
  token: "t0k",
  nothing: null,
};

Deno.test("compilePath keeps the source and root it was given", () => {
  const body = compilePath("$.items[0].id", "body");
  assert.equal(body.source, "$.items[0].id");
  assert.equal(body.root, "body");
  const response = compilePath("$.json.items[0].id", "response");
  assert.equal(response.source, "$.json.items[0].id");
  assert.equal(response.root, "response");
});

Deno.test("a path used by many flows is compiled once and shared, read-only", () => {
  const a = compilePath("$.json.token", "response");
  const b = compilePath("$.json.token", "response");
  assert.equal(a, b);
  assert.ok(Object.isFrozen(a));
  // The root is part of the key: the same text under another root is another path.
  const body = compilePath("$.json.token", "body");
  assert.notEqual(body, a);
  assert.equal(body.root, "body");
  // Header names are lower-cased for the response root only, before the cache is consulted.
  assert.equal(compilePath("$.headers.X-Id", "response").source, "$.headers.X-Id");
  const headers = { headers: { "x-id": "7" } };
  assert.deepEqual(select(compilePath("$.headers.X-Id", "response"), headers), {
    found: true,
    value: "7",
  });
  // A syntax error is thrown every time, never remembered as a path.
  assert.throws(() => compilePath("$.items[", "body"), PathSyntaxError);
  assert.throws(() => compilePath("$.items[", "body"), PathSyntaxError);
});

Deno.test("compilePath marks names and indexes as singular", () => {
  assert.equal(compilePath("$.token", "body").singular, true);
  assert.equal(compilePath("$.items[0].id", "body").singular, true);
  assert.equal(compilePath("$['items'][-1]", "body").singular, true);
  assert.equal(compilePath("$.json.a.b", "response").singular, true);
  assert.equal(compilePath("$.status", "response").singular, true);
});

Deno.test("compilePath marks wildcards, slices, descendants and filters as not singular", () => {
  assert.equal(compilePath("$.items[*].id", "body").singular, false);
  assert.equal(compilePath("$.items[0:2]", "body").singular, false);
  assert.equal(compilePath("$..id", "body").singular, false);
  assert.equal(compilePath("$.items[?@.price < 10]", "body").singular, false);
  assert.equal(compilePath("$.json.items[*].id", "response").singular, false);
  assert.equal(compilePath("$.json..id", "response").singular, false);
});

Deno.test("compilePath accepts both filter spellings with the same result", () => {
  const old = compilePath("$.items[?(@.price < 10)].name", "body");
  const rfc = compilePath("$.items[?@.price < 10].name", "body");
  assert.equal(old.singular, false);
  assert.equal(rfc.singular, false);
  assert.deepEqual(select(old, doc), { found: true, value: ["a", "c"] });
  assert.deepEqual(select(rfc, doc), { found: true, value: ["a", "c"] });
});

Deno.test("compilePath accepts filters under the response root", () => {
  const p = compilePath("$.json.items[?(@.price < 10)].id", "response");
  assert.deepEqual(select(p, { json: doc, status: 200, headers: {} }).value, [1, 3]);
});

Deno.test("compilePath accepts $.json, $.status and $.headers under the response root", () => {
  assert.deepEqual(RESPONSE_MEMBERS, [
    "json",
    "status",
    "headers",
    "cookies",
    "jar",
    "url",
    "duration_ms",
    "body",
  ]);
  for (const source of ["$.json", "$.status", "$.headers", "$.headers.content-type"]) {
    assert.equal(compilePath(source, "response").source, source);
  }
});

Deno.test("compilePath accepts the bracket form $['json'] under the response root", () => {
  assert.equal(compilePath("$['json']", "response").singular, true);
  assert.equal(compilePath('$["json"].id', "response").singular, true);
  assert.equal(compilePath("$['headers']['content-type']", "response").singular, true);
});

Deno.test("compilePath accepts a bracket list of response members as a non-singular path", () => {
  assert.equal(compilePath("$['json','status']", "response").singular, false);
});

Deno.test("compilePath accepts $ alone under both roots as a singular path with no segments", () => {
  for (const root of ["response", "body"] as const) {
    const p = compilePath("$", root);
    assert.equal(p.singular, true);
    assert.deepEqual(p.chain, []);
  }
});

Deno.test("compilePath rejects a body member under the response root with a $.json hint", () => {
  const e = pathError("$.token", "response");
  assert.equal(e.message, 'Path "$.token" does not start at $.json, $.status or $.headers.');
  assert.equal(e.offset, 1);
  assert.equal(
    e.hint,
    'Under "capture", "assert.json" and "loop.until.json" the body is $.json, e.g. "$.json.token"' +
      RESPONSE_HINT_TAIL,
  );
  assert.equal(e.code, "bad-path");
  assert.equal(e.name, "PathSyntaxError");
});

Deno.test("compilePath rejects a descendant segment first under the response root", () => {
  // $..json could match a "json" key anywhere in the body, which is not what it looks like.
  const e = pathError("$..json", "response");
  assert.equal(e.message, 'Path "$..json" does not start at $.json, $.status or $.headers.');
  assert.equal(e.offset, 1);
});

Deno.test("compilePath rejects wildcards, indexes and unknown bracket names under the response root", () => {
  for (const source of ["$[*]", "$[0]", "$['text']", "$['json','text']", "$.Json"]) {
    const e = pathError(source, "response");
    assert.equal(
      e.message,
      `Path "${source}" does not start at $.json, $.status or $.headers.`,
      source,
    );
    assert.equal(e.offset, 1);
  }
  assert.equal(
    pathError("$[0]", "response").hint,
    'Under "capture", "assert.json" and "loop.until.json" the body is $.json, e.g. "$.json[0]"' +
      RESPONSE_HINT_TAIL,
  );
});

Deno.test("compilePath accepts any first member under the body root", () => {
  assert.equal(compilePath("$.token", "body").root, "body");
  assert.equal(compilePath("$[0]", "body").singular, true);
  assert.equal(compilePath("$..json", "body").singular, false);
});

Deno.test("compilePath reports an unclosed bracket with its offset and the RFC hint", () => {
  const e = pathError("$.a[", "body");
  assert.equal(e.message, 'Invalid JSONPath "$.a[": unclosed bracketed selection.');
  assert.equal(e.offset, 4);
  assert.equal(e.hint, RFC_HINT);
});

Deno.test("compilePath reports a path without $ and suggests the $ form", () => {
  const e = pathError("items", "body");
  assert.equal(e.message, "Invalid JSONPath \"items\": expected '$', found 'i'.");
  assert.equal(e.offset, 0);
  assert.equal(e.hint, 'Paths start at "$", e.g. "$.items".');
});

Deno.test("compilePath drops leading dots from the suggested $ form", () => {
  const e = pathError(".items", "response");
  assert.equal(e.offset, 0);
  assert.equal(e.hint, 'Paths start at "$", e.g. "$.items".');
});

Deno.test("compilePath reports a syntax error before checking the response root", () => {
  const e = pathError("$.json[?@.x <]", "response");
  assert.equal(e.message, 'Invalid JSONPath "$.json[?@.x <]": unexpected end of expression.');
  assert.equal(e.offset, 13);
  assert.equal(e.hint, RFC_HINT);
});

Deno.test("select yields the value of a singular path", () => {
  assert.deepEqual(select(compilePath("$.items[1].name", "body"), doc), {
    found: true,
    value: "b",
  });
  assert.deepEqual(select(compilePath("$.token", "body"), doc), { found: true, value: "t0k" });
});

Deno.test("select distinguishes a null value from a missing one", () => {
  assert.deepEqual(select(compilePath("$.nothing", "body"), doc), { found: true, value: null });
  assert.deepEqual(select(compilePath("$.missing", "body"), doc), { found: false, value: null });
  assert.deepEqual(select(compilePath("$.items[9]", "body"), doc), { found: false, value: null });
});

Deno.test("select yields the list of matches for a wildcard path", () => {
  assert.deepEqual(select(compilePath("$.items[*].id", "body"), doc), {
    found: true,
    value: [1, 2, 3],
  });
  assert.deepEqual(select(compilePath("$..price", "body"), doc), {
    found: true,
    value: [5, 20, 9],
  });
});

Deno.test("select yields a one-element list for a wildcard that matches once", () => {
  assert.deepEqual(select(compilePath("$.items[?@.id == 2].name", "body"), doc), {
    found: true,
    value: ["b"],
  });
});

Deno.test("select yields an empty list when a wildcard path matches nothing", () => {
  assert.deepEqual(select(compilePath("$.items[?@.price > 100].name", "body"), doc), {
    found: false,
    value: [],
  });
  assert.deepEqual(select(compilePath("$.missing[*]", "body"), doc), { found: false, value: [] });
});

Deno.test("select with $ yields the whole document", () => {
  assert.deepEqual(select(compilePath("$", "body"), doc), { found: true, value: doc });
  assert.deepEqual(select(compilePath("$", "body"), 3), { found: true, value: 3 });
});

Deno.test("select reads a hyphenated header under the response root", () => {
  const response = { json: {}, status: 201, headers: { "content-type": "text/plain" } };
  assert.deepEqual(select(compilePath("$.headers.content-type", "response"), response), {
    found: true,
    value: "text/plain",
  });
  assert.deepEqual(select(compilePath("$['headers']['content-type']", "response"), response), {
    found: true,
    value: "text/plain",
  });
  assert.deepEqual(select(compilePath("$.status", "response"), response), {
    found: true,
    value: 201,
  });
});

/** `{"a":{"a":…{"id":7,"n":[1]}…}}`, `depth` levels deep, built as text so no recursion builds it. */
function nested(depth: number): unknown {
  return JSON.parse('{"a":'.repeat(depth) + '{"id":7,"n":[1]}' + "}".repeat(depth));
}

/** `[[[…[1]…]]]`, `depth` levels deep. */
function nestedList(depth: number): unknown {
  return JSON.parse("[".repeat(depth) + "1" + "]".repeat(depth));
}

for (const depth of [50, 1_000, 100_000]) {
  Deno.test(`select evaluates descendant paths on a document ${depth} levels deep`, () => {
    const deep = nested(depth);
    assert.deepEqual(select(compilePath("$..id", "body"), deep), { found: true, value: [7] });
    assert.deepEqual(select(compilePath("$..n[0]", "body"), deep), { found: true, value: [1] });
    assert.deepEqual(select(compilePath("$..[?@.id == 7].n", "body"), deep), {
      found: true,
      value: [[1]],
    });
    const all = select(compilePath("$..*", "body"), deep);
    assert.equal((all.value as unknown[]).length, depth + 3);
    assert.equal(select(compilePath("$[*]", "body"), deep).found, true);
    assert.deepEqual(select(compilePath("$.a[?@.a]", "body"), deep).found, depth > 1);
    const list = select(compilePath("$..[0]", "body"), nestedList(depth));
    assert.equal((list.value as unknown[]).length, depth);
    const json = select(compilePath("$.json..id", "response"), { json: deep, status: 200 });
    assert.deepEqual(json, { found: true, value: [7] });
  });

  Deno.test(`select turns a too-deep filter descent ${depth} levels deep into a problem`, () => {
    const selection = select(compilePath("$[?@..id]", "body"), { x: nested(depth) });
    if (depth < FILTER_DESCENT_LIMIT) {
      assert.deepEqual(selection, { found: true, value: [nested(depth)] });
      return;
    }
    assert.deepEqual(selection, {
      found: false,
      value: [],
      problem: "the response body is nested deeper than 256 levels, " +
        "too deep for a descendant segment (..) inside a filter",
    });
    assert.equal(
      select(compilePath("$.json[?@..id]", "response"), { json: { x: nested(depth) } }).problem,
      "the response is nested deeper than 256 levels, " +
        "too deep for a descendant segment (..) inside a filter",
    );
  });
}

Deno.test("select keeps RFC 9535 document order for descendants", () => {
  const tree = { a: { b: 1, c: { b: 2 } }, d: [{ b: 3 }, { e: { b: 4 } }], b: 5 };
  assert.deepEqual(select(compilePath("$..b", "body"), tree).value, [5, 1, 2, 3, 4]);
  assert.deepEqual(
    select(compilePath("$..*", "body"), { x: [1, { y: 2 }], z: 3 }).value,
    [[1, { y: 2 }], 3, 1, { y: 2 }, 2],
  );
});

Deno.test("select yields every match of a wildcard over a list of 1,000,000 items", () => {
  const big = { items: Array.from({ length: 1_000_000 }, (_, i) => i) };
  const all = select(compilePath("$.items[*]", "body"), big);
  assert.equal((all.value as unknown[]).length, 1_000_000);
  const some = select(compilePath("$.items[?@ >= 999998]", "body"), big);
  assert.deepEqual(some.value, [999998, 999999]);
  assert.equal((select(compilePath("$..*", "body"), big).value as unknown[]).length, 1_000_001);
});

Deno.test("select turns a filter comparison too deep to evaluate into a problem, not a crash", () => {
  // Two equal but distinct 100,000-level values: json-p3 compares them recursively.
  const selection = select(compilePath("$[?@.x == $[1].x]", "body"), [
    { x: nested(100_000) },
    { x: nested(100_000) },
  ]);
  assert.deepEqual(selection, {
    found: false,
    value: [],
    problem: "the response body is nested too deeply to evaluate this path",
  });
});

Deno.test("a plain member chain is evaluated without json-p3, exactly as json-p3 would", async () => {
  const { jsonpath } = await import("json-p3");
  const documents: unknown[] = [
    { a: { b: [10, { c: null }, "x"] }, "k-1": { "": 0 }, __proto__x: 1, list: [] },
    [[1, 2], { a: 1 }, null],
    JSON.parse('{"__proto__": {"a": 5}, "constructor": 7, "true": false, "a b": {"é": 1}}'),
    "text",
    42,
    null,
  ];
  const paths = [
    "$",
    "$.a",
    "$.a.b",
    "$.a.b[0]",
    "$.a.b[1].c",
    "$.a.b[-1]",
    "$.a.b[-3]",
    "$.a.b[-4]",
    "$.a.b[3]",
    "$.a.b.length",
    "$['k-1']['']",
    '$["k-1"][""]',
    "$.list[0]",
    "$[0][1]",
    "$[1].a",
    "$[-1]",
    "$[2].a",
    "$.__proto__",
    "$.__proto__.a",
    "$['__proto__'].a",
    "$.constructor",
    "$.toString",
    "$.true",
    "$['a b']['é']",
    "$.a[0]",
    "$[0].a",
    "$.__proto__x",
    "$[999999999999999]",
  ];
  for (const source of paths) {
    const compiled = compilePath(source, "body");
    assert.ok(compiled.chain && !compiled.query, `${source} should be a plain chain`);
    for (const document of documents) {
      const nodes = jsonpath.query(source, document as never).values();
      const expected = nodes.length === 0
        ? { found: false, value: null }
        : { found: true, value: nodes[0] };
      assert.deepEqual(
        select(compiled, document),
        expected,
        `${source} on ${JSON.stringify(document)}`,
      );
    }
  }
  // Anything else goes to json-p3: blanks, escapes, wildcards, slices, descendants, filters,
  // names outside ASCII letters and digits, indexes with a leading zero or out of range.
  for (
    const source of [
      "$ .a",
      "$[ 0 ]",
      "$['a\\'b']",
      "$.a[*]",
      "$.a[0:1]",
      "$..a",
      "$.a[?@.b]",
      "$.é",
      "$.a['b','c']",
    ]
  ) {
    const compiled = compilePath(source, "body");
    assert.ok(compiled.query && !compiled.chain, `${source} should go to json-p3`);
  }
  for (const source of ["$[01]", "$[-0]", "$.1a", "$[00]", "$[9999999999999999]"]) {
    pathError(source, "body");
  }
});

Deno.test("a plain chain under the response root is checked and lower-cases header names", () => {
  const r = compilePath("$.headers['X-Request-ID']", "response");
  assert.deepEqual(r.chain, ["headers", "x-request-id"]);
  assert.deepEqual(compilePath("$.headers.ETag", "response").chain, ["headers", "etag"]);
  assert.equal(pathError("$.id", "response").code, "bad-path");
  assert.equal(pathError("$[0]", "response").code, "bad-path");
  assert.equal(
    pathError("$['id']", "response").message,
    pathError("$.id", "response").message.replace("$.id", "$['id']"),
  );
});
