/**
 * `convert har` on a random hex key the page made and sent under a name that sounds like a
 * secret. Seen on Cronicle 0.9.100 (docs/real-servers-har.md): its API-keys page fills the new
 * key's field with 32 hex digits it drew itself (an MD5 of the clock and a random number), sends
 * `key: <hex>` to create the key, the answer echoes it, and the key's edit and delete send it
 * again. Asked for by its name (`CREATE_API_KEY_KEY`), it was a variable nobody could know: the
 * page drew it at random. The UUID rule for page-made values (SQLPad's `cacheKey`) did not see it,
 * since it is no UUID. Evidence, not the name: a whole token of 16 to 128 hex digits, with both
 * letters and digits, that no answer held before the page first sent it, and that an answer
 * echoes after, is the run's own (one value per run) under any name but one
 * that says a user holds it (an API key, a password). A hex session id a sign-in answered stays
 * captured; a hex value under `apiKey` stays asked, and so does a token only sent again, never
 * echoed: hex is a shape servers issue too (a session's CSRF token whose page was not recorded).
 *
 * The stand-in runs on 127.0.0.1: a sign-in answers a hex session id sent in each body after
 * it, and a key another record already holds is refused (409), so a flow that replays the
 * recorded key fails its second run on the same instance.
 */
import assert from "node:assert/strict";
import { convertHarText, convertHarThenRun } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:5012";
const KEY = "4be1c07a9d3f58e26a0b7c1d9e8f2a35";
const SESSION = "9c2f0e7d5b3a1c8e6f4d2b0a9e7c5a3f1d8b6e4c2a0f9d7b5e3c1a8f6d4b2e0c";
const PASSWORD = "Quay-Lantern-48";
const HEX32 = /^[0-9a-f]{32}$/;

/** The stand-in: a sign-in by body session, API keys unique by their key. */
function standIn() {
  const sessions = new Set<string>();
  const keys = new Map<string, { id: string; key: string; title: string }>();
  const refused: string[] = [];
  let made = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    const f = JSON.parse(await req.text() || "{}");
    if (pathname === "/api/login") {
      if (f.password !== PASSWORD) return Response.json({ code: "login" });
      const sid = crypto.randomUUID().replaceAll("-", "").repeat(2);
      sessions.add(sid);
      return Response.json({ code: 0, session_id: sid });
    }
    if (!sessions.has(f.session_id)) return Response.json({ code: "session" }, { status: 403 });
    if (pathname === "/api/create_key") {
      const taken = [...keys.values()].some((k) => k.key === f.key);
      if (!HEX32.test(f.key ?? "") || taken) {
        refused.push(`create ${f.key}`);
        return Response.json({ code: "key", description: "key taken" }, { status: 409 });
      }
      const id = `k${++made}x${Date.now().toString(36)}`;
      keys.set(id, { id, key: f.key, title: f.title });
      return Response.json({ code: 0, id, key: f.key });
    }
    if (pathname === "/api/update_key") {
      const k = keys.get(f.id);
      if (!k || k.key !== f.key) {
        refused.push(`update ${f.id} ${f.key}`);
        return Response.json({ code: "key", description: "no such key" }, { status: 404 });
      }
      k.title = f.title;
      return Response.json({ code: 0 });
    }
    return Response.json({ code: "404" }, { status: 404 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: () => server.shutdown(),
  };
}

/** The journey: sign in, create a key the page drew, rename it (the key sent again). */
function journey(keyField: string): EntrySpec[] {
  return [
    {
      method: "POST",
      url: `${RECORDED}/api/login`,
      body: JSON.stringify({ username: "admin", password: PASSWORD }),
      json: { code: 0, session_id: SESSION },
    },
    {
      method: "POST",
      url: `${RECORDED}/api/create_key`,
      body: JSON.stringify({ [keyField]: KEY, title: "Harbour monitor", session_id: SESSION }),
      json: { code: 0, id: "kmx35h56e03", key: KEY },
    },
    {
      method: "POST",
      url: `${RECORDED}/api/update_key`,
      body: JSON.stringify({
        id: "kmx35h56e03",
        [keyField]: KEY,
        title: "Harbour monitor (hourly)",
        session_id: SESSION,
      }),
      json: { code: 0 },
    },
  ];
}

Deno.test("convert har: a hex key the page drew, sent again and echoed, is the run's own", async () => {
  const { converted, flow, runs: [first, second], server } = await convertHarThenRun(
    standIn,
    harOf(journey("key")),
    { LOGIN_PASSWORD: PASSWORD },
    2,
  );
  assert.ok(!flow.includes(KEY) && !flow.includes(SESSION), flow);
  assert.doesNotMatch(converted.stderr, /_KEY\b/, converted.stderr);
  assert.match(converted.stderr, /LOGIN_PASSWORD/, converted.stderr);
  assert.match(flow, /\$\{RANDOM\.HEX_32\}/, flow);
  assert.equal(first.code, 0, first.stdout + flow);
  assert.equal(second.code, 0, second.stdout + flow);
  assert.deepEqual(server.refused, []);
});

Deno.test("convert har: a hex value under an API key's name, or a number, is not the page's", async () => {
  const { flow } = await convertHarText(harOf([
    ...journey("apiKey"),
    {
      method: "POST",
      url: `${RECORDED}/api/pin`,
      body: JSON.stringify({ secret_code: "4071938265019384", session_id: SESSION }),
      json: { code: 0, secret_code: "4071938265019384" },
    },
  ]));
  assert.ok(!flow.includes(KEY), flow);
  assert.match(flow, /apiKey: \$\{ENV\.[A-Z_]*API_KEY\}/, flow);
  assert.doesNotMatch(flow, /RANDOM\.HEX/, flow);
  assert.match(flow, /session_id: \$\{steps\.login\.capture\.session_id\}/, flow);
});

Deno.test("convert har: a hex token sent again but never echoed (a session's CSRF the recording did not see made) is asked, not drawn", async () => {
  // The recording starts after the page that handed the token out: only the server knows it.
  const csrf = "c5f0a9e2b7d14e63";
  const post = (i: number) => ({
    method: "POST",
    url: `${RECORDED}/chat/send`,
    mime: "application/x-www-form-urlencoded",
    body: `room=general&text=hello+${i}&csrf=${csrf}`,
    json: { ok: true },
  });
  const { flow } = await convertHarText(harOf([post(1), post(2), post(3)]));
  assert.doesNotMatch(flow, /RANDOM\.HEX/, flow);
  assert.equal(flow.match(/csrf: \$\{ENV\.[A-Z_]*CSRF\}/g)?.length, 3, flow);
});
