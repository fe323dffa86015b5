/**
 * `auth:` through the CLI against a server that records what it is sent:
 * each kind sends exactly the bytes its RFC gives, the nearest block wins
 * (step > flow > run), `auth: none` sends nothing, a step's own
 * `authorization` header wins, an included flow inherits, and no credential
 * is shown in any report.
 */
import assert from "node:assert/strict";
import { withAuthRecorder } from "../support/auth_recorder.ts";
import { runCli } from "../support/cli.ts";
import { withFiles } from "../support/with_files.ts";

async function run(
  files: Record<string, string>,
  args: string[] = [],
  env: Record<string, string> = {},
) {
  return await withFiles(files, async (dir) => {
    const cli = await runCli(
      [
        "run",
        `${dir}/f.yaml`,
        "--report-json",
        `${dir}/r.json`,
        ...args.map((a) => a.replace("DIR", dir)),
      ],
      { env },
    );
    const report = cli.code === 2 ? undefined : await Deno.readTextFile(`${dir}/r.json`);
    return { ...cli, report };
  });
}

Deno.test("basic sends RFC 7617's bytes, UTF-8 included, and never shows them", () =>
  withAuthRecorder(async (api) => {
    const flow = `name: f
auth:
  basic: {username: "\${ENV.USER_ID}", password: "\${ENV.USER_PASSWORD}"}
steps:
  - name: a
    request: {url: "${api.url}/a"}
    assert: {status: 201}
`;
    const env = { USER_ID: "Aladdin", USER_PASSWORD: "open sesame" };
    const r = await run({ "f.yaml": flow }, ["-vv"], env);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(api.seen[0].authorization, "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
    for (const text of [r.stdout, r.stderr, r.report!]) {
      assert.ok(!text.includes("QWxhZGRpbjpvcGVuIHNlc2FtZQ=="), text);
      assert.ok(!text.includes("open sesame"), text);
    }
    const utf8 = await run({ "f.yaml": flow.replace("status: 201", "status: 200") }, [], {
      USER_ID: "test",
      USER_PASSWORD: "123\u00a3",
    });
    assert.equal(utf8.code, 0, utf8.stdout);
    // RFC 7617 §2.1: "test:123£" in UTF-8.
    assert.equal(api.seen[1].authorization, "Basic dGVzdDoxMjPCow==");
  }));

Deno.test("bearer and api_key in a header, the query or a cookie; step > flow > run; none", () =>
  withAuthRecorder(async (api) => {
    const flow = `name: f
vars:
  where: q
auth:
  bearer: {token: "\${ENV.API_TOKEN}"}
steps:
  - name: flow_level
    request: {url: "${api.url}/flow"}
  - name: header_key
    auth: {api_key: {name: x-api-key, value: "\${ENV.API_KEY}"}}
    request: {url: "${api.url}/header"}
  - name: query_key
    auth: {api_key: {name: api key, value: "\${ENV.API_KEY}", in: query}}
    request: {url: "${api.url}/query?a=1"}
  - name: cookie_key
    auth: {api_key: {name: k, value: "\${ENV.API_KEY}", in: cookie}}
    request: {url: "${api.url}/cookie", cookies: {c: "1"}}
  - name: none
    auth: none
    request: {url: "${api.url}/none"}
  - name: own_header
    request: {url: "${api.url}/own", headers: {Authorization: "Bearer \${ENV.MINE}"}}
`;
    const env = { API_TOKEN: "tok-123", API_KEY: "k&1 2", MINE: "mine" };
    const r = await run({ "f.yaml": flow }, [], env);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const by = Object.fromEntries(api.seen.map((s) => [s.path, s]));
    assert.equal(by["/flow"].authorization, "Bearer tok-123");
    assert.equal(by["/header"].key, "k&1 2");
    assert.equal(by["/header"].authorization, null);
    assert.equal(by["/query"].query, "?a=1&api%20key=k%261%202");
    assert.equal(by["/cookie"].cookie, "c=1; k=k&1 2");
    assert.equal(by["/none"].authorization, null);
    assert.equal(by["/own"].authorization, "Bearer mine");
    assert.ok(!r.report!.includes("tok-123") && !r.report!.includes("k%261"), r.report);
  }));

Deno.test("an included flow inherits the including step's auth unless it has its own", () =>
  withAuthRecorder(async (api) => {
    const files = {
      "f.yaml": `name: f
auth:
  bearer: {token: "\${ENV.API_TOKEN}"}
steps:
  - name: inherits
    include: inner.yaml
  - name: opted_out
    auth: none
    include: inner.yaml
  - name: own
    include: own.yaml
`,
      "inner.yaml": `name: inner
steps:
  - name: get
    request: {url: "${api.url}/inner"}
`,
      "own.yaml": `name: own
auth:
  api_key: {name: x-api-key, value: "\${ENV.API_TOKEN}"}
steps:
  - name: get
    request: {url: "${api.url}/own"}
`,
    };
    const r = await run(files, [], { API_TOKEN: "tok-9" });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(
      api.seen.map((s) => [s.path, s.authorization, s.key]),
      [["/inner", "Bearer tok-9", null], ["/inner", null, null], ["/own", null, "tok-9"]],
    );
  }));

Deno.test("--auth-file is the run's auth, and a failed step's reproduce line carries it", () =>
  withAuthRecorder(async (api) => {
    const files = {
      "f.yaml": `name: f
steps:
  - name: a
    request: {url: "${api.url}/run-level"}
    assert: {status: 201}
`,
      "auth.yaml": 'auth:\n  bearer: {token: "${ENV.API_TOKEN}"}\n',
    };
    const r = await run(files, ["--auth-file", "DIR/auth.yaml"], { API_TOKEN: "tok-run" });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(api.seen[0].authorization, "Bearer tok-run");
    const line = /^ {4}reproduce: (.*)$/m.exec(r.stdout)?.[1] ?? "";
    assert.match(line, / --auth-file \S*auth\.yaml/, r.stdout);
    assert.ok(!r.stdout.includes("tok-run"), r.stdout);
  }));

Deno.test("the run's auth may read a setup output: setup flows are not given it", () =>
  withAuthRecorder(async (api) => {
    const files = {
      "f.yaml": `name: f
steps:
  - name: a
    request: {url: "${api.url}/items"}
`,
      "setup.yaml": `name: login
steps:
  - name: login
    request: {url: "${api.url}/login"}
    capture: {token: $.json.ok}
outputs:
  token: "tok-\${steps.login.capture.token}"
`,
      "auth.yaml": 'auth:\n  bearer: {token: "${setup.token}"}\n',
    };
    const r = await run(files, ["--auth-file", "DIR/auth.yaml", "--setup", "DIR/setup.yaml"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(api.seen.map((s) => [s.path, s.authorization]), [
      ["/login", null],
      ["/items", "Bearer tok-true"],
    ]);
  }));

Deno.test("a bearer token or API key that renders empty fails its step, nothing sent", () =>
  withAuthRecorder(async (api) => {
    const flow = `name: f
steps:
  - name: empty_token
    auth: {bearer: {token: "\${ENV.EMPTY_TOKEN:-}"}}
    request: {url: "${api.url}/a"}
    always: true
  - name: empty_key
    auth: {api_key: {name: k, value: "\${ENV.EMPTY_TOKEN:-}"}}
    request: {url: "${api.url}/b"}
    always: true
`;
    const r = await run({ "f.yaml": flow });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(api.seen.length, 0);
    const steps = JSON.parse(r.report!).flows[0].steps;
    assert.match(steps[0].message, /^The bearer token "\$\{ENV\.EMPTY_TOKEN:-\}" is empty/);
    assert.match(steps[1].message, /^The API key "\$\{ENV\.EMPTY_TOKEN:-\}" is empty/);
  }));
