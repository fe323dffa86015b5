/**
 * `convert har` on a recording that lost one of an answer's two `Set-Cookie`
 * lines, as chrome-har does at times on Icinga Web 2's login page
 * (tests/real/icingaweb2_har_test.ts): the page sets `_chc` and the session
 * cookie, the recording shows `_chc` alone, and the login (whose form token
 * the page computed for that session) sends both. The session cookie read as
 * one from before the recording, so the summary asked for SESSION_COOKIE and
 * the login went without the live session: its token refused.
 *
 * What the converter does (lib/convert/correlate/unseen_cookies.ts): a cookie
 * no answer set, first sent right after an answer of its origin that set
 * others (or was the sender's page), is read from that answer live. One the
 * origin's first request already sends stays the user's to give.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, type PageSpec, passesTwice } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";

const PASSWORD = "keeper-typed-52";

/** A stand-in: the page sets `_chc` and a session with its form token; the login needs both. */
function standIn() {
  const tokens = new Map<string, string>();
  const signedIn = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /(?:^|; )sid=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (url.pathname === "/login" && req.method === "GET") {
      const fresh = crypto.randomUUID().replaceAll("-", "");
      const token = crypto.randomUUID().replaceAll("-", "");
      tokens.set(fresh, token);
      const res = htmlPage(url.origin, 200, loginForm(token));
      res.headers.append("set-cookie", "_chc=1; path=/");
      res.headers.append("set-cookie", `sid=${fresh}; path=/; HttpOnly`);
      return res;
    }
    if (url.pathname === "/login" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      if (!tokens.has(sid) || form.get("CSRFToken") !== tokens.get(sid)) {
        return htmlPage(url.origin, 500, "invalid CSRF token");
      }
      if (form.get("password") !== PASSWORD) return htmlPage(url.origin, 403, "wrong");
      signedIn.add(sid);
      return htmlPage(url.origin, 302, "", "/home");
    }
    if (url.pathname === "/home" && signedIn.has(sid)) return htmlPage(url.origin, 200, "home");
    return htmlPage(url.origin, 401, "sign in");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

/** The login page's form, its token computed for the page's session. */
function loginForm(token: string): string {
  return `<form method="post" action="/login"><input name="user"><input type="password" name="password"><input type="hidden" name="CSRFToken" value="${token}"></form>`;
}

const SID = "5f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f";
const TOKEN = "9a8b7c6d5e4f30211203f4e5d6c7b8a9";
const ORIGIN = "http://127.0.0.1:8300";

/** The journey recorded on another instance; `early` has the page's request send the session. */
function recording(early = false): string {
  const both = [{ name: "Cookie", value: `_chc=1; sid=${SID}` }];
  const referer = { name: "Referer", value: `${ORIGIN}/login` };
  const pages: PageSpec[] = [
    { method: "GET", path: "/login", headers: early ? both : [], text: loginForm(TOKEN) },
    { method: "GET", path: "/css/site.css", headers: [...both, referer], text: "" },
    {
      method: "POST",
      path: "/login",
      location: "/home",
      ...formPost(`user=keeper&password=${PASSWORD}&CSRFToken=${TOKEN}`),
      headers: [...formPost("").headers, ...both, referer],
    },
    { method: "GET", path: "/home", headers: both, text: "home" },
  ];
  const har = JSON.parse(pagesHar(ORIGIN, pages));
  // chrome-har kept one of the page's two Set-Cookie lines.
  har.log.entries[0].response.headers.push({ name: "Set-Cookie", value: "_chc=1; path=/" });
  har.log.entries[1].response.content.mimeType = "text/css";
  return JSON.stringify(har);
}

Deno.test("convert har: a session cookie no recorded answer set, first sent after the page that set another, is read from that page live, twice", async () => {
  const app = standIn();
  try {
    await passesTwice(recording(), app.origin, (flow, summary) => {
      assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
      assert.ok(!flow.includes(SID), flow);
    }, { LOGIN_PASSWORD: PASSWORD });
  } finally {
    await app.close();
  }
});

Deno.test("convert har: a session cookie the page's own request already sent is the user's, as before", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording(true));
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /SESSION_COOKIE/);
    assert.ok(!(await Deno.readTextFile(`${dir}/app.yaml`)).includes(SID));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
