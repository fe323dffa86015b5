import assert from "node:assert/strict";
import "../support/engines.ts";
import { compilePath } from "../../lib/expr/path.ts";
import { ReceivedResponse } from "../../lib/http/response.ts";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

/** Counts JSON.parse calls made by `run`, restoring JSON.parse afterwards. */
function countParses(run: () => void): number {
  const original = JSON.parse;
  let calls = 0;
  JSON.parse = ((...args: Parameters<typeof JSON.parse>) => {
    calls++;
    return original(...args);
  }) as typeof JSON.parse;
  try {
    run();
  } finally {
    JSON.parse = original;
  }
  return calls;
}

Deno.test("ReceivedResponse keeps status, headers and text as given", () => {
  const r = new ReceivedResponse(404, { "x-id": "7" }, "gone");
  assert.equal(r.status, 404);
  assert.deepEqual(r.headers, { "x-id": "7" });
  assert.equal(r.text, "gone");
});

Deno.test("ReceivedResponse does not parse the body until it is needed", () => {
  const calls = countParses(() => {
    new ReceivedResponse(200, JSON_HEADERS, '{"a":1}');
  });
  assert.equal(calls, 0);
});

Deno.test("ReceivedResponse parses the body once however often it is read", () => {
  const calls = countParses(() => {
    const r = new ReceivedResponse(200, JSON_HEADERS, '{"a":1,"b":[2]}');
    assert.deepEqual(r.json, { ok: true, value: { a: 1, b: [2] } });
    assert.equal(r.select(compilePath("$.a", "body")).value, 1);
    assert.equal(r.select(compilePath("$.json.b[0]", "response")).value, 2);
    assert.equal(r.excerpt(), '{"a":1,"b":[2]}');
    assert.equal(r.json, r.json);
  });
  assert.equal(calls, 1);
});

Deno.test("ReceivedResponse tries a non-JSON body only once", () => {
  const calls = countParses(() => {
    const r = new ReceivedResponse(200, {}, "<html>");
    assert.deepEqual(r.json, { ok: false });
    assert.deepEqual(r.json, { ok: false });
    r.select(compilePath("$.json.a", "response"));
  });
  assert.equal(calls, 1);
});

Deno.test(
  {
    name: "ReceivedResponse does not parse the body for a $.status path",
  },
  () => {
    const calls = countParses(() => {
      const r = new ReceivedResponse(200, JSON_HEADERS, '{"a":1}');
      assert.equal(r.select(compilePath("$.status", "response")).value, 200);
      assert.equal(
        r.select(compilePath("$.headers.content-type", "response")).value,
        JSON_HEADERS["content-type"],
      );
    });
    assert.equal(calls, 0);
  },
);

Deno.test("ReceivedResponse.json is not ok for an empty or blank body", () => {
  assert.deepEqual(new ReceivedResponse(204, {}, "").json, { ok: false });
  assert.deepEqual(new ReceivedResponse(200, {}, "  \n\t").json, { ok: false });
});

Deno.test("ReceivedResponse.json accepts JSON scalars, including null and false", () => {
  assert.deepEqual(new ReceivedResponse(200, {}, "null").json, { ok: true, value: null });
  assert.deepEqual(new ReceivedResponse(200, {}, "false").json, { ok: true, value: false });
  assert.deepEqual(new ReceivedResponse(200, {}, ' "s" ').json, { ok: true, value: "s" });
  assert.deepEqual(new ReceivedResponse(200, {}, "12").json, { ok: true, value: 12 });
});

Deno.test("select under the body root reads the parsed body", () => {
  const r = new ReceivedResponse(200, JSON_HEADERS, '{"items":[{"id":1},{"id":2}]}');
  assert.deepEqual(r.select(compilePath("$.items[1].id", "body")), { found: true, value: 2 });
  assert.deepEqual(r.select(compilePath("$.items[*].id", "body")), {
    found: true,
    value: [1, 2],
  });
  assert.deepEqual(r.select(compilePath("$.nope", "body")), { found: false, value: null });
  assert.deepEqual(r.select(compilePath("$.nope[*]", "body")), { found: false, value: [] });
});

Deno.test("select under the response root reads json, status and headers", () => {
  const r = new ReceivedResponse(201, JSON_HEADERS, '{"id":7}');
  assert.deepEqual(r.select(compilePath("$.json.id", "response")), { found: true, value: 7 });
  assert.deepEqual(r.select(compilePath("$['json'].id", "response")), { found: true, value: 7 });
  assert.deepEqual(r.select(compilePath("$.status", "response")), { found: true, value: 201 });
  assert.deepEqual(r.select(compilePath("$.headers.content-type", "response")), {
    found: true,
    value: "application/json; charset=utf-8",
  });
  assert.deepEqual(r.select(compilePath("$.headers.x-missing", "response")), {
    found: false,
    value: null,
  });
});

Deno.test("select with $ alone under the response root yields the response document", () => {
  const r = new ReceivedResponse(200, { "x-a": "1" }, "[1]");
  assert.deepEqual(r.select(compilePath("$", "response")), {
    found: true,
    value: { json: [1], status: 200, headers: { "x-a": "1" }, cookies: {}, body: "[1]" },
  });
});

