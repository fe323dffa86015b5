import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { ReceivedResponse } from "../../lib/http/response.ts";
import {
  secretInputs,
  secretLeaves,
  secretsInJson,
  secretsInRequest,
  secretsInResponse,
} from "../../lib/secrets/discover.ts";
import "../support/engines.ts";
import { assertLinear } from "../support/timing.ts";

function found(fn: (register: (v: string) => void) => void): string[] {
  const out: string[] = [];
  fn((v) => void out.push(v));
  return out;
}

Deno.test("secret leaves: every string and number of any shape, none of the rest", () => {
  const value = { a: ["s-1", 123456, { b: "s-2", c: null, d: true }], e: 1.5 };
  assert.deepEqual(found((r) => secretLeaves(value, r)).sort(), ["1.5", "123456", "s-1", "s-2"]);
});

Deno.test("secret keys at any depth of a JSON body; under one that holds a structure, its credentials and random values, not its words", () => {
  const body = {
    data: [{ auth: { access_token: "at-1", token_type: "Bearer", expires_in: 3600 } }],
    session: { id: "sid-1", user: { name: "ann" } },
    api_keys: ["k-1", "k-2"],
    public_key: "pk-visible",
  };
  // "ann" is a user's name in the session's structure, not a credential (issue 53).
  assert.deepEqual(found((r) => secretsInJson(body, r)).sort(), [
    "at-1",
    "k-1",
    "k-2",
    "sid-1",
  ]);
});

Deno.test("what describes a credential is not one; words that only end like a marker are no markers", () => {
  // DigitalOcean's Spaces key and database options, as its API answers them.
  const body = {
    key: {
      name: "ci-key",
      grants: [{ bucket: "assets", permission: "read" }],
      access_key: "DO00EXAMPLE",
      secret_key: "s3cr3t-value",
      created_at: "2025-01-01T00:00:00Z",
    },
    options: { valkey: { regions: ["nyc3"], versions: ["8"] }, monkeys: ["m-1"] },
    bypass: "on",
  };
  // The key's name ("ci-key", words) describes it; its access and secret keys are credentials.
  assert.deepEqual(found((r) => secretsInJson(body, r)).sort(), [
    "DO00EXAMPLE",
    "s3cr3t-value",
  ]);
});

Deno.test("a hostile, deeply nested body is walked without recursion and without hanging", () => {
  const nested = (depth: number) => {
    let deep: unknown = { token: "deep-secret" };
    for (let i = 0; i < depth; i++) deep = { next: deep };
    return deep;
  };
  const deep = nested(100_000);
  const hits = found((r) => secretsInJson(deep, r));
  // Without hanging: 8 times as deep costs about 8 times as much, timed in this process.
  const bodies = new Map([12_500, 100_000].map((n) => [n, nested(n)]));
  assertLinear("walking", (n) => found((r) => secretsInJson(bodies.get(n), r)), 12_500);
  assert.deepEqual(
    hits,
    [],
    "past the depth limit keys are not searched (values are masked by shape and registration)",
  );
  assert.deepEqual(found((r) => secretsInJson({ a: { b: { token: "t-1" } } }, r)), ["t-1"]);
});

Deno.test("a request's secrets: headers, cookies, URL password, query and body fields", () => {
  const hits = found((r) =>
    secretsInRequest({
      url: "https://ann:url-pw@api.test/x?access_token=q-1&page=2&note=n",
      headers: [
        ["Authorization", "Bearer b-1"],
        ["Cookie", "sid=c-1; theme=dark"],
        ["X-Request-Id", "not-secret"],
        ["content-type", "application/x-www-form-urlencoded"],
      ],
      body: "user=ann&password=f-1",
    }, r)
  );
  for (const v of ["Bearer b-1", "c-1", "dark", "url-pw", "q-1", "f-1"]) {
    assert.ok(hits.includes(v), `${v} in ${hits}`);
  }
  for (const v of ["not-secret", "ann", "2", "n"]) assert.ok(!hits.includes(v), v);
});

Deno.test("a query's key words holding data are no secrets: a view's keys, a range's bounds; an API key is", () => {
  const hits = found((r) =>
    secretsInRequest({
      url: 'http://db.test/albums/_design/d/_view/v?keys=["a","b"]&startkey="a"&endkey=%22z%22' +
        "&key=5&api_key=k-3f9a71c2&key=AIzaSyD-9tSrke72PouQMnMX",
      headers: [],
    }, r)
  );
  assert.deepEqual(hits.sort(), ["AIzaSyD-9tSrke72PouQMnMX", "k-3f9a71c2"]);
});

