/**
 * OAuth2 endpoint URLs are printed like step URLs: a password in their user info or a secret in
 * their query is masked in every output, and user info (which fetch would send as a Basic header
 * of its own) is refused, from the environment when the token is fetched, written literally when
 * the flow loads.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { readReports, reportOptions } from "../support/run_reports.ts";

const QUERY_SECRET = "cs-QUERY-secret-71";
const USER_PASSWORD = "pw-USERINFO-secret-93";

Deno.test("token_url secrets are masked in every output; user info is refused before sending", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(`${req.url} ${req.headers.get("authorization")}`);
    return Response.json({ error: "invalid_client" }, { status: 401 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-oauth2-urls-" });
  try {
    const flow = (name: string, url: string, extra = "") =>
      `name: ${name}\nauth:\n  oauth2:\n    grant_type: client_credentials\n` +
      `    token_url: "${url}"\n    client_id: app\n${extra}steps:\n` +
      `  - name: s\n    request: {url: "${base}/api"}\n`;
    await Deno.writeTextFile(
      `${dir}/query.yaml`,
      flow("query", "${ENV.IDP}/token?client_secret=${ENV.CS}"),
    );
    await Deno.writeTextFile(
      `${dir}/userinfo.yaml`,
      flow("userinfo", "${ENV.IDP_WITH_USER}/token", `    client_secret: "\${ENV.CS}"\n`),
    );
    const cli = await runCli([
      "run",
      dir,
      "-vv",
      ...reportOptions(dir),
    ], {
      env: {
        IDP: base,
        IDP_WITH_USER: base.replace("//", `//app:${USER_PASSWORD}@`),
        CS: QUERY_SECRET,
      },
    });
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const outputs = [cli.stdout, cli.stderr, ...Object.values(await readReports(dir))];
    for (const text of outputs) {
      for (const secret of [QUERY_SECRET, USER_PASSWORD]) {
        assert.ok(!text.includes(secret), `${secret} in ${text.slice(0, 400)}`);
      }
    }
    assert.match(
      cli.stdout,
      /token request to http:\/\/127\.0\.0\.1:\d+\/token\?client_secret=\*\*\* failed/,
    );
    assert.match(
      cli.stdout,
      /token_url "http:\/\/app:\*\*\*@127\.0\.0\.1:\d+\/token" holds a user name/,
    );
    // Only the query flow's token request was sent: the user-info one was refused first.
    assert.equal(seen.length, 1, seen.join("\n"));
    assert.ok(seen[0].includes(`client_secret=${QUERY_SECRET}`));
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a token_url written with user info is a positioned problem that does not print it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-oauth2-urls-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      "name: f\nauth:\n  oauth2: {grant_type: client_credentials, " +
        `token_url: "https://app:${USER_PASSWORD}@idp.test/token", client_id: app}\n` +
        'steps:\n  - name: s\n    request: {url: "http://127.0.0.1:9"}\n',
    );
    const cli = await runCli(["validate", `${dir}/f.yaml`]);
    assert.equal(cli.code, 2);
    const out = cli.stdout + cli.stderr;
    assert.match(
      out,
      /f\.yaml:3:55 error\[bad-url\]: The "token_url" of "oauth2" of the flow holds a user name and password/,
    );
    assert.ok(!out.includes(USER_PASSWORD), out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
