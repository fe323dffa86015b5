/**
 * A setup flow's output read from a step its condition skipped is not
 * produced, and the setup still passes: the step took the branch its flow
 * wrote, so its captures were never meant to exist. A flow step guarded on
 * that output with `exists` is skipped; the others run. Before, the output's
 * expression error failed the setup and skipped every flow.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

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

const flow = (url: string) =>
  `name: account
steps:
  - name: list
    request: {method: GET, url: "${url}/items", headers: {authorization: "Bearer \${setup.token}"}}
    assert: {status: 200}
  - name: mine
    if: {value: "\${setup.id}", exists: true}
    request: {method: GET, url: "${url}/accounts/\${setup.id}", headers: {authorization: "Bearer \${setup.token}"}}
    assert: {status: 200}
`;

type Report = {
  flows: { name: string; status: string; steps: { name: string; status: string }[] }[];
};

async function run(signUp: boolean): Promise<Map<string, string>> {
  const server = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-setup-skipped-" });
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(`${dir}/setup.yaml`, setup(url, signUp));
    await Deno.mkdir(`${dir}/flows`);
    await Deno.writeTextFile(`${dir}/flows/account.yaml`, flow(url));
    const out = await runCli([
      "run",
      `${dir}/flows`,
      "--setup",
      `${dir}/setup.yaml`,
      "--report-json",
      `${dir}/report.json`,
    ]);
    assert.equal(out.code, 0, out.stdout + out.stderr);
    const report: Report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    return new Map(report.flows.flatMap((f) => f.steps.map((s) => [s.name, s.status])));
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
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
