/**
 * `convert har` on a JSON-RPC login: Deluge's web UI (tests/real/deluge.ts) logs in with
 * `POST /json {"method":"auth.login","params":["deluge"],"id":2}`, whose answer sets the session
 * cookie every later call sends. The password is a positional parameter, with no field name to
 * say what it is, and the page's password input is built by a script (no `type="password"` in
 * the recorded HTML): the flow sent it as recorded, a literal credential.
 *
 * What the converter does (correlate/rpc_logins.ts): a JSON-RPC call (`method` and a `params`
 * array) whose method's last word is a login's (`login`, `signin`, `authenticate`) and whose
 * answer set a cookie is a login; its last string parameter is the password, asked for as
 * `LOGIN_PASSWORD`. Another call's parameters, and a login that set no cookie, go as recorded.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const PASSWORD = "Tidal-Lantern-42";

/** A JSON-RPC server: `auth.login` with the password sets `sid`; `web.hosts` needs it. */
function rpcServer() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { method, params, id } = await req.json();
    const answer = (result: unknown, headers: Record<string, string> = {}) =>
      Response.json({ result, error: null, id }, { headers });
    if (method === "auth.login") {
      const ok = params[0] === PASSWORD;
      return answer(
        ok,
        ok ? { "set-cookie": "sid=s-" + crypto.randomUUID() + "; Path=/json" } : {},
      );
    }
    const held = /sid=s-/.test(req.headers.get("cookie") ?? "");
    return held ? answer([["h1", params[0] ?? "any"]]) : answer(null);
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

/** The recording: log in (the answer sets `sid` unless `noCookie`), then a call that sends it. */
function recording(noCookie = false): string {
  const url = "http://127.0.0.1:8112/json";
  const mime = "application/json";
  return harOf([
    {
      method: "POST",
      url,
      mime,
      body: JSON.stringify({ method: "auth.login", params: [PASSWORD], id: 1 }),
      json: { result: true, error: null, id: 1 },
      setCookies: noCookie ? [] : [["sid", "s-recorded-1"]],
    },
    {
      method: "POST",
      url,
      mime,
      headers: [["cookie", "sid=s-recorded-1"]],
      body: JSON.stringify({ method: "web.hosts", params: ["lan-only"], id: 2 }),
      json: { result: [["h1", "lan-only"]], error: null, id: 2 },
    },
  ]);
}

async function convert(har: string) {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/app.har`, har);
  const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
  assert.equal(converted.code, 0, converted.stderr);
  return { dir, summary: converted.stderr, flow: await Deno.readTextFile(`${dir}/app.yaml`) };
}

Deno.test("convert har: a JSON-RPC login's password parameter is asked for, never written, and the flow passes with it", async () => {
  const app = rpcServer();
  const { dir, summary, flow } = await convert(recording());
  try {
    assert.match(summary, /Set before running: LOGIN_PASSWORD\./, summary);
    assert.ok(!flow.includes(PASSWORD), flow);
    assert.match(flow, /params: \["\$\{ENV\.LOGIN_PASSWORD\}"\]/, flow);
    // Another call's string parameter is no credential.
    assert.match(flow, /params: \[lan-only\]/, flow);
    const env = { BASE_URL: app.origin, LOGIN_PASSWORD: PASSWORD };
    const run = await runCli(["run", `${dir}/app.yaml`], { env });
    assert.equal(run.code, 0, run.stdout);
    assert.ok(!run.stdout.includes(PASSWORD), run.stdout);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a JSON-RPC call named login whose answer set no cookie is no login: sent as recorded", async () => {
  const { dir, summary, flow } = await convert(recording(true));
  await Deno.remove(dir, { recursive: true });
  assert.doesNotMatch(summary, /LOGIN_PASSWORD/, summary);
  assert.ok(flow.includes(PASSWORD), flow);
});
