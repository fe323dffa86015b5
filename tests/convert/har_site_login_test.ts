/**
 * `convert har` on a login form as WordPress's is (tests/real/wordpress_har_test.ts):
 * the form's page sets a test cookie and holds a password input named
 * `pwd`, a hidden `redirect_to` and a hidden `testcookie` of `1`; the post
 * answers 302 and sets the test cookie again, an admin cookie
 * `site_<digest>` (path `/admin`) and a logged-in cookie
 * `site_logged_in_<digest>`, the digest the instance's own (a fresh instance
 * on another port names both otherwise). Recorded on WordPress 6.1, the
 * conversion read each instance's piece with `site_([^=;,\s]+)=`, which
 * the answer's first cookie of that prefix matched (`site_test_cookie`), so
 * the admin page was sent a cookie named `site_test_cookie` and answered
 * 302 to the login (2 of 38 steps); it asked for the password as
 * `LOGIN_PWD` and for the page's own `1` as `LOGIN_TESTCOOKIE`, and every
 * `1` of the run's report was masked as that secret. Its admin page hands
 * out nonces in inline scripts, each under the key `nonce` of its own
 * object (`wpApiSettings`, `communityEventsData`, `heartbeatSettings`): the
 * pattern `"nonce"\s*:\s*"…"` finds the first, so the others were sent as
 * recorded (403).
 *
 * What the converter does: the instance's piece of a cookie name is read by
 * a pattern of its own shape (a digest's hex digits and length), so a
 * cookie of the same prefix matches no longer; a value the page's form held
 * as a hidden input is the page's, never asked of the user; what a password
 * input takes is asked as `LOGIN_PASSWORD` whatever the input's name; a URL
 * of the app a hidden input held (`redirect_to`) follows the base URL; a
 * script value whose key an earlier value of the page shares is read after
 * the name of the object or call that holds it (`eventsData … "nonce"`).
 * Widened: the digest cookie set after or before another of its prefix, and
 * password inputs named `pwd`, `user_pass` and `p`. And chrome-har's
 * recording of the same journey made now and then holds the login's 302
 * without its `Set-Cookie` (the admin page sends cookies no answer set):
 * asked as SESSION_COOKIE and SESSION_COOKIE_2, 2 of 41; a cookie first sent
 * by the request a redirect led to, which the redirect's request did not
 * send, is now captured from that redirect (by the pattern of its name),
 * and from there on wherever it is sent, also where the recording kept no
 * cookie of a request (the browser's jar holds it).
 */
import assert from "node:assert/strict";
import { chromiumEntry } from "../support/chromium_entry.ts";
import { runCli } from "../support/cli.ts";

const PASSWORD = "typed-at-the-form-7";
const RECORDED = "http://127.0.0.1:8181";

/** The instance's digest of its own address (an MD5's length, as WordPress's). */
async function digest(origin: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(origin));
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("")
    .slice(0, 32);
}

/** The session's nonce for `action`, as the admin page hands it to its scripts. */
const nonce = async (auth: string, action = "rest") =>
  (await digest(`${action}-${auth}`)).slice(0, 10);

/** The admin page: two scripts' settings, each with a nonce of its own under the same key. */
const dashboard = async (auth: string) =>
  `<h1>Dashboard</h1><script>var apiSettings = {"root":"/api/","nonce":"${await nonce(
    auth,
  )}"};</script>` +
  `<script>var eventsData = {"nonce":"${await nonce(auth, "events")}","cache":""};</script>`;

/** How one variant of the site spells its login. */
interface Site {
  /** The password input's name. */
  pwd: string;
  /** Whether the admin cookie is set before the test cookie (else after it). */
  adminFirst: boolean;
  /** Whether the recording lost the login's `Set-Cookie` (chrome-har, now and then). */
  lost?: boolean;
}

/** The login form's page on `origin`. */
const loginPage = (site: Site, origin: string) =>
  `<html><body><form method="post" action="${origin}/login.php">` +
  `<input type="text" name="log" value="" /><input type="password" name="${site.pwd}" value="" />` +
  `<input type="hidden" name="redirect_to" value="${origin}/admin/" />` +
  `<input type="hidden" name="testcookie" value="1" /></form></body></html>`;

/** The cookies the login answers, in the site's order. */
function loginCookies(site: Site, hash: string, auth: string): string[] {
  const test = "site_test_cookie=check; path=/";
  const admin = [`site_${hash}=${auth}; path=/admin; HttpOnly`];
  const logged = `site_logged_in_${hash}=${auth}-in; path=/; HttpOnly`;
  return site.adminFirst ? [...admin, test, logged] : [test, ...admin, logged];
}

