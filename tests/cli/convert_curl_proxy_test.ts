/**
 * `convert curl` with `-x http://user:PASSWORD@proxy`: the password is never written into the
 * flow (a step's options cannot read a variable, so the step has no proxy); the summary asks
 * for PROXY_PASSWORD and prints the `--proxy` to run with, and the flow run as printed goes
 * through a proxy the test starts, which checks the credentials it receives.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const PASSWORD = "Px-9z-proxy-pass";

Deno.test("convert curl: a proxy's password becomes a variable the run's --proxy reads", async () => {
  const credentials: string[] = [];
  // An HTTP proxy for absolute-form requests: 407 without the right credentials.
  const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const auth = req.headers.get("proxy-authorization") ?? "";
    const user = auth.startsWith("Basic ") ? atob(auth.slice(6)) : "";
    credentials.push(user);
    return user === `ann:${PASSWORD}`
      ? Response.json({ via: "proxy", host: req.headers.get("host") })
      : new Response("proxy auth", { status: 407 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const port = proxy.addr.port;
    // A host no resolver knows: only the proxy can answer for it.
    await Deno.writeTextFile(
      `${dir}/cmds.sh`,
      `curl -x http://ann:${PASSWORD}@127.0.0.1:${port} http://api.flowrun.invalid/items\n`,
    );
    const converted = await runCli(["convert", "curl", "cmds.sh", "-o", "flow.yaml"], { cwd: dir });
    assert.equal(converted.code, 0, converted.stderr);
    const yaml = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.ok(!yaml.includes(PASSWORD), yaml);
    assert.ok(!converted.stderr.includes(PASSWORD), converted.stderr);
    assert.match(converted.stderr, /^Set before running: PROXY_PASSWORD\.$/m);
    const printed = /--proxy "(http:\/\/ann:\$PROXY_PASSWORD@127\.0\.0\.1:\d+)"/.exec(
      converted.stderr,
    );
    assert.ok(printed, converted.stderr);
    const validated = await runCli(["validate", "flow.yaml"], { cwd: dir });
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    // Run as printed: the shell puts the variable's value into --proxy.
    const run = await runCli(
      ["run", "flow.yaml", "--proxy", printed[1].replace("$PROXY_PASSWORD", PASSWORD)],
      { cwd: dir, env: { PROXY_PASSWORD: PASSWORD } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr + yaml);
    assert.deepEqual(credentials, [`ann:${PASSWORD}`]);
  } finally {
    await proxy.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert curl: -U's password and a proxy written with $NAMEs never make a flow that does not load", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/cmds.sh`,
      [
        `curl -x http://proxy.test:3128 -U ann:${PASSWORD} http://api.test/a`,
        `curl -x "http://$PUSER:$PPASS@proxy.test:3128" http://api.test/b`,
        `curl -x http://proxy.test:3128 http://api.test/c`,
      ].join("\n") + "\n",
    );
    const converted = await runCli(["convert", "curl", "cmds.sh", "-o", "flow.yaml"], { cwd: dir });
    assert.equal(converted.code, 0, converted.stderr);
    const yaml = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.ok(!yaml.includes(PASSWORD) && !converted.stderr.includes(PASSWORD), yaml);
    assert.doesNotMatch(converted.stderr, /Ignored options/);
    assert.match(converted.stderr, /--proxy "http:\/\/ann:\$PROXY_PASSWORD@proxy\.test:3128"/);
    assert.match(converted.stderr, /--proxy "http:\/\/\$PUSER:\$PPASS@proxy\.test:3128"/);
    // A proxy with no password stays the step's own.
    assert.equal(yaml.match(/^ {6}proxy: /gm)?.length, 1, yaml);
    assert.match(yaml, /^ {6}proxy: http:\/\/proxy\.test:3128$/m);
    const validated = await runCli(["validate", "flow.yaml"], { cwd: dir });
    assert.equal(validated.code, 0, validated.stdout + validated.stderr + yaml);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
