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
import { formPost, pagesHar, type PageSpec, passesTwice } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";
import { loginForm, ORIGIN, SID, TOKEN, twoCookieLogin } from "../support/two_cookie_login.ts";

const PASSWORD = "keeper-typed-52";

const standIn = () => twoCookieLogin(PASSWORD);

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
