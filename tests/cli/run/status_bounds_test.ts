/**
 * `status:` with bounds, run by the CLI against a server the test starts:
 * `{lt: 400}` passes a 201 and a redirect and fails a 500 with a message
 * naming the bound; `until: {status: {gte: 200, lt: 300}}` polls past two
 * 503s; a bound from a var is read when the check runs. The report is
 * read back.
 */
import assert from "node:assert/strict";
import { runFlowText, stepStatuses } from "../../support/cli.ts";

const FLOW = `name: bounds
vars:
  max: "499"
steps:
  - name: created
    request: {method: POST, url: "\${ENV.BASE_URL}/items"}
    assert: {status: {lt: 400}}
  - name: moved
    request: {url: "\${ENV.BASE_URL}/moved"}
    assert: {status: {gte: 300, lt: 400}}
  - name: ready
    request: {url: "\${ENV.BASE_URL}/ready"}
    loop: {max_attempts: 10, sleep_ms: 1, until: {status: {gte: 200, lt: 300}}}
  - name: refused
    request: {url: "\${ENV.BASE_URL}/broken"}
    assert: {status: {gt: "\${vars.max}"}}
  - name: broken
    request: {url: "\${ENV.BASE_URL}/broken"}
    assert: {status: {lt: 400}}
`;

/** 201 for a create, 302 for /moved, 500 for /broken, /ready 503 twice then 200. */
function server() {
  let polls = 0;
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST") return Response.json({ id: 1 }, { status: 201 });
    if (path === "/moved") return new Response(null, { status: 302, headers: { location: "/x" } });
    if (path === "/ready") return new Response(null, { status: polls++ < 2 ? 503 : 200 });
    return new Response("no", { status: 500 });
  });
  return { base: `http://127.0.0.1:${(s.addr as Deno.NetAddr).port}`, s, polls: () => polls };
}

Deno.test("status bounds pass, fail with the bound in the message, and end a poll", async () => {
  const app = server();
  try {
    const got = await runFlowText(FLOW, { BASE_URL: app.base });
    assert.equal(got.code, 1, got.stdout + got.stderr);
    assert.deepEqual(stepStatuses(got.report), [
      "created passed",
      "moved passed",
      "ready passed",
      "refused passed",
      "broken failed",
    ]);
    const [broken] = got.report.flows[0].steps[4].assertions;
    assert.equal(broken.message, "status 500, expected < 400");
    assert.equal(broken.operator, "bounds");
    assert.deepEqual(broken.expected, { lt: 400 });
    assert.equal(broken.line, 19);
    assert.match(got.stdout, /status 500, expected < 400/);
    assert.equal(app.polls(), 3);
    assert.deepEqual(got.report.flows[0].steps[3].assertions[0].expected, { gt: 499 });
  } finally {
    await app.s.shutdown();
  }
});

Deno.test("a bound outside 100 to 599 is refused before any request, at its place", async () => {
  const got = await runFlowText(
    'name: f\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:9/x"}\n' +
      "    assert: {status: {gte: 200, lt: 600}}\n",
    {},
  );
  assert.equal(got.code, 2, got.stdout + got.stderr);
  const said = got.stdout + got.stderr;
  assert.match(said, /"lt" of "status" to be a status code from 100 to 599, got the number 600/);
  assert.match(said, /:5:37\b/);
});
