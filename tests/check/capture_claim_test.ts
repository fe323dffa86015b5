/**
 * A capture's `claim` against a real server: a login that answers only
 * `{token}` (a JWT) says who signed in inside the token, and the account's
 * own item (`/users/{id}`, 403 for anyone else's) is reached by the token's
 * `sub`; in both spellings, with `as`, and as a failure naming the source
 * (never the token) for a text that is not a JWT or a claim it lacks, and
 * as a load problem for a bad `claim`.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import "../support/engines.ts";

const part = (o: object) =>
  btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

/** Accounts numbered from 7; the login answers `{token}`, a JWT whose `sub` is the number. */
function serve() {
  const id = 7 + Math.floor(Math.random() * 900);
  const token = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: String(id), iat: 1 })}.c2ln`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login") return Response.json({ token, opaque: "not-a-jwt" });
    if (req.headers.get("authorization") !== `Bearer ${token}`) {
      return new Response(null, { status: 401 });
    }
    if (url.pathname === `/users/${id}`) return Response.json({ id });
    return new Response(null, { status: 403 });
  });
  return { id, token, url: `http://127.0.0.1:${server.addr.port}`, stop: () => server.shutdown() };
}

const flowOf = (url: string, capture: string, read: string) =>
  `name: own
steps:
  - name: login
    request: {method: POST, url: "${url}/login"}
    ${capture}
  - name: me
    request:
      url: "${url}/users/${read}"
      headers: {Authorization: "Bearer \${steps.login.capture.token}"}
    assert:
      status: 200
`;

/** Loads the flow of `capture` and `read` against `api` (no load problem) and runs it. */
async function runCaptured(api: { url: string }, capture: string, read: string, runId: string) {
  const { flow, problems } = loadFlow(flowOf(api.url, capture, read), `${runId}.yaml`);
  assert.deepEqual(problems, []);
  return await runFlows([flow!], { runId });
}

Deno.test("claim: sub reads the account's id from the JWT a login answers, in both spellings and with as", async () => {
  const api = serve();
  try {
    const run = await runCaptured(
      api,
      "capture: {token: $.json.token, id: {path: $.json.token, claim: sub, as: number}}",
      "${steps.login.capture.id}",
      "r1",
    );
    assert.equal(run.status, "passed", JSON.stringify(run.flows[0].steps.map((s) => s.message)));
    const b = loadFlow(
      `name: b
steps:
  - name: login
    request: {method: POST, url: "${api.url}/login"}
    extract: {token: $.token, id: {path: $.token, claim: sub}}
  - name: me
    request:
      url: "${api.url}/users/\${steps.login.id}"
      headers: {Authorization: "Bearer \${steps.login.token}"}
    assert: {status: 200}
`,
      "b.yaml",
    );
    assert.deepEqual(b.problems, []);
    const again = await runFlows([b.flow!], { runId: "r2" });
    assert.equal(again.status, "passed");
  } finally {
    await api.stop();
  }
});

Deno.test("claim: a text that is not a JWT, or a claim the JWT lacks, fails the step naming the source, never the token", async () => {
  const api = serve();
  try {
    for (
      const [source, said] of [
        [
          "{path: $.json.opaque, claim: sub}",
          /\$\.json\.opaque gave no claim sub: it is not a JWT/,
        ],
        [
          "{path: $.json.token, claim: uid}",
          /\$\.json\.token gave no claim uid: the JWT has no claim "uid"/,
        ],
      ] as const
    ) {
      const { flow, problems } = loadFlow(
        flowOf(api.url, `capture: {token: $.json.token, id: ${source}}`, "1"),
        "f.yaml",
      );
      assert.deepEqual(problems, []);
      const run = await runFlows([flow!], { runId: "r3" });
      const login = run.flows[0].steps[0];
      assert.equal(login.status, "failed");
      assert.match(login.message ?? "", said);
      assert.ok(!(login.message ?? "").includes(api.token.split(".")[1]), login.message);
    }
  } finally {
    await api.stop();
  }
});

Deno.test("a bad claim, or a claim list of nothing or of a name that is no text, is a positioned load problem", () => {
  for (const bad of ['""', "[]", "[sub, 3]", "[sub, {a: 1}]"]) {
    const { problems } = loadFlow(
      `name: f
steps:
  - name: s
    request: {url: "http://x.test"}
    capture:
      a: {path: $.json.token, claim: ${bad}}
`,
      "f.yaml",
    );
    assert.deepEqual(problems.map((p) => [p.code, p.line]), [["wrong-type", 6]], bad);
    assert.match(
      problems[0].message,
      /Expected "claim" in capture "a" of step "s" to be the name of a JWT claim or a list of names/,
    );
  }
});

Deno.test("claim: a list keeps the first claim the JWT holds, and names them all when it holds none", async () => {
  const api = serve();
  try {
    const token = "capture: {token: $.json.token, id: {path: $.json.token, claim:";
    const run = await runCaptured(
      api,
      `${token} [user_id, sub, iat]}}`,
      "${steps.login.capture.id}",
      "r4",
    );
    assert.equal(run.status, "passed", JSON.stringify(run.flows[0].steps.map((s) => s.message)));
    const failed = await runCaptured(api, `${token} [user_id, uid]}}`, "1", "r5");
    const login = failed.flows[0].steps[0];
    assert.equal(login.status, "failed");
    assert.match(
      login.message ?? "",
      /\$\.json\.token gave no claim user_id, uid: the JWT has none of the claims "user_id", "uid"/,
    );
    const left = await runCaptured(api, `${token} [user_id, uid], optional: true}}`, "1", "r6");
    assert.equal(left.flows[0].steps[0].status, "passed");
  } finally {
    await api.stop();
  }
});
