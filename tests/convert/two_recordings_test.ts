/**
 * `flowrun convert har a.har b.har`: two recordings of the same journey. A
 * value that differs between them is dynamic (a capture, a fresh value, a
 * variable); a value that is equal is a constant. Proven on a hand-made
 * third shape where one recording is ambiguous (an app key named like a
 * secret, a constant tenant UUID, a two-letter session ticket, a request id
 * that must be fresh), and on two recorded apps the rule was not built from
 * (projectly, formapp): each pair converts to a flow that passes on a fresh
 * instance with only the header's variables set.
 */
import assert from "node:assert/strict";
import { PASSWORD as FORMAPP_PASSWORD, startFormapp } from "../apps/formapp/server.ts";
import { runCli } from "../support/cli.ts";
import {
  convertAndReplay,
  headerVariables,
  PROJECTLY_PASSWORD,
  startProjectly,
} from "../support/convert_apps.ts";

const APP_KEY = "3f2a9c4e8b7d6a5f1e0c9b8a7d6e5f4a";
const TENANT = "0b9c8f1e-3a52-4c1e-9d7e-2f0a4b6c8d10";

/**
 * The third shape: a script-era app whose page ships a static app key and a
 * tenant UUID (never in a response), hands each session a short ticket, and
 * refuses a request id it has seen (replay protection).
 */
function startLedger() {
  const tickets = new Set<string>();
  const seen = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.headers.get("x-app-key") !== APP_KEY) {
      return Response.json({ error: "app key" }, { status: 401 });
    }
    if (url.pathname === "/api/session" && req.method === "POST") {
      const ticket = `t${Math.floor(Math.random() * 90 + 10)}`;
      tickets.add(ticket);
      return Response.json({ ticket, ok: true }, { status: 201 });
    }
    const m = /^\/api\/tenants\/([^/]+)\/entries$/.exec(url.pathname);
    if (!m || req.method !== "POST") return Response.json({ error: "no route" }, { status: 404 });
    if (m[1] !== TENANT) return Response.json({ error: "no tenant" }, { status: 404 });
    if (!tickets.has(req.headers.get("x-ticket") ?? "")) return Response.json({}, { status: 403 });
    const body = await req.json();
    if (seen.has(body.request_id)) return Response.json({ error: "replayed" }, { status: 409 });
    seen.add(body.request_id);
    return Response.json({ saved: true, amount: body.amount }, { status: 201 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One recording of the ledger journey: a session, then two entries. */
function ledgerHar(ticket: string, requestIds: [string, string]): string {
  const entry = (
    path: string,
    headers: [string, string][],
    sent: unknown,
    status: number,
    body: unknown,
  ) => ({
    startedDateTime: "2026-11-24T10:00:00.000Z",
    time: 5,
    request: {
      method: "POST",
      url: `http://127.0.0.1:8801${path}`,
      httpVersion: "HTTP/1.1",
      headers: [["content-type", "application/json"], ["x-app-key", APP_KEY], ...headers]
        .map(([name, value]) => ({ name, value })),
      queryString: [],
      cookies: [],
      postData: { mimeType: "application/json", text: JSON.stringify(sent) },
    },
    response: {
      status,
      headers: [{ name: "content-type", value: "application/json" }],
      content: { mimeType: "application/json", text: JSON.stringify(body) },
    },
    _resourceType: "xhr",
  });
  const entries = [
    entry("/api/session", [], { client: "web" }, 201, { ticket, ok: true }),
    ...requestIds.map((id, i) =>
      entry(
        `/api/tenants/${TENANT}/entries`,
        [["x-ticket", ticket]],
        {
          request_id: id,
          amount: 12 + i,
        },
        201,
        { saved: true, amount: 12 + i },
      )
    ),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "hand" }, entries } });
}

/** Converts the recordings and runs the flow `runs` times as a new user; the conversion must succeed. */
async function convertAndRun(
  hars: string[],
  origin: string,
  known: (name: string) => string | undefined,
  runs = 1,
) {
  const replay = await convertAndReplay(hars, origin, known, runs);
  assert.equal(replay.converted.code, 0, replay.converted.stderr);
  return { ...replay, results: replay.runs };
}

