/**
 * `convert har` on chrome-har's recording of a form login that renews the
 * session, as Adminer's does (tests/real/adminer_har_test.ts): the login page
 * sets `sid`, the login `POST` answers 302 with a new `sid`, the page it
 * leads to takes only the new one. chrome-har recorded the `POST` with no
 * cookie and gave the page after it two `Cookie` headers, the `POST`'s
 * (the old `sid`) first, its own after. The flow sent both, the old first;
 * the server read the first and answered the login page (403): 2 of 25 steps
 * passed.
 *
 * What the converter does (lib/convert/redirects.ts): of a redirected-to
 * request's several `Cookie` headers, when an earlier one holds a cookie the
 * last sends with another value (a stale one), it keeps the last, the
 * browser's own; the earlier goes to the redirect's request when that was
 * recorded with none. Headers that agree are left as recorded.
 */
import assert from "node:assert/strict";
import { parseHar } from "../../lib/convert/har_model.ts";
import { reattachRedirectCookies } from "../../lib/convert/redirects.ts";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

const ORIGIN = "http://127.0.0.1:8300";

/** The recording: the login page, the login (302, a new sid), the page it leads to. */
function recording(): string {
  const har = JSON.parse(pagesHar(ORIGIN, [
    { method: "GET", path: "/index.php", text: '<form method="post"><input name="user"></form>' },
    { method: "POST", path: "/index.php", location: "/index.php?db=x", ...formPost("user=ann") },
    {
      method: "GET",
      path: "/index.php?db=x",
      text: "Database x",
      headers: [{ name: "Cookie", value: "sid=old8e2a9c1" }, {
        name: "Cookie",
        value: "sid=new5f0b7d3",
      }],
    },
  ]));
  const set = (i: number, value: string) =>
    har.log.entries[i].response.headers.push({ name: "Set-Cookie", value: `sid=${value}` });
  set(0, "old8e2a9c1");
  set(1, "new5f0b7d3");
  return JSON.stringify(har);
}

/** A stand-in whose login renews the session: only the renewed sid opens the database page. */
function standIn() {
  let n = 0;
  const renewed = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const sid = /(?:^|;\s*)sid=([^;]*)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    const cookie = (v: string) => ({ "set-cookie": `sid=${v}` });
    if (req.method === "POST") {
      const next = `new${++n}x${crypto.randomUUID().slice(0, 6)}`;
      renewed.add(next);
      return new Response(null, {
        status: 302,
        headers: { location: `${url.origin}/index.php?db=x`, ...cookie(next) },
      });
    }
    if (url.searchParams.has("db")) {
      return htmlPage(
        url.origin,
        renewed.has(sid) ? 200 : 403,
        renewed.has(sid) ? "Database x" : "Login",
      );
    }
    const page = htmlPage(url.origin, 200, '<form method="post"><input name="user"></form>');
    page.headers.set("set-cookie", `sid=old${++n}y${crypto.randomUUID().slice(0, 6)}`);
    return page;
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

Deno.test("convert har: a page a redirect led to sends its own Cookie header, not the redirect's recorded before it, twice", async () => {
  const app = standIn();
  try {
    await passesTwice(recording(), app.origin, (flow) => {
      assert.doesNotMatch(flow, /sid=[^\n]*sid=/, flow);
    });
  } finally {
    await app.close();
  }
});

Deno.test("convert har: the earlier Cookie header goes to the redirect recorded without cookies", () => {
  const { records } = parseHar(recording(), []);
  reattachRedirectCookies(records);
  assert.deepEqual(records[1].cookies, [{ name: "sid", value: "old8e2a9c1" }]);
  assert.deepEqual(records[2].cookies, [{ name: "sid", value: "new5f0b7d3" }]);
});

Deno.test("convert har: Cookie headers that agree (no stale value) are left as recorded, as Jupyter's login is", () => {
  // Jupyter's chrome-har recording: the login's `_xsrf`, then the same `_xsrf` with the new
  // `username-…`; nothing tells them apart, and the login keeps what it sent before.
  const har = JSON.parse(recording());
  const page = har.log.entries[2].request;
  page.headers = [{ name: "Cookie", value: "x=1" }, { name: "Cookie", value: "x=1; u=ann" }];
  const { records } = parseHar(JSON.stringify(har), []);
  const notes = reattachRedirectCookies(records);
  assert.deepEqual(records[1].cookies, []);
  assert.equal(records[2].headers.filter((h) => h.name.toLowerCase() === "cookie").length, 2);
  assert.ok(!notes.some((n) => n.includes("besides its own")), notes.join("\n"));
});
