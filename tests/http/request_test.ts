import assert from "node:assert/strict";
import { addCookies, MAX_REQUEST_HEAD, resolveRequest } from "../../lib/http/request.ts";
import { RequestError } from "../../lib/http/request_error.ts";
import { compileValue, parseTemplate } from "../../lib/expr/template.ts";
import type { RequestSpec } from "../../lib/model/flow.ts";

const scope = {
  env: () => undefined,
  vars: new Map<string, unknown>([["id", 7]]),
  steps: new Map(),
  runId: "r",
};

function spec(extra: Partial<RequestSpec> = {}): RequestSpec {
  return { method: "POST", url: parseTemplate("http://api.test/items"), headers: [], ...extra };
}

Deno.test("a form body is form-encoded, a list repeating its field, with its content type", () => {
  const request = resolveRequest(
    spec({ form: [["a", compileValue("x y")], ["b", compileValue([1, 2])]] }),
    scope,
  );
  assert.equal(request.body, "a=x+y&b=1&b=2");
  assert.deepEqual(request.headers, [["content-type", "application/x-www-form-urlencoded"]]);
});

Deno.test("a content type the flow sets is kept, whatever its case", () => {
  const request = resolveRequest(
    spec({ headers: [["Content-Type", parseTemplate("text/x")]], body: compileValue({ id: 1 }) }),
    scope,
  );
  assert.equal(request.body, '{"id":1}');
  assert.deepEqual(request.headers, [["Content-Type", "text/x"]]);
});

Deno.test("explicit cookies go into one cookie header after the flow's own", () => {
  const request = resolveRequest(
    spec({
      headers: [["Cookie", parseTemplate("a=1")]],
      cookies: [["id", parseTemplate("${vars.id}")]],
    }),
    scope,
  );
  assert.deepEqual(request.headers, [["Cookie", "a=1; id=7"]]);
  const headers: [string, string][] = [];
  addCookies(headers, "b=2");
  assert.deepEqual(headers, [["cookie", "b=2"]]);
});

Deno.test("omit_empty_headers leaves out a header reading an unset capture; without it, the step fails", () => {
  const steps = new Map([["login", new Map<string, unknown>([["sid", "s-1"]])]]);
  const headers: RequestSpec["headers"] = [
    ["Authorization", parseTemplate("Bearer ${steps.login.capture.token}")],
    ["X-Short", parseTemplate("${steps.login.token}")],
    ["X-Sid", parseTemplate("sid=${steps.login.capture.sid}")],
    ["X-Gone", parseTemplate("${steps.skipped.capture.id}")],
  ];
  const request = resolveRequest(spec({ headers }), { ...scope, steps }, true);
  assert.deepEqual(request.headers, [["X-Sid", "sid=s-1"]]);
  const token = new Map([["login", new Map<string, unknown>([["token", "t-1"], ["sid", "s"]])]]);
  const sent = resolveRequest(
    spec({ headers: headers.slice(0, 2) }),
    { ...scope, steps: token },
    true,
  );
  assert.deepEqual(sent.headers, [["Authorization", "Bearer t-1"], ["X-Short", "t-1"]]);
  assert.throws(() => resolveRequest(spec({ headers }), { ...scope, steps }), /no captured value/);
});

Deno.test("a URL or header block past 64 KiB is a bad-url error, not a request", () => {
  const big = { ...scope, vars: new Map<string, unknown>([["v", "x".repeat(MAX_REQUEST_HEAD)]]) };
  for (
    const s of [
      spec({ url: parseTemplate("http://api.test/${raw:vars.v}") }),
      spec({ headers: [["x-big", parseTemplate("${vars.v}")]] }),
    ]
  ) {
    assert.throws(
      () => resolveRequest(s, big),
      (error) => error instanceof RequestError && error.code === "bad-url",
    );
  }
});

Deno.test("a URL without a scheme says which start to write; another bad URL is named alone", () => {
  const cases: [string, string][] = [
    [
      "localhost:3000",
      '"localhost:3000/items" is not an absolute http or https URL: it has no scheme; give the value it starts with one, e.g. "http://localhost:3000".',
    ],
    [
      "api.test",
      '"api.test/items" is not an absolute http or https URL: it has no scheme; give the value it starts with one, e.g. "http://api.test".',
    ],
    ["", '"/items" is not an absolute http or https URL.'],
    ["ftp://files.test", '"ftp://files.test/items" is not an absolute http or https URL.'],
  ];
  for (const [base, message] of cases) {
    const s = spec({ url: parseTemplate("${vars.base}/items") });
    const withBase = { ...scope, vars: new Map<string, unknown>([["base", base]]) };
    assert.throws(
      () => resolveRequest(s, withBase),
      (error) =>
        error instanceof RequestError && error.code === "bad-url" && error.message === message,
      base,
    );
  }
});