/** A fresh instance's answer to one request. */
async function answer(site: Site, logins: Set<string>, req: Request): Promise<Response> {
  const url = new URL(req.url);
  const hash = await digest(url.origin);
  const cookies = new Map(
    (req.headers.get("cookie") ?? "").split(/;\s*/).filter(Boolean)
      .map((c) => [c.slice(0, c.indexOf("=")), c.slice(c.indexOf("=") + 1)] as [string, string]),
  );
  const html = (body: string, headers: [string, string][] = []) =>
    new Response(body, { headers: [["content-type", "text/html; charset=UTF-8"], ...headers] });
  if (url.pathname === "/login.php" && req.method === "GET") {
    return html(loginPage(site, url.origin), [["set-cookie", "site_test_cookie=check; path=/"]]);
  }
  if (url.pathname === "/login.php") {
    const form = new URLSearchParams(await req.text());
    const ok = form.get("log") === "editor" && form.get(site.pwd) === PASSWORD &&
      form.get("testcookie") === "1" && cookies.get("site_test_cookie") === "check";
    if (!ok) return html(loginPage(site, url.origin));
    const auth = crypto.randomUUID();
    logins.add(auth);
    const set = loginCookies(site, hash, auth).map((c) => ["set-cookie", c] as [string, string]);
    return new Response(null, {
      status: 302,
      headers: [["location", form.get("redirect_to")!], ...set],
    });
  }
  if (url.pathname === "/admin/ajax.php") {
    const auth = cookies.get(`site_${hash}`) ?? "";
    const form = new URLSearchParams(await req.text());
    return logins.has(auth) && form.get("_wpnonce") === await nonce(auth, "events")
      ? Response.json({ success: true })
      : new Response("-1", { status: 403 });
  }
  if (url.pathname === "/admin/") {
    const auth = cookies.get(`site_${hash}`) ?? "";
    return logins.has(auth)
      ? html(await dashboard(auth))
      : new Response(null, { status: 302, headers: { location: `${url.origin}/login.php` } });
  }
  const me = (cookies.get(`site_logged_in_${hash}`) ?? "").replace(/-in$/, "");
  return logins.has(me) && req.headers.get("x-wp-nonce") === await nonce(me)
    ? Response.json({ id: 1, name: "editor" })
    : Response.json({ code: "rest_not_logged_in" }, { status: 401 });
}

/** One entry as Chromium records it: request cookies in their header, each Set-Cookie a header. */
function entry(
  i: number,
  method: string,
  path: string,
  res: { status: number; mime: string; text: string; headers?: [string, string][] },
  req: { cookie?: string; form?: string; nonce?: string } = {},
) {
  const form = "application/x-www-form-urlencoded";
  const headers: [string, string][] = [
    ...(req.cookie ? [["Cookie", req.cookie] as [string, string]] : []),
    ...(req.nonce ? [["X-WP-Nonce", req.nonce] as [string, string]] : []),
    ...(req.form ? [["Content-Type", form] as [string, string]] : []),
  ];
  return chromiumEntry(i, {
    method,
    url: `${RECORDED}${path}`,
    headers,
    postData: req.form ? { mimeType: form, text: req.form } : undefined,
    status: res.status,
    mime: res.mime,
    text: res.text,
    answered: res.headers,
    type: path.startsWith("/api") ? "xhr" : "document",
  });
}

/** The journey recorded on the instance at 127.0.0.1:8181: the form, the login, the admin, an API call. */
async function recording(site: Site): Promise<string> {
  const hash = await digest(RECORDED);
  const auth = "0b5e1c2a-8d7f-4e3a-9c1b-2f6d8e4a7c90";
  const test = "site_test_cookie=check";
  const all = `site_${hash}=${auth}; ${test}; site_logged_in_${hash}=${auth}-in`;
  const form = `log=editor&${site.pwd}=${PASSWORD}&redirect_to=${
    encodeURIComponent(`${RECORDED}/admin/`)
  }&testcookie=1`;
  const html = "text/html; charset=UTF-8";
  const set = loginCookies(site, hash, auth).map((c) => ["Set-Cookie", c] as [string, string]);
  const entries = [
    entry(0, "GET", "/login.php", {
      status: 200,
      mime: html,
      text: loginPage(site, RECORDED),
      headers: [["Set-Cookie", "site_test_cookie=check; path=/"]],
    }),
    entry(1, "POST", "/login.php", {
      status: 302,
      mime: html,
      text: "",
      headers: [["Location", `${RECORDED}/admin/`], ...(site.lost ? [] : set)],
    }, { cookie: test, form }),
    entry(2, "GET", "/admin/", { status: 200, mime: html, text: await dashboard(auth) }, {
      cookie: all,
    }),
    entry(3, "GET", "/api/me", {
      status: 200,
      mime: "application/json",
      text: JSON.stringify({ id: 1, name: "editor" }),
    }, {
      // The lost login's recording also lost this call's Cookie (its extra info came late).
      cookie: site.lost ? undefined : `${test}; site_logged_in_${hash}=${auth}-in`,
      nonce: await nonce(auth),
    }),
    entry(4, "POST", "/admin/ajax.php", {
      status: 200,
      mime: "application/json",
      text: JSON.stringify({ success: true }),
    }, { cookie: all, form: `_wpnonce=${await nonce(auth, "events")}&action=get-events` }),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "stand-in" }, entries } });
}

const sites: [string, Site][] = [
  ["a password input named pwd, the admin cookie after the test cookie", {
    pwd: "pwd",
    adminFirst: false,
  }],
  ["a password input named user_pass, the admin cookie first", {
    pwd: "user_pass",
    adminFirst: true,
  }],
  ["a password input named p", { pwd: "p", adminFirst: false }],
  ["the login's Set-Cookie lost by the recording", { pwd: "pwd", adminFirst: false, lost: true }],
];

for (const [what, site] of sites) {
  Deno.test(`convert har: a site's login (${what}) asks only the password and passes twice on another instance`, async () => {
    const dir = await Deno.makeTempDir();
    const logins = new Set<string>();
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (req) => answer(site, logins, req),
    );
    try {
      await Deno.writeTextFile(`${dir}/site.har`, await recording(site));
      const converted = await runCli([
        "convert",
        "har",
        `${dir}/site.har`,
        "-o",
        `${dir}/site.yaml`,
      ]);
      assert.equal(converted.code, 0, converted.stderr);
      assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./);
      const flow = await Deno.readTextFile(`${dir}/site.yaml`);
      assert.ok(!flow.includes(PASSWORD), flow);
      const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}`, LOGIN_PASSWORD: PASSWORD };
      for (const n of [1, 2]) {
        const run = await runCli(["run", `${dir}/site.yaml`], { env });
        assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
        assert.match(run.stdout, /5 steps: 5 passed/, run.stdout);
      }
      assert.equal(logins.size, 2);
    } finally {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
