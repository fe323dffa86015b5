/**
 * `convert har` on a sign-in cookie set without a `Path`, which the page clears under another
 * path. Seen on NZBGet 21.0's form login (docs/real-servers-har.md): the sign-in
 * (`GET /jsonrpc/version` with the typed credentials) sets `Auth-Token=<token>` with no `Path`,
 * so the browser keeps it under `/jsonrpc`; each page load (`GET /`) answers `Auth-Token=`,
 * an empty cookie under `/`; a call to `/jsonrpc/...` sends both, the token first. Two
 * classes:
 *
 * - the jar, keyed by name alone, let the page's clearing delete the token, so the requests
 *   chrome-har recorded without cookies were sent without it (401); a cookie is now held under
 *   its path (its `Path`, else the folder of the URL that set it) and sent to URLs at or below
 *   it, as a browser does;
 * - a cookie sent empty (`Auth-Token=`) and one saying how the page signs in
 *   (`Auth-Type=form`) were asked of the user as `SESSION_COOKIE` (the empty one then matched
 *   inside later headers as `RECORDED_SECRET`): an empty value, or a plain word under a name
 *   that describes a credential, holds none.
 *
 * The stand-in runs on 127.0.0.1 and behaves as described; the two recordings have the shapes
 * Playwright and chrome-har gave. The sign-in's `X-Authorization: Basic …` is the step's
 * `auth: basic` naming that header, so the one thing asked is the password
 * (har_basic_header_test.ts).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const RECORDED = "http://127.0.0.1:6789";
const TOKEN = "8s0DgCREftmbFPhcagdGwNT00NdrtbzBBzcR93vnuSy9FNlP";
const BASIC = `Basic ${btoa("admin:s3cret-pass-1")}`;

function standIn() {
  const tokens = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/") {
      const headers = new Headers({ "content-type": "text/html" });
      headers.append("set-cookie", "Auth-Type=form");
      headers.append("set-cookie", "Auth-Token=; HttpOnly");
      return new Response("<html><body>ui</body></html>", { headers });
    }
    if (req.headers.get("x-authorization") === BASIC) {
      const token = crypto.randomUUID().replaceAll("-", "");
      tokens.add(token);
      return Response.json({ result: "21.0" }, {
        headers: { "set-cookie": `Auth-Token=${token}; HttpOnly` },
      });
    }
    const sent = (req.headers.get("cookie") ?? "").split(/;\s*/)
      .filter((k) => k.startsWith("Auth-Token=")).map((k) => k.slice(11));
    if (!sent.some((t) => tokens.has(t))) return new Response("", { status: 401 });
    return Response.json({ result: pathname.endsWith("/listgroups") ? [] : { ok: true } });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

type Header = [string, string];
const header = ([name, value]: Header) => ({ name, value });

function entry(
  path: string,
  sent: Header[],
  setCookie: string | undefined,
  body: { mimeType: string; text: string },
) {
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    request: { method: "GET", url: `${RECORDED}${path}`, headers: sent.map(header) },
    response: {
      status: 200,
      headers: setCookie === undefined ? [] : [{ name: "Set-Cookie", value: setCookie }],
      content: body,
    },
  };
}

const page = { mimeType: "text/html", text: "<html><body>ui</body></html>" };
const json = (result: unknown) => ({
  mimeType: "application/json",
  text: JSON.stringify({ result }),
});

/** The journey: page, sign-in, page again (clears `/`'s token), a call; `cookies` as recorded. */
function journey(recordsCookies: boolean) {
  const both = `Auth-Type=form; Auth-Token=${TOKEN}; Auth-Type=form; Auth-Token=`;
  // chrome-har joins Set-Cookie lines with a newline, Playwright writes one header each.
  const setCleared = "Auth-Type=form\nAuth-Token=; HttpOnly";
  return [
    entry("/", [], setCleared, page),
    entry(
      "/jsonrpc/version",
      [["X-Authorization", BASIC], ["Cookie", "Auth-Type=form; Auth-Token="]],
      `Auth-Token=${TOKEN}; HttpOnly`,
      json("21.0"),
    ),
    entry("/", [["Cookie", "Auth-Type=form; Auth-Token="]], setCleared, {
      ...page,
      text: "<html><body>ui, signed in</body></html>",
    }),
    // chrome-har lost this call's cookies (DevTools' extra info came late), not the next one's.
    entry(
      "/jsonrpc/status",
      recordsCookies ? [["Cookie", both]] : [],
      undefined,
      json({ ok: true }),
    ),
    entry("/jsonrpc/listgroups", [["Cookie", both]], undefined, json([])),
  ];
}

async function convertAndRun(entries: unknown[]) {
  const dir = await Deno.makeTempDir();
  const server = standIn();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, JSON.stringify({ log: { entries } }));
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/f.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/f.yaml`);
    const env = { BASE_URL: server.origin, BASIC_PASSWORD: "s3cret-pass-1" };
    const run = await runCli(["run", `${dir}/f.yaml`], { env });
    return { flow, summary: converted.stderr, run };
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

for (const [producer, recordsCookies] of [["Playwright", true], ["chrome-har", false]] as const) {
  Deno.test(`convert har: a token cookie set without a Path outlives the page's clearing (${producer})`, async () => {
    const { flow, summary, run } = await convertAndRun(journey(recordsCookies));
    assert.match(summary, /Set before running: BASIC_PASSWORD\.\n/);
    assert.doesNotMatch(flow, /SESSION_COOKIE|RECORDED_SECRET/);
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  });
}

Deno.test("convert har: an empty cookie and one that says how the page signs in are no session to ask for", async () => {
  // Held from before the recording: no answer of it set them.
  const { flow, summary, run } = await convertAndRun([
    entry(
      "/jsonrpc/version",
      [["X-Authorization", BASIC], ["Cookie", "Auth-Type=form; Auth-Token="]],
      `Auth-Token=${TOKEN}; HttpOnly`,
      json("21.0"),
    ),
    entry(
      "/jsonrpc/status",
      [["Cookie", `Auth-Type=form; Auth-Token=${TOKEN}; Auth-Token=`]],
      undefined,
      json({ ok: true }),
    ),
  ]);
  assert.match(summary, /Set before running: BASIC_PASSWORD\.\n/);
  assert.doesNotMatch(flow, /SESSION_COOKIE|RECORDED_SECRET/);
  assert.match(flow, /cookie: Auth-Type=form; Auth-Token=\n/);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
});