Deno.test("a response's secrets: set-cookie lines and values, secret headers, body keys", () => {
  const response = new ReceivedResponse(
    200,
    {
      "set-cookie": "sid=s-1; Path=/; HttpOnly, csrf=x-1; Path=/",
      "x-csrf-token": "h-1",
      "content-type": "application/json",
    },
    '{"refresh_token": "r-1", "user": {"id": 7}}',
  );
  const hits = found((r) => secretsInResponse(response, r));
  for (const v of ["s-1", "x-1", "h-1", "r-1"]) assert.ok(hits.includes(v), `${v} in ${hits}`);
  assert.ok(!hits.includes("7"));
  const form = new ReceivedResponse(
    200,
    { "content-type": "application/x-www-form-urlencoded" },
    "access_token=gh-1&token_type=bearer",
  );
  assert.deepEqual(found((r) => secretsInResponse(form, r)), ["gh-1"]);
});

Deno.test("a body is skipped only when no key in it can be secret, also spelt with escapes", () => {
  const body = (text: string, type = "application/json") =>
    found((r) => secretsInResponse(new ReceivedResponse(200, { "content-type": type }, text), r));
  assert.deepEqual(body('{"id": 7, "state": "ready", "rows": [1, 2]}'), []);
  // Keys spelt with JSON or percent escapes decode to secret names: those bodies are read.
  assert.deepEqual(body('{"\\u0074oken": "e-1"}'), ["e-1"]);
  assert.deepEqual(body('{"data": {"api\\u004bey": "e-2"}}'), ["e-2"]);
  assert.deepEqual(body("%74oken=e-3&x=1", "application/x-www-form-urlencoded"), ["e-3"]);
  assert.deepEqual(body('{"ApiKeys": ["e-4"], "sessionId": "e-5"}'), ["e-4", "e-5"]);
  const request = found((r) =>
    secretsInRequest({
      url: "http://x.test/a",
      headers: [["content-type", "application/json"]],
      body: '{"cl\\u0069ent_secret": "e-6"}',
    }, r)
  );
  assert.deepEqual(request, ["e-6"]);
});

Deno.test("what a flow sends in secret places is traced to its vars, env, captures and literals", () => {
  const { flow, problems } = loadFlow(
    `name: f
vars: { k: abc, plain: visible, user_pw: "\${ENV.PW}" }
steps:
  - name: a
    request:
      url: "http://x.test/?q=\${vars.k}&api_key=lit-1&note=\${vars.plain}"
    capture: { v: $.json.v, other: $.json.o }
  - name: b
    request:
      method: POST
      url: "http://\${ENV.USER}:\${ENV.URL_PW}@x.test/?access_token=\${steps.a.capture.other}"
      headers:
        x-api-key: "\${vars.k}"
        authorization: "Bearer \${steps.a.capture.v}"
        x-literal-key: lit-2
        x-literal-token: lit-4
      body: { name: "\${vars.plain}", nested: { password: "\${vars.user_pw}", secret: lit-3 } }
`,
    "f.yaml",
    { env: (name) => name },
  );
  assert.deepEqual(problems, []);
  const inputs = secretInputs(flow!);
  assert.deepEqual([...inputs.vars].sort(), ["k", "user_pw"]);
  assert.deepEqual([...inputs.env].sort(), ["URL_PW", "USER"]);
  assert.deepEqual([...inputs.captures].sort(), ["a\0other", "a\0v"]);
  // Text written under a header whose name merely looks secret is the flow's own (issue 52).
  assert.deepEqual([...inputs.literals].sort(), ["lit-1", "lit-3", "lit-4"]);
  assert.deepEqual([...inputs.written!], ["x-literal-key\0lit-2"]);
});

Deno.test("a password in a URL a response writes is found in linear time, whatever the text", () => {
  const answer = (text: string) => {
    const out: string[] = [];
    secretsInResponse(new ReceivedResponse(200, { location: text }, text), (v) => void out.push(v));
    return out;
  };
  assert.ok(answer("see postgres://app:Db7!pw_x9@db.test/app").includes("Db7!pw_x9"));
  assert.deepEqual(answer("https://docs.test/a@b and mailto:ann@x.test"), []);
  // Long runs of scheme letters, of `://` and of URLs with an `@` each stay linear.
  const texts = (n: number) => [
    "a".repeat(n) + ":/@",
    "a://".repeat(n / 4) + "@",
    "http://u:p4ssw0rd@h/ ".repeat(n / 20),
  ];
  const kept = new Map([20_000, 160_000].map((n) => [n, texts(n)]));
  assertLinear("reading URLs", (n) => kept.get(n)!.map(answer), 20_000);
});
