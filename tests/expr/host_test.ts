/**
 * `${host:…}`: the host and port of a URL a flow already holds, as a page
 * writes its own address without a scheme (a form's `domain=127.0.0.1:3701`).
 * Like `${origin:…}`, the port is left out when it is the scheme's own.
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

Deno.test("host: the host and port of a URL, without its scheme, path or user", () => {
  const s = scope({ BASE_URL: "http://127.0.0.1:8080/api?x=1" }, {
    base: "https://user:pw@Example.COM:443/app/",
  });
  assert.equal(evaluate(parseTemplate("${host:ENV.BASE_URL}"), s), "127.0.0.1:8080");
  assert.equal(evaluate(parseTemplate("${host:vars.base}"), s), "example.com");
  assert.equal(evaluate(parseTemplate("d=${ host: vars.base }"), s), "d=example.com");
});

Deno.test("host: a fallback is a URL, a value that is none an error; host:- is a name's fallback", () => {
  assert.equal(
    evaluate(parseTemplate("${host:ENV.BASE_URL:-http://h.test:81/x}"), scope({})),
    "h.test:81",
  );
  assert.throws(() => parseTemplate("${host:ENV.BASE_URL:-h.test}"), ExpressionSyntaxError);
  assert.throws(() => parseTemplate("${host:RANDOM.UUID}"), ExpressionSyntaxError);
  assert.throws(
    () => evaluate(parseTemplate("${host:ENV.BASE_URL}"), scope({ BASE_URL: "h.test:81" })),
    (e) => e instanceof ExpressionError && /not an absolute http or https URL/.test(e.message),
  );
  assert.equal(evaluate(parseTemplate("${host:-here}"), scope({})), "here");
});
