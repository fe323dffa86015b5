/**
 * A bearer token's word negotiated from the server's `WWW-Authenticate`, as
 * Django REST framework's `TokenAuthentication` needs (`Token <key>`, its
 * 401 saying `WWW-Authenticate: Token`) and JWT servers (`JWT realm="api"`):
 * through the CLI against two small servers this test starts, each on its
 * own origin. Resent once, learned for the origin only, never when the
 * challenge includes Bearer; an explicit `scheme` is sent from the start.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runCli } from "../support/cli.ts";

const TOKEN = "k3y-0f-th3-t3st-s3rv3r";

/** DRF's shapes: `/drf/…` takes `Token`, `/jwt` takes `JWT`, `/both` refuses all, `/echo` any. */
function handler(seen: string[]) {
  return (request: Request): Response => {
    const path = new URL(request.url).pathname;
    const auth = request.headers.get("authorization") ?? "";
    seen.push(`${path} ${auth.split(" ")[0]}`);
    const refuse = (challenge: string) =>
      Response.json({ detail: "Authentication credentials were not provided." }, {
        status: 401,
        headers: { "www-authenticate": challenge },
      });
    if (path === "/echo") return Response.json({ ok: true });
    if (path === "/both") return refuse('Token, Bearer realm="api"');
    if (path === "/jwt") {
      return auth === `JWT ${TOKEN}` ? Response.json({ ok: 1 }) : refuse('JWT realm="api"');
    }
    if (path === "/drf/deny") return refuse("Token");
    return auth === `Token ${TOKEN}` ? Response.json({ ok: 1 }) : refuse("Token");
  };
}

const FLOW = `name: negotiated
auth: {bearer: {token: "\${ENV.API_TOKEN}"}}
steps:
  - {name: first, request: {url: "\${ENV.A}/drf/me"}, assert: {status: 200}}
  - {name: later, request: {url: "\${ENV.A}/drf/items"}, assert: {status: 200}}
  - {name: refused, request: {url: "\${ENV.A}/drf/deny"}, assert: {status: 401}}
  - {name: other_origin, request: {url: "\${ENV.B}/echo"}, assert: {status: 200}}
  - {name: jwt, request: {url: "\${ENV.B}/jwt"}, assert: {status: 200}}
  - {name: with_bearer, request: {url: "\${ENV.B}/both"}, assert: {status: 401}}
  - name: explicit
    auth: {bearer: {token: "\${ENV.API_TOKEN}", scheme: Token}}
    request: {url: "\${ENV.B}/drf/me"}
    assert: {status: 200}
`;

Deno.test("bearer scheme: a 401's one token scheme is sent once more, then used at that origin only", async () => {
  const seenA: string[] = [], seenB: string[] = [];
  const opts = { hostname: "127.0.0.1", port: 0, onListen() {} };
  const a = Deno.serve(opts, handler(seenA));
  const b = Deno.serve(opts, handler(seenB));
  const dir = await Deno.makeTempDir({ prefix: "flowrun-scheme-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    const env = {
      API_TOKEN: TOKEN,
      A: `http://127.0.0.1:${a.addr.port}`,
      B: `http://127.0.0.1:${b.addr.port}`,
    };
    const cli = await runCli(["run", `${dir}/f.yaml`, "-v", "--report-json", `${dir}/r.json`], {
      env,
    });
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps.map((
      s: { name: string; attempts: number; note?: string },
    ) => [s.name, s.attempts, s.note ?? ""]);
    const note = (word: string) => `sent as ${word}: the server's WWW-Authenticate asked for it`;
    assert.deepEqual(steps, [
      ["first", 2, note("Token")],
      ["later", 1, note("Token")],
      ["refused", 1, note("Token")],
      ["other_origin", 1, ""],
      ["jwt", 2, note("JWT")],
      ["with_bearer", 1, note("JWT")],
      ["explicit", 1, ""],
    ]);
    assert.deepEqual(seenA, [
      "/drf/me Bearer",
      "/drf/me Token",
      "/drf/items Token",
      "/drf/deny Token",
    ]);
    assert.deepEqual(seenB, [
      "/echo Bearer",
      "/jwt Bearer",
      "/jwt JWT",
      "/both JWT",
      "/drf/me Token",
    ]);
    assert.match(cli.stdout, /sent as Token: the server's WWW-Authenticate asked for it/);
    const json = await Deno.readTextFile(`${dir}/r.json`);
    for (const text of [cli.stdout, cli.stderr, json]) assert.ok(!text.includes(TOKEN));
  } finally {
    await Deno.remove(dir, { recursive: true });
    await a.shutdown();
    await b.shutdown();
  }
});

Deno.test("bearer scheme: with Bearer among the challenges nothing is resent", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler(seen));
  const dir = await Deno.makeTempDir({ prefix: "flowrun-scheme-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      'name: f\nauth: {bearer: {token: "${ENV.API_TOKEN}"}}\nsteps:\n' +
        '  - {name: s, request: {url: "${ENV.A}/both"}, assert: {status: 401}}\n' +
        '  - {name: t, request: {url: "${ENV.A}/drf/me"}, assert: {status: 200}}\n',
    );
    const env = { API_TOKEN: TOKEN, A: `http://127.0.0.1:${server.addr.port}` };
    const cli = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`], { env });
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.deepEqual(seen, ["/both Bearer", "/drf/me Bearer", "/drf/me Token"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await server.shutdown();
  }
});

Deno.test("bearer scheme: the loader refuses a scheme with a space, or beside a command, at its place", () => {
  const text = (block: string) =>
    `name: f\nauth: {bearer: ${block}}\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n`;
  // The environment the loader sees is empty here: that the variable is unset is not the point.
  const flow = (block: string) => text(block).replaceAll("${ENV.HOME}", "${setup.t}");
  const ok = loadFlow(flow('{token: "${ENV.HOME}", scheme: Token}'), "f.yaml");
  assert.deepEqual(ok.problems, []);
  assert.equal(
    ok.flow?.auth?.kind === "bearer" && "scheme" in ok.flow.auth && ok.flow.auth.scheme,
    "Token",
  );
  const spaced = loadFlow(flow('{token: "${ENV.HOME}", scheme: "Token x"}'), "f.yaml");
  assert.equal(spaced.problems[0]?.code, "wrong-type");
  assert.equal(spaced.problems[0]?.line, 2);
  assert.match(
    spaced.problems[0]?.message ?? "",
    /"scheme" of "bearer" of the flow to be one word/,
  );
  const unknown = loadFlow(flow('{token: "${ENV.HOME}", schema: Token}'), "f.yaml");
  assert.equal(unknown.problems[0]?.code, "unknown-key");
  const command = loadFlow(flow("{command: [gh, auth, token], scheme: Token}"), "f.yaml", {
    allowCommands: true,
  });
  assert.equal(command.problems[0]?.code, "conflicting-keys");
});
