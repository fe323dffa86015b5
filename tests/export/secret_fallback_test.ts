/**
 * A credential's default (`${ENV.PW:-hunter2-default}`) is a literal the flow file wrote, but a
 * load script must hold no literal credential: the export leaves such a fallback out, reads the
 * environment variable alone, and names what it left out. Found by the red team (issue 53): the
 * default reached flowrun-processor.js as `env("SVC_PASSWORD", "…")`. A default that is no
 * credential (a base URL) stays.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const DEFAULTS = [
  "hunter2-default-9f",
  "tok_default_7c3e9a",
  "cookie-default-4b1d",
  "apikey-dflt-55",
];

Deno.test("a credential's ${ENV.X:-default} is not written into the load script; other defaults are", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-export-fallback-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: creds
vars:
  base: \${ENV.BASE_URL:-http://127.0.0.1:9}
  pw: \${ENV.SVC_PASSWORD:-${DEFAULTS[0]}}
steps:
  - name: login
    request:
      method: POST
      url: \${vars.base}/login
      body: {user: ann, password: "\${vars.pw}"}
  - name: read
    request:
      url: \${vars.base}/items
      headers:
        authorization: "Bearer \${ENV.API_TOKEN:-${DEFAULTS[1]}}"
        x-api-key: "\${ENV.SVC_KEY:-${DEFAULTS[3]}}"
      cookies: {sid: "\${ENV.SID:-${DEFAULTS[2]}}"}
`,
    );
    const run = await runCli(["export", "artillery", `${dir}/f.yaml`, "-o", `${dir}/load`]);
    assert.equal(run.code, 0, run.stderr);
    for await (const entry of Deno.readDir(`${dir}/load`)) {
      if (!entry.isFile) continue;
      const text = await Deno.readTextFile(`${dir}/load/${entry.name}`);
      for (const d of DEFAULTS) assert.ok(!text.includes(d), `${entry.name} holds ${d}`);
      if (entry.name.endsWith(".js")) assert.match(text, /http:\/\/127\.0\.0\.1:9/);
    }
    for (const d of DEFAULTS) assert.ok(!run.stderr.includes(d) && !run.stdout.includes(d));
    for (const name of ["SVC_PASSWORD", "API_TOKEN", "SVC_KEY", "SID"]) {
      assert.match(run.stderr, new RegExp(`\\$\\{ENV\\.${name}\\}'s default is left out`));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an auth block's ${ENV.X:-default} is read from the environment alone, whatever X is called", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-export-fallback-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: basic
auth:
  basic:
    username: \${ENV.SVC_LOGIN:-ann}
    password: \${ENV.SVC_WORD:-basic-dflt-77x}
steps:
  - name: me
    request:
      url: \${ENV.BASE_URL:-http://127.0.0.1:9}/me
`,
    );
    const run = await runCli(["export", "artillery", `${dir}/f.yaml`, "-o", `${dir}/load`]);
    assert.equal(run.code, 0, run.stderr);
    for await (const entry of Deno.readDir(`${dir}/load`)) {
      if (!entry.isFile) continue;
      const text = await Deno.readTextFile(`${dir}/load/${entry.name}`);
      assert.ok(!text.includes("basic-dflt-77x"), `${entry.name} holds the password's default`);
    }
    assert.match(run.stderr, /\$\{ENV\.SVC_WORD\}'s default is left out/);
    assert.doesNotMatch(run.stderr, /\$\{ENV\.BASE_URL\}'s default is left out/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
