/**
 * `convert har a.har b.har` on a journey whose user typed other words the second time into fields
 * whose names hold a secret-looking word: a meeting app's `session_title` ("Morning standup", then
 * "Evening review"), the name the user goes by in it, which the page sends in an
 * `X-Session-Nickname` header, and a token's `api_token_label` (the label a settings page asks
 * for when it makes a token). The names alone decided: each was asked as a required secret
 * (`CREATE_SESSION_SESSION_TITLE`), a value no new user has, and masked. The evidence says what
 * they are: they differ between the recordings, no response produced them, and neither recording
 * sent them shaped like a secret (words with a space): the user's typed data, sent as recorded
 * unless a variable says otherwise. What a user holds stays asked however it reads: the login's
 * password, and a `signing_key` the user typed as a plain word (the name's last word is a
 * credential's), never written into the flow.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHars } from "./har_convert.ts";

const AT = "http://127.0.0.1:7311";

/** A stand-in that wants the password it was set up with and a title and label on each write. */
function standIn(password: string) {
  let next = 40;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = req.method === "POST" ? await req.json() : {};
    if (path === "/api/login") {
      return body.password === password
        ? Response.json({ ok: true }, { headers: { "set-cookie": `sid=s${next}; Path=/` } })
        : Response.json({ error: "bad login" }, { status: 401 });
    }
    if (!req.headers.get("cookie")?.includes("sid=")) return Response.json({}, { status: 401 });
    const nickname = req.headers.get("x-session-nickname");
    if (path === "/api/sessions" && typeof body.session_title === "string" && nickname) {
      return Response.json({ id: next++ }, { status: 201 });
    }
    if (path === "/api/tokens" && body.api_token_label && body.signing_key) {
      return Response.json({ id: next++ }, { status: 201 });
    }
    return Response.json({ error: "bad request" }, { status: 400 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One recording: log in, make a session and a token, each with what the user typed this time. */
function recording(
  typed: { password: string; title: string; nick: string; label: string; key: string },
) {
  const json = (o: unknown) => JSON.stringify(o);
  return harOf([
    {
      method: "POST",
      url: `${AT}/api/login`,
      body: json({ user: "ann", password: typed.password }),
      json: { ok: true },
      setCookies: [["sid", "s1"]],
    },
    {
      method: "POST",
      url: `${AT}/api/sessions`,
      headers: [["Cookie", "sid=s1"], ["X-Session-Nickname", typed.nick]],
      body: json({ session_title: typed.title, room: "Blue" }),
      status: 201,
      json: { id: 7 },
    },
    {
      method: "POST",
      url: `${AT}/api/tokens`,
      headers: [["Cookie", "sid=s1"]],
      body: json({ api_token_label: typed.label, signing_key: typed.key }),
      status: 201,
      json: { id: 8 },
    },
  ]);
}

const FIRST = {
  password: "Tide-Lamp-61",
  title: "Morning standup",
  nick: "Ann from ops",
  label: "CI deploy",
  key: "sunflower",
};
const SECOND = {
  password: "Reed-Coal-48",
  title: "Evening review",
  nick: "Ann on call",
  label: "Nightly backup",
  key: "moonlight",
};

Deno.test("convert har with two recordings: words the user typed differently under a secret-looking name are data, sent as recorded; what a user holds is still asked, and the flow passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-typed-secret-name-" });
  const app = standIn("Pine-Gate-93");
  try {
    const { converted, flow } = await convertHars(dir, [recording(FIRST), recording(SECOND)]);
    assert.match(flow, /session_title: \$\{ENV\.[A-Z_]+:-Morning standup\}/, flow);
    assert.match(flow, /api_token_label: \$\{ENV\.[A-Z_]+:-CI deploy\}/, flow);
    assert.match(flow, /x-session-nickname: \$\{ENV\.[A-Z_]+:-Ann from ops\}/, flow);
    for (const held of [FIRST.password, FIRST.key, SECOND.password, SECOND.key]) {
      assert.ok(!flow.includes(held), `${held}\n${flow}`);
    }
    const asked = converted.stderr.match(/Set before running: (.*)\./)?.[1].split(", ");
    assert.deepEqual(asked, ["LOGIN_PASSWORD", "CREATE_TOKEN_SIGNING_KEY"], converted.stderr);
    const env = {
      BASE_URL: app.origin,
      LOGIN_PASSWORD: "Pine-Gate-93",
      CREATE_TOKEN_SIGNING_KEY: "marigold",
    };
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
