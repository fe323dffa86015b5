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
import { formPost, pagesHar, type PageSpec, passesTwice } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";
import { loginForm, ORIGIN, SID, TOKEN, twoCookieLogin } from "../support/two_cookie_login.ts";

const PASSWORD = "keeper-typed-53";

const standIn = () => twoCookieLogin(PASSWORD);

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

Deno.test("convert har with two recordings: the post recorded without its cookies goes with the session cookie the dropped assets sent, as with one", async () => {
  const dir = await Deno.makeTempDir();
  const app = standIn();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, recording());
    await Deno.writeTextFile(`${dir}/b.har`, recording());
    const args = ["convert", "har", `${dir}/a.har`, `${dir}/b.har`, "-o", `${dir}/app.yaml`];
    const converted = await runCli(args);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/app.yaml`);
    assert.match(
      loginStep(flow),
      /cookie: _chc=1; sid=\$\{steps\.open_login\.capture\.sid\}/,
      flow,
    );
    const env = { BASE_URL: app.origin, LOGIN_PASSWORD: PASSWORD };
    const run = await runCli(["run", `${dir}/app.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
