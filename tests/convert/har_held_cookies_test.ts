/**
 * `convert har` on a recording that lost both ways of telling the session cookie, as chrome-har
 * does at times on Icinga Web 2's login (tests/real/icingaweb2_har_test.ts): the login page's
 * answer sets `_chc` and the session cookie and keeps `_chc` alone, and the form's post is
 * recorded with the page's provisional headers, no `Cookie` among them. Only the stylesheet and
 * the script the page loaded (static assets, dropped) show that the browser held the session.
 * The post went with the jar's cookies (`_chc`) and its token, computed for the session, was
 * refused.
 *
 * What the converter does (lib/convert/held_cookies.ts): a kept request recorded without its
 * cookies and without its wire headers (`Host`) is given the cookies the dropped requests of its
 * origin sent since the kept request before it, each read from the answer that set it. A post
 * recorded with its wire headers and no `Cookie` went without cookies (`credentials: 'omit'`),
 * and another origin's requests show nothing of this one's cookies: both stay as recorded.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, type PageSpec, passesTwice } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";

const PASSWORD = "keeper-typed-53";

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

/** What the recording differs in: the post's wire headers kept, the assets on another origin. */
interface Shape {
  postWire?: boolean;
  assetsElsewhere?: boolean;
}

/** The journey recorded on another instance, in chrome-har's shape. */
function recording({ postWire = false, assetsElsewhere = false }: Shape = {}): string {
  // The headers only the network stack adds, which chrome-har records from DevTools' extra info.
  const wire = [
    { name: "Host", value: "127.0.0.1:8300" },
    { name: "Accept-Encoding", value: "gzip, deflate" },
    { name: "Connection", value: "keep-alive" },
  ];
  const both = [{ name: "Cookie", value: `_chc=1; sid=${SID}` }];
  const referer = { name: "Referer", value: `${ORIGIN}/login` };
  const pages: PageSpec[] = [
    { method: "GET", path: "/login", headers: wire, text: loginForm(TOKEN) },
    { method: "GET", path: "/css/site.css", headers: [...wire, ...both, referer], text: "" },
    { method: "GET", path: "/js/site.js", headers: [...wire, ...both, referer], text: "" },
    {
      method: "POST",
      path: "/login",
      location: "/home",
      ...formPost(`user=keeper&password=${PASSWORD}&CSRFToken=${TOKEN}`),
      headers: [...formPost("").headers, referer, ...(postWire ? wire : [])],
    },
    { method: "GET", path: "/home", headers: [...wire, ...both], text: "home" },
  ];
  const har = JSON.parse(pagesHar(ORIGIN, pages));
  // chrome-har kept one of the page's two Set-Cookie lines.
  har.log.entries[0].response.headers.push({ name: "Set-Cookie", value: "_chc=1; path=/" });
  for (const [i, type, mime] of [[1, "stylesheet", "text/css"], [2, "script", "text/javascript"]]) {
    const entry = har.log.entries[i as number];
    entry._resourceType = type;
    entry.response.content.mimeType = mime;
    if (assetsElsewhere) entry.request.url = entry.request.url.replace(ORIGIN, "http://cdn.test");
  }
  return JSON.stringify(har);
}

Deno.test("convert har: a form post recorded without its cookies goes with the session cookie the page's dropped assets sent, read from the page live, twice", async () => {
  const app = standIn();
  try {
    await passesTwice(recording(), app.origin, (flow, summary) => {
      assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
      assert.ok(!flow.includes(SID), flow);
      assert.match(loginStep(flow), /cookie: _chc=1; sid=\$\{steps\.open_login\.capture\.sid\}/);
    }, { LOGIN_PASSWORD: PASSWORD });
  } finally {
    await app.close();
  }
});

Deno.test("convert har: a post recorded with its wire headers and no Cookie, or assets of another origin, give the post no cookie of theirs", async () => {
  for (const shape of [{ postWire: true }, { assetsElsewhere: true }]) {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${dir}/app.har`, recording(shape));
      const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
      assert.equal(converted.code, 0, converted.stderr);
      const flow = await Deno.readTextFile(`${dir}/app.yaml`);
      assert.doesNotMatch(loginStep(flow), /cookie: [^\n]*sid=/, JSON.stringify(shape));
      assert.ok(!flow.includes(SID), flow);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

/** The text of the flow's login step, up to the next step. */
function loginStep(flow: string): string {
  const at = flow.indexOf("- name: login\n");
  assert.ok(at >= 0, flow);
  const next = flow.indexOf("\n  - name:", at);
  return flow.slice(at, next < 0 ? undefined : next);
}