Deno.test("select under the response root without a JSON body has no json member", () => {
  const r = new ReceivedResponse(500, { "content-type": "text/html" }, "<h1>oops</h1>");
  assert.deepEqual(r.select(compilePath("$", "response")), {
    found: true,
    value: {
      status: 500,
      headers: { "content-type": "text/html" },
      cookies: {},
      body: "<h1>oops</h1>",
    },
  });
  assert.deepEqual(r.select(compilePath("$.json", "response")), {
    found: false,
    value: null,
    bodyNotJson: true,
  });
});

Deno.test("select marks body paths on a non-JSON body under both roots", () => {
  const r = new ReceivedResponse(200, {}, "not json");
  assert.deepEqual(r.select(compilePath("$.json.a", "response")), {
    found: false,
    value: null,
    bodyNotJson: true,
  });
  assert.deepEqual(r.select(compilePath("$['json'].a", "response")), {
    found: false,
    value: null,
    bodyNotJson: true,
  });
  assert.deepEqual(r.select(compilePath("$.json[*]", "response")), {
    found: false,
    value: [],
    bodyNotJson: true,
  });
  assert.deepEqual(r.select(compilePath("$.a", "body")), {
    found: false,
    value: null,
    bodyNotJson: true,
  });
  assert.deepEqual(r.select(compilePath("$.a[*]", "body")), {
    found: false,
    value: [],
    bodyNotJson: true,
  });
});

Deno.test("select does not blame the body for missing status or header paths", () => {
  const r = new ReceivedResponse(200, {}, "not json");
  assert.deepEqual(r.select(compilePath("$.status", "response")), { found: true, value: 200 });
  const header = r.select(compilePath("$.headers.etag", "response"));
  assert.deepEqual(header, { found: false, value: null });
  assert.equal("bodyNotJson" in header, false);
});

Deno.test("select does not set bodyNotJson when a JSON body lacks the member", () => {
  const r = new ReceivedResponse(200, {}, '{"a":1}');
  const selection = r.select(compilePath("$.json.b", "response"));
  assert.deepEqual(selection, { found: false, value: null });
  assert.equal("bodyNotJson" in selection, false);
});

Deno.test("contentType drops parameters and surrounding spaces", () => {
  assert.equal(new ReceivedResponse(200, JSON_HEADERS, "").contentType, "application/json");
  assert.equal(
    new ReceivedResponse(200, { "content-type": " text/plain ;charset=x" }, "").contentType,
    "text/plain",
  );
  assert.equal(
    new ReceivedResponse(200, { "content-type": "text/csv" }, "").contentType,
    "text/csv",
  );
});

Deno.test("contentType is undefined when the response names none", () => {
  assert.equal(new ReceivedResponse(200, {}, "").contentType, undefined);
  assert.equal(new ReceivedResponse(200, { "content-type": "" }, "").contentType, undefined);
  assert.equal(
    new ReceivedResponse(200, { "content-type": " ; charset=utf-8" }, "").contentType,
    undefined,
  );
});

Deno.test("excerpt keeps a short body as it is", () => {
  assert.equal(new ReceivedResponse(200, {}, "hello").excerpt(), "hello");
  assert.equal(new ReceivedResponse(200, {}, "").excerpt(), "");
});

Deno.test("excerpt writes a JSON body on one line", () => {
  const r = new ReceivedResponse(200, {}, '{\n  "a": 1,\n  "b": [1, 2]\n}\n');
  assert.equal(r.excerpt(), '{"a":1,"b":[1,2]}');
});

Deno.test("excerpt truncates past max and says how much was left out", () => {
  const r = new ReceivedResponse(200, {}, "x".repeat(500));
  assert.equal(r.excerpt(10), `${"x".repeat(10)}… (490 more characters)`);
  assert.equal(r.excerpt(), `${"x".repeat(300)}… (200 more characters)`);
});

Deno.test("excerpt does not truncate a body of exactly max characters", () => {
  assert.equal(new ReceivedResponse(200, {}, "abcde").excerpt(5), "abcde");
  assert.equal(new ReceivedResponse(200, {}, "abcdef").excerpt(5), "abcde… (1 more characters)");
});

Deno.test("excerpt counts the compacted JSON, not the raw text", () => {
  const r = new ReceivedResponse(200, {}, '{ "k" : "vvvvvvvvvv" }');
  // Compacted: {"k":"vvvvvvvvvv"} is 18 characters.
  assert.equal(r.excerpt(18), '{"k":"vvvvvvvvvv"}');
  assert.equal(r.excerpt(10), '{"k":"vvvv… (8 more characters)');
});

Deno.test("select on a body nested 100,000 levels deep finds values and never throws", () => {
  const depth = 100_000;
  const r = new ReceivedResponse(200, {}, '{"a":'.repeat(depth) + '{"id":7}' + "}".repeat(depth));
  assert.deepEqual(r.select(compilePath("$.json..id", "response")), { found: true, value: [7] });
  assert.deepEqual(r.select(compilePath("$..id", "body")), { found: true, value: [7] });
  const filtered = r.select(compilePath("$.json[?@..id]", "response"));
  assert.equal(filtered.found, false);
  assert.match(filtered.problem ?? "", /^the response is nested deeper than 256 levels/);
});
