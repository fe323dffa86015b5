/**
 * `${origin:…}`: the origin (scheme, host, port) of a URL a flow already
 * holds, which is what a browser sends as `Origin` on an unsafe request to
 * the page's own server. A base URL may carry a path (`http://h:1/api`);
 * its origin never does.
 */
import assert from "node:assert/strict";
import { evaluate, parseTemplate } from "../../lib/expr/template.ts";
import { ExpressionError, ExpressionSyntaxError } from "../../lib/expr/errors.ts";

const scope = (env: Record<string, string>, vars: Record<string, unknown> = {}) => ({
  env: (name: string) => env[name],
  vars: new Map(Object.entries(vars)),
  steps: new Map(),
  runId: "r",
});

Deno.test("origin: the scheme, host and port of a URL, without its path, query or user", () => {
  const s = scope({ BASE_URL: "http://127.0.0.1:8080/api/v1?x=1" }, {
    base: "https://user:pw@Example.COM:443/app/",
  });
  assert.equal(evaluate(parseTemplate("${origin:ENV.BASE_URL}"), s), "http://127.0.0.1:8080");
  assert.equal(evaluate(parseTemplate("${origin:BASE_URL}"), s), "http://127.0.0.1:8080");
  // The default port is left out and the host lower-cased, as a browser writes Origin.
  assert.equal(evaluate(parseTemplate("${origin:vars.base}"), s), "https://example.com");
  assert.equal(evaluate(parseTemplate("o=${ origin: vars.base }"), s), "o=https://example.com");
});

Deno.test("origin: a fallback is a URL too, and gives its origin", () => {
  const t = parseTemplate("${origin:ENV.BASE_URL:-http://localhost:8080/api}");
  assert.equal(t.parts[0] && typeof t.parts[0] === "object" && t.parts[0].origin, true);
  assert.equal(evaluate(t, scope({})), "http://localhost:8080");
  assert.throws(
    () => parseTemplate("${origin:ENV.BASE_URL:-localhost}"),
    (e) => e instanceof ExpressionSyntaxError && /http or https URL/.test(e.message),
  );
});

Deno.test("origin: a value that is no http(s) URL is an error of the step, never sent", () => {
  for (const value of ["localhost:8080", "/api", "ftp://h/x", ""]) {
    assert.throws(
      () => evaluate(parseTemplate("${origin:ENV.BASE_URL}"), scope({ BASE_URL: value })),
      (e) => e instanceof ExpressionError && /not an absolute http or https URL/.test(e.message),
      value,
    );
  }
});

Deno.test("origin: only a value that can hold a URL takes it; raw: and origin: do not mix", () => {
  for (const text of ["${origin:RANDOM.UUID}", "${origin:NOW.ISO}", "${origin:RUN_ID}"]) {
    assert.throws(
      () => parseTemplate(text),
      (e) => e instanceof ExpressionSyntaxError && /origin:/.test(e.message),
      text,
    );
  }
  assert.throws(() => parseTemplate("${raw:origin:vars.base}"), ExpressionSyntaxError);
  assert.throws(() => parseTemplate("${origin:raw:vars.base}"), ExpressionSyntaxError);
});
