/**
 * `convert har` on chrome-har's recording of a sign-in whose cookies it lost, when the cookie the
 * browser held then came from a page the flow drops. ungit 1.5.30's page (`GET /`) sets an
 * anonymous `connect.sid`, its scripts send it back, and chrome-har recorded the sign-in
 * (`POST /api/login`) without its cookies (measured by hand, docs/real-servers-har.md). The
 * converter filled the sign-in's cookie from what the dropped scripts showed the browser held, a
 * value no step's answer produces, and asked for it as `SESSION_COOKIE`: run as printed, nothing
 * was sent (exit 2). A held cookie whose value the answer of a dropped request set is that old
 * instance's and the flow cannot hold it: the sign-in goes without it, as on a first visit, and
 * the session its answer sets is captured. A cookie the dropped requests show that no recorded
 * answer set (Icinga Web 2's session, its `Set-Cookie` lost) is still given
 * (`har_held_cookies_test.ts`).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";
import { harEntry } from "../support/har_entry.ts";

const PASSWORD = "Quill-Harbor-77";

/** A stand-in for express-session behind passport: a sign-in makes a session, reads need it. */
function standIn() {
  const sessions = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const sid = /connect\.sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    if (req.method === "POST" && path === "/api/login") {
      const body = await req.json();
      if (body.password !== PASSWORD) return Response.json({ error: "no" }, { status: 401 });
      const id = `s%3A${crypto.randomUUID()}`;
      sessions.add(id);
      return Response.json({ ok: true }, {
        headers: { "set-cookie": `connect.sid=${id}; Path=/; HttpOnly` },
      });
    }
    await req.body?.cancel();
    if (path === "/api/loggedin") return Response.json({ loggedIn: false });
    if (path === "/api/me") {
      return sid !== undefined && sessions.has(sid)
        ? Response.json({ user: "ada" })
        : Response.json({ error: "authentication-required" }, { status: 401 });
    }
    return new Response("<html><body>app</body></html>", {
      headers: { "content-type": "text/html", "set-cookie": `connect.sid=anon; Path=/` },
    });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, close: () => server.shutdown() };
}

const AT = "http://127.0.0.1:18751";
const ANON = "s%3AjfBZFqg8DxvPDGgCbSrRn2NFeAsLwzVn.CSaD";
const AUTHED = "s%3As0s9rLbas3NJ4qhwhmx0Wjfvt_YZwqob.a8aQ";

function entry(method: string, path: string, o: {
  type: string;
  mime: string;
  text: string;
  cookie?: string;
  setCookie?: string;
  body?: string;
}) {
  return harEntry(AT, method, path, { started: "2026-11-29T11:56:00.000Z", ...o });
}

/** chrome-har's form: the page and a script with cookies; the reads and the sign-in without. */
function recording(): string {
  return JSON.stringify({
    log: {
      creator: { name: "chrome-har" },
      entries: [
        entry("GET", "/", {
          type: "document",
          mime: "text/html",
          text: "<html><body>app</body></html>",
          setCookie: `connect.sid=${ANON}; Path=/; HttpOnly`,
        }),
        entry("GET", "/api/loggedin", {
          type: "xhr",
          mime: "application/json",
          text: '{"loggedIn":false}',
        }),
        entry("GET", "/js/app.js", {
          type: "script",
          mime: "application/javascript",
          text: "void 0;",
          cookie: `connect.sid=${ANON}`,
        }),
        entry("POST", "/api/login", {
          type: "xhr",
          mime: "application/json",
          text: '{"ok":true}',
          body: JSON.stringify({ username: "ada", password: PASSWORD }),
          setCookie: `connect.sid=${AUTHED}; Path=/; HttpOnly`,
        }),
        entry("GET", "/api/me", { type: "xhr", mime: "application/json", text: '{"user":"ada"}' }),
      ],
    },
  });
}

Deno.test("convert har: a cookie held from a page the flow drops is not asked for; the sign-in goes without it and the run passes twice", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-held-dropped-" });
  const app = standIn();
  try {
    const { converted, flow } = await convertHar(dir, recording());
    assert.doesNotMatch(converted.stderr, /SESSION_COOKIE/);
    assert.ok(!flow.includes(ANON) && !flow.includes(PASSWORD), flow);
    const asked = [...flow.matchAll(/^#\s+([A-Z][A-Z0-9_]+)\s/gm)].map((m) => m[1])
      .filter((name) => name !== "BASE_URL");
    assert.deepEqual(asked, ["LOGIN_PASSWORD"], flow);
    const env = { BASE_URL: app.origin, LOGIN_PASSWORD: PASSWORD };
    for (const run of [1, 2]) {
      const result = await runCli(["run", `${dir}/flow.yaml`], { env });
      assert.equal(result.code, 0, `run ${run}\n${result.stdout}\n${flow}`);
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
