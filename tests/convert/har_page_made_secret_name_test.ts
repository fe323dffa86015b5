/**
 * `convert har` on a random UUID the page made and sent under a name that sounds like a
 * secret. Seen on SQLPad 3.1 (docs/real-servers-har.md): its query editor sends
 * `cacheKey: <uuid v4>` with every run of a query (the answer echoes it), and its users page
 * sends `passwordResetId: <uuid v4>` to make a reset link (the answer and the next listing
 * echo it). No answer produced either before it was sent; the page made them. Both were asked
 * as variables to set (`QUERY_RESULT_CACHE_KEY`, `UPDATE_USER_2_PASSWORD_RESET_ID`) for the
 * names `…Key` and `password…`, so the flow was refused before sending (exit 2): nobody holds a
 * value the page drew at random. Evidence, not the name: a UUID v4 no earlier answer produced,
 * sent again or echoed later, is the run's own (one value per run) under any name but one that
 * says a user holds it (a password, an API key, a PIN): a name ending in `id` names the record,
 * not the secret. A UUID under `apiKey` or a password's name stays asked.
 *
 * The stand-in runs on 127.0.0.1: a sign-in sets a session cookie, and a reset id another
 * account already holds is refused (409), so a flow that replays the recorded one fails its
 * second run on the same instance.
 */
import assert from "node:assert/strict";
import { convertHarText, convertHarThenRun } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:5011";
const CACHE = "7994d0e6-3ecd-44f7-85e9-fec9156fe059";
const RESET = "0271f9bd-c1f7-4c27-8f3b-a5a026ee7630";
const PASSWORD = "Harbour-Lights-42";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The fields of a JSON or form body, or of a query. */
async function fieldsOf(req: Request): Promise<Record<string, string>> {
  const url = new URL(req.url);
  const out: Record<string, string> = Object.fromEntries(url.searchParams);
  const text = await req.text();
  if (text.startsWith("{")) Object.assign(out, JSON.parse(text));
  else if (text !== "") Object.assign(out, Object.fromEntries(new URLSearchParams(text)));
  return out;
}