Deno.test("two recordings: what one recording gets wrong, the second decides (hand-made third shape)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-ledger-" });
  const app = startLedger();
  try {
    const a = `${dir}/a.har`, b = `${dir}/b.har`;
    await Deno.writeTextFile(
      a,
      ledgerHar("t41", ["9d1e0b2c3a4f5e6d7c8b9a0f1e2d3c4b", "0a1b2c3d4e5f60718293a4b5c6d7e8f9"]),
    );
    await Deno.writeTextFile(
      b,
      ledgerHar("t77", ["5e4d3c2b1a09f8e7d6c5b4a392817060", "aa11bb22cc33dd44ee55ff6677889900"]),
    );
    // One recording guesses: the app key is a secret to set, the tenant a fresh UUID, the
    // ticket and the request ids literals. It cannot pass on a fresh instance.
    const single = await convertAndRun([a], app.origin, () => undefined);
    assert.ok(
      headerVariables(single.flow).some((v) => v.required && v.name === "APP_KEY"),
      single.flow,
    );
    assert.notEqual(single.results[0].code, 0, single.results[0].stdout);
    // Two recordings decide: differing → capture or fresh value; equal → constant, except a
    // credential: the app key, shaped like a secret and produced by no response, is still the
    // user's to set, however equal (issue 53, item 5: equality is no evidence either way).
    const pair = await convertAndRun(
      [a, b],
      app.origin,
      (name) => name === "APP_KEY" ? APP_KEY : undefined,
      2,
    );
    const required = headerVariables(pair.flow).filter((v) => v.required).map((v) => v.name);
    assert.deepEqual(required, ["APP_KEY"], pair.flow);
    assert.ok(!pair.flow.includes(APP_KEY), pair.flow);
    assert.ok(pair.flow.includes(`/tenants/${TENANT}/entries`), pair.flow);
    assert.match(pair.flow, /x-ticket: \$\{steps\.\w+\.capture\.ticket\}/);
    assert.match(pair.flow, /request_id: \$\{RANDOM\.HEX_32\}/);
    // Run twice on one instance: the request ids are fresh on every run.
    for (const run of pair.results) assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(
      pair.converted.stderr,
      /Compared with the second recording: 3 requests paired; 1 value equal in both kept as a constant, 1 differing value captured, 2 made fresh, 0 read from a variable; 1 credential equal in both still read from a variable/,
    );
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("two recordings: entries the other recording lacks are named, and three files are refused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-ledger-" });
  try {
    const a = `${dir}/a.har`, b = `${dir}/b.har`;
    await Deno.writeTextFile(
      a,
      ledgerHar("t41", ["9d1e0b2c3a4f5e6d7c8b9a0f1e2d3c4b", "0a1b2c3d4e5f60718293a4b5c6d7e8f9"]),
    );
    const short = JSON.parse(
      ledgerHar("t77", ["5e4d3c2b1a09f8e7d6c5b4a392817060", "aa11bb22cc33dd44ee55ff6677889900"]),
    );
    short.log.entries.pop();
    await Deno.writeTextFile(b, JSON.stringify(short));
    const run = await runCli(["convert", "har", a, b, "-o", `${dir}/f.yaml`]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /2 requests paired/);
    assert.match(
      run.stderr,
      /Not in the second recording \(kept as recorded, no evidence\): 1 \(POST \/api\/tenants\/0b9c8f1e-3a52-4c1e-9d7e-2f0a4b6c8d10\/entries\)/,
    );
    const three = await runCli(["convert", "har", a, b, a]);
    assert.equal(three.code, 2);
    assert.match(three.stderr, /two recordings of the same journey; got 3 files/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const PROJECTLY = new URL("../apps/projectly/", import.meta.url).pathname;
Deno.test("two recordings of projectly (bearer SPA) pass on a fresh instance; the password stays a variable", async () => {
  const app = await startProjectly({ jobMs: 300 });
  try {
    const { converted, flow, env, results } = await convertAndRun(
      [`${PROJECTLY}full.pw.har`, `${PROJECTLY}full2.pw.har`],
      app.origin,
      (name) => name === "LOGIN_PASSWORD" ? PROJECTLY_PASSWORD : undefined,
    );
    assert.deepEqual(Object.keys(env).filter((n) => !/BASE_URL/.test(n)), ["LOGIN_PASSWORD"]);
    assert.equal(results[0].code, 0, results[0].stdout.slice(0, 4000));
    assert.match(
      converted.stderr,
      /Compared with the second recording: \d+ requests paired; .*differing values captured/,
    );
    // Equal in both, but what a user holds: never written into the flow.
    assert.match(converted.stderr, /1 credential equal in both still read from a variable/);
    assert.ok(!flow.includes(PROJECTLY_PASSWORD));
  } finally {
    await app.close();
  }
});

const FORMAPP = new URL("../apps/formapp/recordings/", import.meta.url).pathname;

Deno.test("two recordings of formapp (server-rendered form login) pass on a fresh instance", async () => {
  const app = startFormapp();
  try {
    const { converted, results } = await convertAndRun(
      [`${FORMAPP}journey.pw.har`, `${FORMAPP}journey2.pw.har`],
      app.origin,
      (name) => name === "LOGIN_PASSWORD" ? FORMAPP_PASSWORD : undefined,
    );
    assert.equal(results[0].code, 0, converted.stderr + results[0].stdout.slice(0, 4000));
    assert.match(converted.stderr, /Compared with the second recording: 17 requests paired/);
    // The same journey on the same app version: every request has its partner.
    assert.doesNotMatch(converted.stderr, /Not in the second recording|Only in the second/);
    assert.match(converted.stderr, /1 credential equal in both still read from a variable/);
  } finally {
    await app.close();
  }
});
