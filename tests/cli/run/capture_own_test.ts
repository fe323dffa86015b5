/**
 * A capture whose `otherwise` reads a capture of its own step written above
 * it: one value from two parts of one answer, as a login script keeps the
 * body's token when it has one and else cuts it from the `Set-Cookie`
 * header with a regular expression. The server answers a login with the token
 * in its body, with only a cookie, or with neither; the step after it sends
 * the token when there is one, and is skipped (not failed) otherwise. A
 * foreach step reads each iteration's own captures, not the list of all.
 */
import assert from "node:assert/strict";
import { runFlowServed, stepStatuses } from "../../support/cli.ts";

const FLOW = (mode: string) =>
  `name: token from body or cookie
steps:
  - name: login
    request: {method: POST, url: "\${ENV.BASE_URL}/login?mode=${mode}"}
    capture:
      body_token: {path: $.json.token, optional: true}
      token:
        header: set-cookie
        regex: 'auth_token=([^;]+)'
        optional: true
        when: {path: $.json.token, exists: false}
        otherwise: \${steps.login.capture.body_token}
  - name: me
    if: {value: "\${steps.login.capture.token}", exists: true}
    request: {url: "\${ENV.BASE_URL}/me", headers: {authorization: "Bearer \${steps.login.capture.token}"}}
    assert: {status: 200}
`;

/** Logs in by `mode` (body, cookie or none); `/me` answers 200 to `Bearer t-<mode>`. */
function server() {
  const seen: string[] = [];
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login") {
      const mode = url.searchParams.get("mode") ?? "none";
      seen.push(`login ${mode}`);
      const headers = mode === "cookie"
        ? { "set-cookie": "auth_token=t-cookie; HttpOnly; Path=/" }
        : undefined;
      return Response.json(mode === "body" ? { token: "t-body" } : { ok: true }, { headers });
    }
    const auth = req.headers.get("authorization") ?? "";
    seen.push(`me ${auth}`);
    return new Response(null, { status: /^Bearer t-(body|cookie)$/.test(auth) ? 200 : 401 });
  });
  return { seen, base: `http://127.0.0.1:${(s.addr as Deno.NetAddr).port}`, s };
}

const run = (flow: string) => runFlowServed(server(), flow);

Deno.test("the body's token when the answer has one", async () => {
  const got = await run(FLOW("body"));
  assert.equal(got.code, 0, got.stdout + got.stderr);
  assert.deepEqual(stepStatuses(got.report), ["login passed", "me passed"]);
  assert.deepEqual(got.seen, ["login body", "me Bearer t-body"]);
});

Deno.test("else the cookie's, cut from Set-Cookie by the regular expression", async () => {
  const got = await run(FLOW("cookie"));
  assert.equal(got.code, 0, got.stdout + got.stderr);
  assert.deepEqual(got.seen, ["login cookie", "me Bearer t-cookie"]);
});

Deno.test("neither: unset without failing the login, the step that reads it skipped", async () => {
  const got = await run(FLOW("none"));
  assert.equal(got.code, 0, got.stdout + got.stderr);
  assert.deepEqual(stepStatuses(got.report), ["login passed", "me skipped"]);
  assert.deepEqual(got.seen, ["login none"]);
});

Deno.test("a foreach step's capture reads its own iteration's capture above it", async () => {
  const flow = FLOW("x")
    .replace("  - name: login\n", "  - name: login\n    foreach: [body, cookie]\n    as: mode\n")
    .replace("mode=x", "mode=${mode}")
    .replace(/\n {4}if: .*\n/, "\n")
    .replace("assert: {status: 200}", "assert: {status: 401}");
  const got = await run(flow);
  assert.equal(got.code, 0, got.stdout + got.stderr);
  assert.deepEqual(got.seen, ["login body", "login cookie", 'me Bearer ["t-body","t-cookie"]']);
});

Deno.test("spelling B: extract's paths at the body, the own capture read as ${steps.login.k}", async () => {
  const flow = FLOW("cookie")
    .replace("    capture:\n", "    extract:\n")
    .replace("{path: $.json.token, optional: true}", "{path: $.token, optional: true}")
    .replace("when: {path: $.json.token, exists: false}", "when: {path: $.token, exists: false}")
    .replace("otherwise: ${steps.login.capture.body_token}", "otherwise: ${steps.login.body_token}")
    .replaceAll("${steps.login.capture.token}", "${steps.login.token}");
  for (const mode of ["body", "cookie"]) {
    const got = await run(flow.replace("mode=cookie", `mode=${mode}`));
    assert.equal(got.code, 0, got.stdout + got.stderr);
    assert.deepEqual(got.seen, [`login ${mode}`, `me Bearer t-${mode}`]);
  }
});

Deno.test("validate names a same-step read of a capture written below, itself, or a typo", async () => {
  const below =
    FLOW("body").replace("      body_token: {path: $.json.token, optional: true}\n", "") +
    "    extract: {body_token: {path: $.token, optional: true}}\n";
  const cases: [string, RegExp][] = [
    [below.replace(/\n {2}- name: me[\s\S]*?assert: \{status: 200\}\n/, "\n"), /written below it/],
    [FLOW("body").replace("capture.body_token}\n", "capture.token}\n"), /reads itself/],
    [
      FLOW("body").replace("capture.body_token}\n", "capture.body_tokn}\n"),
      /Did you mean "body_token"/,
    ],
  ];
  for (const [flow, message] of cases) {
    const got = await run(flow);
    assert.equal(got.code, 2, got.stdout + got.stderr);
    assert.match(got.stdout + got.stderr, message);
    assert.match(got.stdout + got.stderr, /f\.yaml:1[0-4]:\d+/);
    assert.deepEqual(got.seen, []);
  }
});