/** The stand-in: sign-in, a query run by cache key, accounts with unique reset ids. */
function standIn() {
  const sessions = new Set<string>();
  const resets = new Map<string, string>();
  const refused: string[] = [];
  let users = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    const f = await fieldsOf(req);
    if (pathname === "/api/signin") {
      if (f.password !== PASSWORD) return Response.json({ error: "bad" }, { status: 401 });
      const sid = crypto.randomUUID().slice(0, 8);
      sessions.add(sid);
      return Response.json({}, { headers: { "set-cookie": `sid=${sid}; Path=/` } });
    }
    const sid = req.headers.get("cookie")?.match(/sid=(\w+)/)?.[1] ?? "";
    if (!sessions.has(sid)) return Response.json({ error: "sign in" }, { status: 401 });
    const cacheKey = f.cacheKey ?? f.cache_key;
    if (pathname === "/api/query-result") {
      if (!UUID.test(cacheKey ?? "")) {
        refused.push(`cache key ${cacheKey}`);
        return Response.json({ error: "cache key" }, { status: 400 });
      }
      return Response.json({ queryResult: { cacheKey, rows: [["bolt", 12]] } });
    }
    if (pathname === "/api/users" && req.method === "POST") {
      users++;
      return Response.json({ user: { _id: `u${users}x${Date.now()}`, email: f.email } });
    }
    const user = pathname.match(/^\/api\/users\/(\w+)$/)?.[1];
    if (user && req.method === "PUT") {
      const reset = f.passwordResetId ?? f.password_reset_id ?? f.resetToken;
      const holder = resets.get(reset ?? "");
      if (!UUID.test(reset ?? "") || (holder && holder !== user)) {
        refused.push(`reset ${reset}`);
        return Response.json({ error: "reset id taken" }, { status: 409 });
      }
      resets.set(reset!, user);
      return Response.json({ user: { _id: user, passwordResetId: reset } });
    }
    if (pathname === "/api/users") {
      return Response.json({
        users: [...resets].map(([r, u]) => ({ _id: u, passwordResetId: r })),
      });
    }
    return Response.json({ error: "not found" }, { status: 404 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: () => server.shutdown(),
  };
}

/** The journey: sign in, run a query twice by one cache key, make a user and its reset link. */
function journey(resetField: string, how: "json" | "form", cacheIn: "json" | "query"): EntrySpec[] {
  const resetBody = how === "json"
    ? { body: JSON.stringify({ [resetField]: RESET }) }
    : { body: `${resetField}=${RESET}`, mime: "application/x-www-form-urlencoded" };
  const run = (text: string): EntrySpec =>
    cacheIn === "json"
      ? {
        method: "POST",
        url: `${RECORDED}/api/query-result`,
        body: JSON.stringify({ cacheKey: CACHE, queryText: text }),
        json: { queryResult: { cacheKey: CACHE, rows: [["bolt", 12]] } },
      }
      : {
        method: "POST",
        url: `${RECORDED}/api/query-result?cache_key=${CACHE}`,
        body: JSON.stringify({ queryText: text }),
        json: { queryResult: { cacheKey: CACHE, rows: [["bolt", 12]] } },
      };
  return [
    {
      method: "POST",
      url: `${RECORDED}/api/signin`,
      body: JSON.stringify({ email: "admin@example.com", password: PASSWORD }),
      json: {},
      setCookies: [["sid", "a1b2c3d4"]],
    },
    run("SELECT name FROM items"),
    run("SELECT name FROM items ORDER BY qty"),
    {
      method: "POST",
      url: `${RECORDED}/api/users`,
      body: JSON.stringify({ email: "reader@example.com" }),
      json: { user: { _id: "Z0iAL8NBafqCTg6n", email: "reader@example.com" } },
    },
    {
      method: "PUT",
      url: `${RECORDED}/api/users/Z0iAL8NBafqCTg6n`,
      ...resetBody,
      json: { user: { _id: "Z0iAL8NBafqCTg6n", passwordResetId: RESET } },
    },
    {
      method: "GET",
      url: `${RECORDED}/api/users`,
      json: { users: [{ _id: "Z0iAL8NBafqCTg6n", passwordResetId: RESET }] },
    },
  ];
}

/** Converts `specs` with default options, then runs the flow twice on one stand-in. */
async function convertAndRunTwice(specs: EntrySpec[]) {
  const { converted, flow, runs: [first, second], server } = await convertHarThenRun(
    standIn,
    harOf(specs),
    { LOGIN_PASSWORD: PASSWORD },
    2,
  );
  return { flow, summary: converted.stderr, first, second, refused: server.refused };
}

const SPELLINGS: [string, "json" | "form", "json" | "query"][] = [
  ["passwordResetId", "json", "json"],
  ["password_reset_id", "form", "json"],
  ["resetToken", "json", "query"],
];

for (const [field, how, cacheIn] of SPELLINGS) {
  Deno.test(`convert har: a UUID the page made under ${field} (${how}) and a cache key (${cacheIn}) is the run's own`, async () => {
    const { flow, summary, first, second, refused } = await convertAndRunTwice(
      journey(field, how, cacheIn),
    );
    assert.ok(!flow.includes(RESET) && !flow.includes(CACHE), flow);
    assert.doesNotMatch(summary, /CACHE_KEY|RESET_ID|RESET_TOKEN/, summary);
    assert.match(summary, /LOGIN_PASSWORD/, summary);
    assert.equal(first.code, 0, first.stdout + flow);
    assert.equal(second.code, 0, second.stdout + flow);
    assert.deepEqual(refused, []);
  });
}

Deno.test("convert har: a UUID under an API key's or a password's name stays asked, echoed or not", async () => {
  const KEY = "5c36d76a-9531-4083-b683-74b08240048d";
  const { flow } = await convertHarText(harOf([
    {
      method: "POST",
      url: `${RECORDED}/api/keys`,
      body: JSON.stringify({ apiKey: KEY }),
      json: { apiKey: KEY },
    },
    {
      method: "POST",
      url: `${RECORDED}/api/keys`,
      body: JSON.stringify({ apiKey: KEY }),
      json: {},
    },
    {
      method: "POST",
      url: `${RECORDED}/api/accounts`,
      body: JSON.stringify({ name: "ann", newPassword: RESET }),
      json: { name: "ann" },
    },
    { method: "GET", url: `${RECORDED}/api/accounts`, json: [{ name: "ann", newPassword: RESET }] },
  ]));
  assert.ok(!flow.includes(KEY) && !flow.includes(RESET), flow);
  assert.match(flow, /apiKey: \$\{ENV\.[A-Z_]*API_KEY\}/, flow);
  assert.match(flow, /newPassword: \$\{ENV\.[A-Z_]*PASSWORD\}/, flow);
  assert.doesNotMatch(flow, /RANDOM/, flow);
});
