/**
 * A request's text is masked by provenance (issue 53, item 15): a secret that is an ordinary
 * word (`PASSWORD=admin`) is masked where the flow substituted it, and nowhere else of the
 * request the flow wrote: the path `${vars.route}` holds `/admin/fail` and a header reads
 * `x-role: admin`, which every report printed as `***` (and the curl line as `"$PASSWORD"`).
 * A response repeating the word is still masked.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

function serve() {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/login") return Response.json({ role: "admin", ok: true });
    return Response.json({ error: "boom" }, { status: 500 });
  });
}

const FLOW = (base: string) =>
  `name: routes
vars:
  route: /admin/fail
steps:
  - name: login
    request:
      method: POST
      url: ${base}/login
      body: {user: "bob", password: "\${ENV.PASSWORD}"}
    assert: {status: 200}
  - name: get
    request:
      url: ${base}\${vars.route}
      headers: {x-role: admin}
    assert: {status: 200}
`;

Deno.test("an ordinary-word secret is masked where it was substituted, not where the flow wrote it", async () => {
  const server = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-provenance-" });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW(base));
    const cli = await runCli(
      [
        "run",
        `${dir}/f.yaml`,
        "-v",
        "--report-json",
        `${dir}/r.json`,
        "--log-file",
        `${dir}/r.log`,
        "--report-junit",
        `${dir}/r.xml`,
      ],
      { env: { PASSWORD: "admin" } },
    );
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const out = cli.stdout;
    // The flow's own text: the path and the header, on the request line, the headers and curl.
    assert.match(out, new RegExp(`GET ${base}/admin/fail`), out);
    assert.match(out, /> x-role: admin\n/, out);
    assert.match(out, new RegExp(`curl '${base}/admin/fail' -H 'x-role: admin'`), out);
    // Where the secret went: the login body, masked (the curl line names the variable).
    assert.match(out, /"password":"\*\*\*"/, out);
    assert.ok(!out.includes('"password":"admin"'), out);
    // A response repeating the word: masked.
    assert.match(out, /"role":"\*\*\*"/, out);
    assert.ok(!out.includes('"role":"admin"'), out);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const [login, get] = report.flows[0].steps;
    assert.equal(get.request.url, `${base}/admin/fail`);
    assert.equal(get.request.headers["x-role"], "admin");
    assert.match(get.request.curl, new RegExp(`'${base}/admin/fail' -H 'x-role: admin'`));
    assert.ok(!JSON.stringify(login.request).includes('"password\\":\\"admin'), login.request.body);
    assert.match(login.request.body, /"password":"\*\*\*"/);
    assert.match(login.response.body, /"role":"\*\*\*"/);
    const junit = await Deno.readTextFile(`${dir}/r.xml`);
    assert.ok(
      junit.includes(`curl: curl &apos;${base}/admin/fail&apos; -H &apos;x-role: admin&apos;`),
      junit,
    );
    assert.ok(!junit.includes("&quot;password&quot;:&quot;admin"), junit);
    // The log's request lines too.
    const log = await Deno.readTextFile(`${dir}/r.log`);
    assert.ok(log.includes(`"url":"${base}/admin/fail"`), log);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
