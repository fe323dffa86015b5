/**
 * A setup flow's output read from a capture its step left unset by design
 * (`optional: true` found nothing, or its `when` did not hold and there is no
 * `otherwise`) is not produced, and the setup still passes: the step said the
 * answer may not hold the value. A flow step guarded on that output with
 * `exists` is skipped; the others run. Before, the output's expression error
 * failed the setup and skipped every flow: a converted OpenAPI suite's
 * sign-in searches the sign-up's answer for the account's id (optional), and
 * a FastAPI blog whose answers show no id had all of its flows skipped
 * (docs/real-servers.md, stephenkettley/api-blog).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import {
  type Report,
  runWithSetup,
  type SetupRun,
  stepStatuses,
} from "../support/setup_outputs.ts";

/** A sign-up answering with or without the id, in its body, a header and a cookie alike. */
function serve(giveId: boolean): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    await req.body?.cancel();
    if (path === "/sign-up") {
      const headers = new Headers();
      if (giveId) {
        headers.set("x-account", "41");
        headers.set("set-cookie", "account=41; Path=/");
      }
      const body = giveId ? { id: 41, name: "ann" } : { name: "ann" };
      return Response.json(body, { status: giveId ? 201 : 200, headers });
    }
    if (path === "/login") return Response.json({ token: "tok-7d1c" });
    const ok = req.headers.get("authorization") === "Bearer tok-7d1c";
    return ok ? Response.json({ path }) : new Response(null, { status: 401 });
  });
}

/** Each way a capture is left unset by design, as the sign-up step's capture of `id`. */
const CAPTURES: Record<string, string> = {
  "an optional path": "{path: $.json.id, optional: true}",
  "an optional header": "{header: x-account, optional: true}",
  "an optional cookie": "{cookie: account, optional: true}",
  "an optional regex": '{regex: "\\"id\\":(\\\\d+)", optional: true}',
  "a when that does not hold": "{path: $.json.name, when: {path: $.status, equals: 201}}",
};

const setup = (url: string, capture: string, output: string, signUpStatus: number) =>
  `name: sign in
steps:
  - name: sign_up
    request: {method: POST, url: "${url}/sign-up"}
    capture: {id: ${capture}}
    assert: {status: {anyOf: [${signUpStatus}, 201]}}
  - name: login
    request: {method: POST, url: "${url}/login"}
    capture: {token: $.json.token}
    assert: {status: 200}
outputs:
  token: "\${steps.login.capture.token}"
  id: "${output}"
`;

async function run(
  giveId: boolean,
  capture: string,
  output = "\${steps.sign_up.capture.id}",
  signUpStatus = 200,
): Promise<SetupRun> {
  const server = serve(giveId);
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    return await runWithSetup(url, setup(url, capture, output, signUpStatus));
  } finally {
    await server.shutdown();
  }
}

for (const [how, capture] of Object.entries(CAPTURES)) {
  Deno.test(`setup: an output of ${how} capture left unset is not produced, and the setup passes`, async () => {
    const { code, steps, messages, said } = await run(false, capture);
    assert.equal(code, 0, said);
    // Said as what happened, not as a missing --setup (it was given).
    assert.match(messages.get("mine") ?? "", /the setup flow left it unset/, said);
    assert.equal(steps.get("sign_up"), "passed");
    assert.equal(steps.get("login"), "passed");
    assert.equal(steps.get("list"), "passed", said);
    assert.equal(steps.get("mine"), "skipped", said);
  });

  Deno.test(`setup: the same output of ${how} capture is handed on when it was found`, async () => {
    const { code, steps, said } = await run(true, capture);
    assert.equal(code, 0, said);
    assert.equal(steps.get("mine"), "passed", said);
  });
}

Deno.test("setup: an output joining a found capture and one left unset is not produced either", async () => {
  const output = "\${steps.login.capture.token}-\${steps.sign_up.capture.id}";
  const { code, steps, said } = await run(false, CAPTURES["an optional path"], output);
  assert.equal(code, 0, said);
  assert.equal(steps.get("list"), "passed", said);
  assert.equal(steps.get("mine"), "skipped", said);
});

Deno.test("setup: a step whose assertion failed still fails the setup, its optional capture unset", async () => {
  const { code, steps, said } = await run(false, CAPTURES["an optional path"], undefined, 400);
  assert.equal(code, 1, said);
  assert.equal(steps.get("sign_up"), "failed", said);
  assert.equal(steps.get("list"), "skipped", said);
});

Deno.test("include: an output of an optional capture left unset is absent, and the include step passes", async () => {
  const server = serve(false);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-unset-" });
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(
      `${dir}/sign_in.yaml`,
      setup(url, CAPTURES["an optional path"], "\${steps.sign_up.capture.id}", 200),
    );
    await Deno.writeTextFile(
      `${dir}/account.yaml`,
      `name: account
steps:
  - name: auth
    include: sign_in.yaml
  - name: list
    request: {method: GET, url: "${url}/items", headers: {authorization: "Bearer \${steps.auth.token}"}}
    assert: {status: 200}
  - name: mine
    if: {value: "\${steps.auth.id}", exists: true}
    request: {method: GET, url: "${url}/accounts/\${steps.auth.id}"}
`,
    );
    const out = await runCli(["run", `${dir}/account.yaml`, "--report-json", `${dir}/report.json`]);
    const said = out.stdout + out.stderr;
    assert.equal(out.code, 0, said);
    const report: Report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    const steps = stepStatuses(report);
    assert.equal(steps.get("list"), "passed", said);
    assert.equal(steps.get("mine"), "skipped", said);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("setup: a setup whose only output it left unset says so, not that --setup is missing", async () => {
  const server = serve(false);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-setup-only-unset-" });
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(
      `${dir}/setup.yaml`,
      `name: sign up
steps:
  - name: sign_up
    request: {method: POST, url: "${url}/sign-up"}
    capture: {id: {path: $.json.id, optional: true}}
outputs:
  id: "\${steps.sign_up.capture.id}"
`,
    );
    await Deno.mkdir(`${dir}/flows`);
    await Deno.writeTextFile(
      `${dir}/flows/mine.yaml`,
      `name: mine
steps:
  - name: mine
    if: {value: "\${setup.id}", exists: true}
    request: {url: "${url}/accounts/\${setup.id}"}
`,
    );
    const report = `${dir}/report.json`;
    const out = await runCli([
      "run",
      `${dir}/flows`,
      "--setup",
      `${dir}/setup.yaml`,
      "--report-json",
      report,
    ]);
    const said = out.stdout + out.stderr;
    assert.equal(out.code, 0, said);
    const { flows }: Report = JSON.parse(await Deno.readTextFile(report));
    const mine = flows.flatMap((f) => f.steps).find((s) => s.name === "mine");
    assert.equal(mine?.status, "skipped", said);
    assert.match(mine?.message ?? "", /the setup flow left it unset/, said);
    assert.doesNotMatch(mine?.message ?? "", /--setup FILE/, said);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
