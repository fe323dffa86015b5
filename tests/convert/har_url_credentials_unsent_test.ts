/**
 * `convert har` on a URL user part the browser never sent. A browser sends a URL's credentials
 * only in answer to a challenge (Fetch's "authentication fetch"), and a page may put made-up ones
 * in one URL on purpose: Fauxton, CouchDB's and PouchDB Server's single-page admin, logs out with
 * `DELETE http://_:_@host/_session` so that the browser forgets any Basic login, while its session
 * is the `AuthSession` cookie the sign-in set (measured by hand on PouchDB Server 4.2.0,
 * docs/real-servers-har.md). The converter took `_:_` for the Basic login the browser sent, and the
 * hidden-challenge rule then gave it to every request sent before the log-out: the flow asked for
 * `BASIC_PASSWORD` of user `_`, and every step sent Basic credentials the server refused (401),
 * 0 of 42 steps. Now a URL's credentials are that one request's, never given to earlier requests,
 * and a request answered 2xx that carried the session an earlier answer set (a cookie that answer
 * set, recorded or, when the recorder lost the request's cookies, held by the browser) sent none.
 * Widened to both HAR forms (Playwright's with the request's cookies, chrome-har's without), with
 * a page that passes real credentials in every URL left to the Radicale test
 * (`har_url_credentials_test.ts`).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const PASSWORD = "Lantern-Moss-42";

/** A stand-in for PouchDB Server: a cookie session, and Basic credentials refused unless right. */
function standIn() {
  const seen: string[] = [];
  const sessions = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const text = await req.text();
    const cookie = /AuthSession=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    const basic = req.headers.get("authorization");
    seen.push(`${req.method} ${path}${basic ? " basic" : ""}`);
    // CouchDB's rule: Basic credentials that are not a user's are refused, whatever the cookie.
    if (basic) return Response.json({ error: "unauthorized" }, { status: 401 });
    if (req.method === "POST" && path === "/_session") {
      if (new URLSearchParams(text).get("password") !== PASSWORD) {
        return Response.json({ error: "unauthorized" }, { status: 401 });
      }
      const id = crypto.randomUUID();
      sessions.add(id);
      return Response.json({ ok: true, name: "admin" }, {
        headers: { "set-cookie": `AuthSession=${id}; Path=/; HttpOnly` },
      });
    }
    const signedIn = cookie !== undefined && sessions.has(cookie);
    if (req.method === "GET" && path === "/_session") {
      return Response.json({ ok: true, userCtx: { name: signedIn ? "admin" : null } });
    }
    if (!signedIn) return Response.json({ error: "unauthorized" }, { status: 401 });
    if (req.method === "DELETE" && path === "/_session") {
      sessions.delete(cookie);
      return Response.json({ ok: true }, {
        headers: { "set-cookie": "AuthSession=; Path=/; HttpOnly" },
      });
    }
    return Response.json(["_replicator", "_users"]);
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, seen, close: () => server.shutdown() };
}

const SESSION = "YWRtaW46NkIwQzBFMjY6ryA_wfLLqFgJTV";

/** One XHR entry; `cookies` says whether the producer kept the request's `Cookie` (Playwright). */
function entry(
  method: string,
  url: string,
  answer: unknown,
  o: { cookie?: boolean; body?: string; setCookie?: string },
) {
  const headers = [{ name: "Accept", value: "application/json" }];
  if (o.cookie) headers.push({ name: "Cookie", value: `AuthSession=${SESSION}` });
  if (o.body) headers.push({ name: "Content-Type", value: "application/x-www-form-urlencoded" });
  return {
    startedDateTime: "2026-11-29T11:36:00.000Z",
    request: {
      method,
      url,
      headers,
      ...(o.body
        ? { postData: { mimeType: "application/x-www-form-urlencoded", text: o.body } }
        : {}),
    },
    response: {
      status: 200,
      headers: o.setCookie ? [{ name: "Set-Cookie", value: o.setCookie }] : [],
      content: { mimeType: "application/json", text: JSON.stringify(answer) },
    },
    _resourceType: "xhr",
  };
}

/** The journey: sign in by form, read, log out through a URL with made-up credentials. */
function recording(cookies: boolean): string {
  const at = "127.0.0.1:5984";
  return JSON.stringify({
    log: {
      creator: { name: cookies ? "Playwright" : "chrome-har" },
      entries: [
        entry("GET", `http://${at}/_session`, { ok: true, userCtx: { name: null } }, {}),
        entry("POST", `http://${at}/_session`, { ok: true, name: "admin" }, {
          body: `name=admin&password=${PASSWORD}`,
          setCookie: `AuthSession=${SESSION}; Path=/; HttpOnly`,
        }),
        entry("GET", `http://${at}/_all_dbs`, ["_replicator", "_users"], { cookie: cookies }),
        entry("DELETE", `http://_:_@${at}/_session`, { ok: true }, {
          cookie: cookies,
          setCookie: "AuthSession=; Path=/; HttpOnly",
        }),
      ],
    },
  });
}

for (const cookies of [true, false]) {
  const form = cookies ? "Playwright's form" : "chrome-har's form, the request's cookies lost";
  Deno.test(`convert har: a log-out URL's made-up user part is sent by no step, and no Basic password is asked (${form})`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-url-unsent-" });
    const app = standIn();
    try {
      const { converted, flow } = await convertHar(dir, recording(cookies));
      assert.ok(!/BASIC|auth:|authorization:|_:_@/i.test(flow), flow);
      assert.doesNotMatch(converted.stderr, /BASIC_/);
      const asked = [...flow.matchAll(/^#\s+([A-Z][A-Z0-9_]+)\s/gm)].map((m) => m[1])
        .filter((name) => name !== "BASE_URL");
      assert.equal(asked.length, 1, flow);
      assert.ok(!flow.includes(PASSWORD), flow);
      const env = { BASE_URL: app.origin, [asked[0]]: PASSWORD };
      for (const run of [1, 2]) {
        const result = await runCli(["run", `${dir}/flow.yaml`], { env });
        assert.equal(result.code, 0, `run ${run}\n${result.stdout}\n${flow}`);
      }
      assert.ok(!app.seen.some((s) => s.endsWith(" basic")), app.seen.join("\n"));
      assert.ok(app.seen.includes("DELETE /_session"), app.seen.join("\n"));
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
