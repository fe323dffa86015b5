/**
 * `convert har` on a recording whose web password is also a word of the
 * user's own data, as Deluge's was (tests/real/deluge_har_test.ts): the web
 * password `deluge` sat inside the name of a magnet link the user added
 * (`dn=flowrun-deluge-sample`). The last scrub of the flow replaced every
 * recorded secret found inside request data, the typed password too: the
 * torrent's name became `flowrun-${ENV.RECORDED_SECRET}-sample`, a second
 * variable asked for the same password, and the name depended on it.
 *
 * What the converter does (lib/convert/correlate/state.ts `typed`,
 * lib/convert/write.ts): a password the user typed (a variable asked as a
 * password: a login field, a JSON-RPC login's parameter, a Basic password)
 * is a variable where it is sent as that credential, and elsewhere the
 * request data is sent as recorded: a longer value that holds the word, and
 * an exact equal value under a non-credential key (a search term) alike.
 * What is printed (the flow's comments, the summary) still masks it.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const PASSWORD = "deluge";
const NAME = "flowrun-deluge-sample";
const MAGNET = `magnet:?xt=urn:btih:${"5d".repeat(20)}&dn=${NAME}`;
const AT = "http://127.0.0.1:4242";

/** A stand-in: a form login that sets a session, then calls that keep what they were sent. */
function standIn() {
  const sent: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = await req.text();
    if (url.pathname === "/login") {
      const ok = new URLSearchParams(body).get("password") === PASSWORD;
      const headers = ok ? { "set-cookie": "sid=s-1; Path=/" } : undefined;
      return Response.json({ ok }, { status: ok ? 200 : 401, headers });
    }
    if (req.headers.get("cookie") !== "sid=s-1") return Response.json({}, { status: 401 });
    sent.push(`${url.search}${body}`);
    return Response.json({ ok: true, hits: [] });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, sent, close: () => server.shutdown() };
}

function recording(): string {
  const session: [string, string] = ["Cookie", "sid=s-1"];
  const form = "application/x-www-form-urlencoded";
  return harOf([
    {
      method: "POST",
      url: `${AT}/login`,
      body: `username=admin&password=${PASSWORD}`,
      mime: form,
      json: { ok: true },
      setCookies: [["sid", "s-1"]],
    },
    {
      method: "POST",
      url: `${AT}/api/torrents`,
      headers: [session],
      body: JSON.stringify({ name: NAME, uri: MAGNET }),
      json: { ok: true },
    },
    { url: `${AT}/api/search?q=${PASSWORD}`, headers: [session], json: { ok: true, hits: [] } },
    {
      method: "POST",
      url: `${AT}/api/notes`,
      headers: [session],
      body: `title=${PASSWORD}&text=about+${PASSWORD}+things`,
      mime: form,
      json: { ok: true },
    },
  ]);
}

/** The flow without its comment lines: what the run sends. */
const sentPart = (flow: string) =>
  flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");

Deno.test("convert har: the typed password is a variable in the login only; a name holding the word and a search term equal to it are sent as recorded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-password-inside-" });
  const app = standIn();
  try {
    const { converted, flow } = await convertHar(dir, recording());
    assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./, flow);
    assert.doesNotMatch(converted.stderr + flow, /RECORDED_SECRET/, flow);
    assert.match(flow, /^\s+password: \$\{ENV\.LOGIN_PASSWORD\}$/m, flow);
    assert.ok(sentPart(flow).includes(MAGNET), flow);
    assert.match(flow, new RegExp(`^\\s+name: ${NAME}$`, "m"), flow);
    assert.match(flow, /search\?q=deluge\n/, flow);
    assert.match(flow, /^\s+title: deluge$/m, flow);
    // What is printed still masks it: the comments and the summary.
    const comments = flow.split("\n").filter((l) => l.trimStart().startsWith("#"));
    assert.ok(!comments.join("\n").includes(PASSWORD), comments.join("\n"));
    assert.ok(!converted.stderr.includes(PASSWORD), converted.stderr);
    const env = { BASE_URL: app.origin, LOGIN_PASSWORD: PASSWORD };
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.ok(app.sent.some((s) => s.includes(JSON.stringify(MAGNET))), app.sent.join("\n"));
    assert.ok(app.sent.includes("?q=deluge"), app.sent.join("\n"));
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a Basic password and a JSON-RPC login's are variables where sent as credentials, the word inside a name as recorded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-password-inside-" });
  try {
    const basic: [string, string] = ["Authorization", `Basic ${btoa(`admin:${PASSWORD}`)}`];
    const rpc = (method: string, params: unknown[]) => JSON.stringify({ method, params, id: 1 });
    const { converted, flow } = await convertHar(
      dir,
      harOf([
        { url: `${AT}/api/me`, headers: [basic], json: { user: "admin" } },
        {
          method: "POST",
          url: `${AT}/json`,
          body: rpc("auth.login", [PASSWORD]),
          json: { result: true },
          setCookies: [["_session_id", "abc123"]],
        },
        {
          method: "POST",
          url: `${AT}/json`,
          headers: [["Cookie", "_session_id=abc123"]],
          body: rpc("core.add_torrent_magnet", [MAGNET, {}]),
          json: { result: "t1" },
        },
      ]),
    );
    assert.doesNotMatch(converted.stderr + flow, /RECORDED_SECRET/, flow);
    assert.match(flow, /password: \$\{ENV\.BASIC_PASSWORD\}/, flow);
    assert.match(flow, /params: \["\$\{ENV\.LOGIN_PASSWORD(_2)?\}"\]/, flow);
    assert.ok(sentPart(flow).includes(MAGNET), flow);
    assert.ok(!new RegExp(`[:\\["' ]${PASSWORD}["'\\]]?$`, "m").test(sentPart(flow)), flow);
    assert.ok(!converted.stderr.includes(PASSWORD), converted.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
