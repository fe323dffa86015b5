/**
 * `convert har` on a form app's journey exported by Chrome DevTools'
 * default "Export HAR (sanitized)": creator `WebInspector`, no `Cookie` or
 * `Set-Cookie` header, both `cookies` arrays empty. The login page sets
 * the session cookie, the login post and the page after it need it. The
 * flow sent no cookie and the post was refused (403).
 *
 * What the converter does (lib/convert/har_sanitized.ts): the run keeps the
 * cookies the live server sets (`options: {cookie_jar: true}`), as the
 * browser did, and the summary says once that the recording is sanitized
 * and what cannot be known. A recording of another producer that sent no
 * cookie converts as before.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, type PageSpec, passesTwice } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";

const PASSWORD = "keeper-typed-61";
const ORIGIN = "http://127.0.0.1:8301";

/** A stand-in: the login page sets the session, the post and the home page need it. */
function standIn() {
  const sessions = new Set<string>();
  const signedIn = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /(?:^|; )sid=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (url.pathname === "/login" && req.method === "GET") {
      const fresh = crypto.randomUUID().replaceAll("-", "");
      sessions.add(fresh);
      const res = htmlPage(url.origin, 200, LOGIN_FORM);
      res.headers.append("set-cookie", `sid=${fresh}; path=/; HttpOnly`);
      return res;
    }
    if (url.pathname === "/login" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      if (!sessions.has(sid) || form.get("password") !== PASSWORD) {
        return htmlPage(url.origin, 403, "no session");
      }
      signedIn.add(sid);
      return htmlPage(url.origin, 302, "", "/home");
    }
    if (url.pathname === "/home" && signedIn.has(sid)) return htmlPage(url.origin, 200, "home");
    return htmlPage(url.origin, 401, "sign in");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

const LOGIN_FORM =
  `<form method="post" action="/login"><input name="user"><input type="password" name="password"></form>`;

/** The journey as `creator` exported it, with no cookie anywhere. */
function recording(creator: string): string {
  const pages: PageSpec[] = [
    { method: "GET", path: "/login", text: LOGIN_FORM },
    {
      method: "POST",
      path: "/login",
      location: "/home",
      ...formPost(`user=keeper&password=${PASSWORD}`),
    },
    { method: "GET", path: "/home", text: "home" },
  ];
  const har = JSON.parse(pagesHar(ORIGIN, pages));
  har.log.creator = { name: creator, version: "537.36" };
  return JSON.stringify(har);
}

Deno.test("convert har: DevTools' sanitized export of a cookie session keeps the live server's cookies, says so, and passes twice", async () => {
  const app = standIn();
  try {
    await passesTwice(recording("WebInspector"), app.origin, (flow, summary) => {
      assert.match(flow, /^options:\n\s+cookie_jar: true$/m, flow);
      assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
      const said = summary.match(/Chrome DevTools' sanitized export/g) ?? [];
      assert.equal(said.length, 1, summary);
      assert.match(summary, /Export HAR \(with sensitive data\)/);
      assert.ok(!flow.includes(PASSWORD), flow);
    }, { LOGIN_PASSWORD: PASSWORD });
  } finally {
    await app.close();
  }
});

Deno.test("convert har: another producer's recording with no cookie converts as before, without the cookie jar or the note", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording("Playwright"));
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/app.yaml`);
    assert.doesNotMatch(flow, /cookie_jar/, flow);
    assert.doesNotMatch(converted.stderr, /sanitized/, converted.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har --verify: DevTools' sanitized export of a cookie session is replayed with the live server's cookies, every step passing with no repair", async () => {
  const app = standIn();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording("WebInspector"));
    const verified = await runCli(
      ["convert", "har", `${dir}/app.har`, "--verify", app.origin, "-o", `${dir}/app.yaml`],
      { env: { LOGIN_PASSWORD: PASSWORD } },
    );
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stderr, /^Verified 3 steps against \S+: all pass\.$/m);
    assert.match(await Deno.readTextFile(`${dir}/app.yaml`), /^options:\n\s+cookie_jar: true$/m);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
