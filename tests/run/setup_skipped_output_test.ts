/**
 * A setup flow's output read from a step its condition skipped is not
 * produced, and the setup still passes: the step took the branch its flow
 * wrote, so its captures were never meant to exist. A flow step guarded on
 * that output with `exists` is skipped; the others run. Before, the output's
 * expression error failed the setup and skipped every flow.
 */
import assert from "node:assert/strict";
import { runWithSetup } from "../support/setup_outputs.ts";

function serve(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    await req.body?.cancel();
    if (path === "/sign-up") return Response.json({ id: 41 }, { status: 201 });
    if (path === "/login") return Response.json({ token: "tok-7d1c" });
    const ok = req.headers.get("authorization") === "Bearer tok-7d1c";
    return ok ? Response.json({ path }) : new Response(null, { status: 401 });
  });
}

const setup = (url: string, signUp: boolean) =>
  `name: sign in
vars:
  fresh: ${signUp}
steps:
  - name: sign_up
    if: {value: "\${vars.fresh}", equals: true}
    request: {method: POST, url: "${url}/sign-up"}
    capture: {id: $.json.id}
  - name: login
    request: {method: POST, url: "${url}/login"}
    capture: {token: $.json.token}
    assert: {status: 200}
outputs:
  token: "\${steps.login.capture.token}"
  id: "\${steps.sign_up.capture.id}"
`;

async function run(signUp: boolean): Promise<Map<string, string>> {
  const server = serve();
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    const out = await runWithSetup(url, setup(url, signUp));
    assert.equal(out.code, 0, out.said);
    return out.steps;
  } finally {
    await server.shutdown();
  }
}

Deno.test("setup: an output of a step its condition skipped is left unset, and the setup passes", async () => {
  const steps = await run(false);
  assert.equal(steps.get("sign_up"), "skipped");
  assert.equal(steps.get("login"), "passed");
  assert.equal(steps.get("list"), "passed");
  assert.equal(steps.get("mine"), "skipped");
});

Deno.test("setup: the same output is handed on when its step ran", async () => {
  const steps = await run(true);
  assert.equal(steps.get("sign_up"), "passed");
  assert.equal(steps.get("mine"), "passed");
});
