/**
 * Masking by provenance never shows a secret (issue 53, item 15, the leak side): an ordinary-word
 * secret (`PASSWORD=admin`) brought into a request by any substitution — the environment, a var
 * made from it, a var written as the secret itself, a capture, a field worked out differently the
 * second time (a random value) — is masked there; a word a flow writes in a secret place is masked
 * wherever that flow writes it; another flow's own `admin` stays readable.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const SOURCES = (base: string) =>
  `name: sources
vars:
  made: "/\${ENV.PASSWORD}/made"
  pw: admin
steps:
  - name: login
    request:
      method: POST
      url: ${base}/login
      body: {password: "\${vars.pw}"}
    capture: {role: $.json.role}
  - name: use
    request:
      url: "${base}\${vars.made}?r=\${steps.login.role}&p=\${vars.pw}&e=\${ENV.PASSWORD}&w=admin"
      headers: {x-role: admin, x-cap: "\${steps.login.role}", x-mix: "\${RANDOM.UUID} admin \${ENV.PASSWORD}"}
    assert: {status: 200}
`;

const LITERAL = (base: string) =>
  `name: literal
steps:
  - name: key
    request:
      url: "${base}/admin/k"
      headers: {x-api-key: admin, x-level: admin}
    assert: {status: 200}
`;

const KEYED = (base: string) =>
  `name: keyed
steps:
  - name: login
    request:
      method: POST
      url: "${base}/login"
      body: {user: bob, password: password, note: "no password here"}
    assert: {status: 500}
`;

const WRITTEN = (base: string) =>
  `name: written
steps:
  - name: own
    request:
      url: "${base}/admin/own"
      headers: {x-role: admin}
    assert: {status: 200}
`;

Deno.test("a secret substituted from any source is masked; a word a flow writes in a secret place too", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/login"
        ? Response.json({ role: "admin" })
        : Response.json({ no: true }, { status: 500 }),
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-provenance-sources-" });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(`${dir}/a.yaml`, SOURCES(base));
    await Deno.writeTextFile(`${dir}/b.yaml`, LITERAL(base));
    await Deno.writeTextFile(`${dir}/c.yaml`, WRITTEN(base));
    await Deno.writeTextFile(`${dir}/d.yaml`, KEYED(base));
    const cli = await runCli(
      [
        "run",
        ...["a", "b", "c", "d"].map((f) => `${dir}/${f}.yaml`),
        "--report-json",
        `${dir}/r.json`,
        "--log-file",
        `${dir}/r.log`,
      ],
      { env: { PASSWORD: "admin" } },
    );
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const step = (file: string, name: string) =>
      report.flows.find((f: { file: string }) => f.file.endsWith(file)).steps
        .find((s: { name: string }) => s.name === name);
    const use = step("a.yaml", "use").request;
    // Each substitution masked, the flow's own `w=admin` and `x-role: admin` readable.
    assert.equal(use.url, `${base}/***/made?r=***&p=***&e=***&w=admin`);
    const log = await Deno.readTextFile(`${dir}/r.log`);
    assert.ok(log.includes(`"url":"${use.url}"`), log);
    assert.equal(use.headers["x-role"], "admin");
    assert.equal(use.headers["x-cap"], "***");
    // A random value: the field cannot be told by provenance, so it is masked by value.
    assert.match(use.headers["x-mix"], /^[0-9a-f-]{36} \*\*\* \*\*\*$/);
    // The curl line names the variable wherever the secret's value went (the capture's too).
    const url =
      `'${base}/'"$PASSWORD"'/made?r='"$PASSWORD"'&p='"$PASSWORD"'&e='"$PASSWORD"'&w=admin'`;
    assert.ok(use.curl.includes(`${url} -H 'x-role: admin' -H 'x-cap: '"$PASSWORD"`), use.curl);
    // A word the flow sends in a secret place is a secret it wrote: masked wherever it writes it.
    const key = step("b.yaml", "key").request;
    assert.equal(key.url, `${base}/***/k`);
    assert.deepEqual([key.headers["x-api-key"], key.headers["x-level"]], ["***", "***"]);
    // A password written as the word `password`: masked as a value, the key named by it shown.
    const keyed = step("d.yaml", "login").request;
    assert.equal(keyed.body, '{"user":"bob","password":"***","note":"no *** here"}');
    assert.ok(
      keyed.curl.includes(`--data-raw '{"user":"bob","password":"***","note":"no *** here"}'`),
    );
    // Another flow's own text stays its own.
    const own = step("c.yaml", "own").request;
    assert.equal(own.url, `${base}/admin/own`);
    assert.equal(own.headers["x-role"], "admin");
    assert.ok(cli.stdout.includes(`GET ${base}/admin/own → 500`), cli.stdout);
    for (const text of [cli.stdout, JSON.stringify(report)]) {
      assert.ok(!/made\?r=admin|r=admin&|x-cap: admin|"x-cap":"admin"/.test(text), text);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a request as sent is masked by value where another flow shows the same text as its own", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ no: true }, { status: 500 }),
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-provenance-sent-" });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const flow = (name: string, path: string) =>
      `name: ${name}\nsteps:\n  - name: get\n    request:\n      url: "${base}${path}"\n` +
      `      headers: {x-role: "${path.split("/")[1]}"}\n    assert: {status: 200}\n`;
    // The flow's own text first, then the same text made from the secret.
    await Deno.writeTextFile(`${dir}/a.yaml`, flow("own", "/admin/own"));
    await Deno.writeTextFile(`${dir}/b.yaml`, flow("made", "/${ENV.PASSWORD}/own"));
    const log = `${dir}/run.log`;
    const cli = await runCli(
      ["run", `${dir}/a.yaml`, `${dir}/b.yaml`, "--jobs", "1", "--log-file", log, "-v"],
      { env: { PASSWORD: "admin" } },
    );
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const lines = (await Deno.readTextFile(log)).trim().split("\n").map((l) => JSON.parse(l));
    const made = lines.filter((l) =>
      String(l.file ?? "").endsWith("b.yaml") && l.url !== undefined
    );
    assert.ok(made.length > 0, JSON.stringify(lines));
    for (const line of made) assert.ok(!String(line.url).includes("admin"), JSON.stringify(line));
    assert.ok(cli.stdout.includes(`GET ${base}/***/own → 500`), cli.stdout);
    assert.ok(cli.stdout.includes("> x-role: ***"), cli.stdout);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
