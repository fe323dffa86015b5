/**
 * Cookies when asked for: no implicit state by default; a flow (or the run,
 * `--cookie-jar`) opts into a jar that behaves like a browser's (domain,
 * path, expiry, Secure); steps send explicit cookies; included flows share
 * their flow run's jar; cookie values stay secret in every artifact.
 */
import assert from "node:assert/strict";
import { CookieJar, publicSuffixes } from "../../lib/http/cookie_jar.ts";
import { runCli } from "../support/cli.ts";

const SESSION = "sess-7f3a9c2e41";

function serve() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/login") {
      const headers = new Headers({ "content-type": "application/json" });
      headers.append("set-cookie", `sid=${SESSION}; Path=/; HttpOnly`);
      headers.append("set-cookie", "csrf=c-1; Path=/forms");
      headers.append("set-cookie", "old=x; Max-Age=0; Path=/");
      return new Response("{}", { headers });
    }
    if (path === "/logout") {
      return new Response("{}", { headers: { "set-cookie": "sid=; Max-Age=0; Path=/" } });
    }
    // The names of the cookies received, and whether the session is the one set.
    const pairs = (req.headers.get("cookie") ?? "").split(";").map((p) => p.trim()).filter(Boolean);
    return Response.json({
      names: pairs.map((p) => p.split("=")[0]),
      session: pairs.includes(`sid=${SESSION}`),
    });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("the jar keeps, matches, replaces and expires cookies like a browser", async () => {
  await publicSuffixes.load();
  let now = 1_000_000;
  const jar = new CookieJar(() => now);
  jar.store("https://a.example.test/app/login", [
    "sid=1; Secure",
    "wide=w; Domain=example.test; Path=/",
    "evil=e; Domain=other.test",
    "short=s; Max-Age=10; Path=/",
    "dated=d; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
  ]);
  assert.equal(jar.header("https://a.example.test/app/x"), "sid=1; wide=w; short=s");
  assert.equal(jar.header("https://b.example.test/"), "wide=w");
  assert.equal(jar.header("https://a.example.test/other"), "wide=w; short=s");
  assert.equal(jar.header("http://a.example.test/app/x"), "wide=w; short=s", "Secure needs https");
  jar.store("https://a.example.test/", ["wide=w2; Domain=example.test; Path=/"]);
  now += 11_000;
  assert.equal(jar.header("https://b.example.test/"), "wide=w2", "replaced, and short expired");
});

Deno.test("cookies: none by default, a jar when asked, explicit ones, included flows share it", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-cookies-" });
  try {
    const flow = (
      name: string,
      options: string,
      expect: { forms: string; after: string; shared: boolean },
    ) =>
      `name: ${name}
${options}steps:
  - name: login
    request: {method: POST, url: "${api.url}/login"}
  - name: forms
    request: {url: "${api.url}/forms/page", cookies: {theme: dark}}
    assert:
      json: [{path: $.json.names, equals: ${expect.forms}}]
${expect.shared ? "  - name: shared\n    include: ../common/echo.yaml\n" : ""}  - name: elsewhere
    request: {url: "${api.url}/x"}
    assert:
      json: [{path: $.json.names, equals: ${expect.after}}]
  - name: logout
    request: {method: POST, url: "${api.url}/logout"}
  - name: gone
    request: {url: "${api.url}/x"}
    assert:
      json: [{path: $.json.names, equals: []}]
`;
    await Deno.mkdir(`${dir}/flows`);
    await Deno.mkdir(`${dir}/common`);
    await Deno.writeTextFile(
      `${dir}/common/echo.yaml`,
      `name: echo\nsteps:\n  - name: echo\n    request: {url: "${api.url}/x"}\n    assert:\n      json: [{path: $.json.session, equals: true}]\n`,
    );
    await Deno.writeTextFile(
      `${dir}/flows/jar.yaml`,
      flow("jar", "options: {cookie_jar: true}\n", {
        forms: "[theme, csrf, sid]",
        after: "[sid]",
        shared: true,
      }),
    );
    await Deno.writeTextFile(
      `${dir}/flows/plain.yaml`,
      flow("plain", "", { forms: "[theme]", after: "[]", shared: false }),
    );
    const run = await runCli(["run", `${dir}/flows`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const text = await Deno.readTextFile(`${dir}/r.json`);
    assert.ok(!text.includes(SESSION), "the session cookie is masked");

    // --cookie-jar gives every flow run a jar: the plain flow now sends sid and csrf too.
    const all = await runCli(["run", `${dir}/flows/plain.yaml`, "--cookie-jar"]);
    assert.equal(all.code, 1);
    assert.match(all.stdout, /\$\.json\.names: expected \["theme"\], got \["theme","csrf","sid"\]/);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a followed redirect is followed hop by hop: the jar sees each, credentials stay home", async () => {
  const other = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      Response.json({
        authorization: req.headers.get("authorization"),
        cookie: req.headers.get("cookie"),
      }),
  );
  const otherUrl = `http://localhost:${other.addr.port}`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login") {
      await req.text();
      return new Response(null, {
        status: 303,
        headers: { location: "/home", "set-cookie": `sid=${SESSION}; Path=/` },
      });
    }
    if (url.pathname === "/away") return Response.redirect(`${otherUrl}/there`, 302);
    if (url.pathname === "/loop") return Response.redirect(new URL("/loop", req.url), 307);
    return Response.json({ method: req.method, cookie: req.headers.get("cookie") });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-redirect-jar-" });
  try {
    await Deno.writeTextFile(
      `${dir}/login.yaml`,
      `name: login
options: {follow_redirects: true, cookie_jar: true}
steps:
  - name: login
    request: {method: POST, url: "${base}/login", form: {user: ada}}
    assert:
      json:
        - {path: $.json.method, equals: GET}
        - {path: $.json.cookie, equals: "sid=${SESSION}"}
        - {path: $.url, equals: "${base}/home"}
  - name: away
    request:
      url: "${base}/away"
      headers: {Authorization: Bearer t0ken-abc}
      cookies: {theme: dark}
    assert:
      json:
        - {path: $.json.authorization, equals: null}
        - {path: $.json.cookie, equals: null}
  - name: loop
    request: {url: "${base}/loop"}
`,
    );
    const run = await runCli(["run", `${dir}/login.yaml`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps;
    assert.deepEqual(steps.map((s: { status: string }) => s.status), ["passed", "passed", "error"]);
    assert.match(
      run.stdout,
      /more than 20 redirects, the last to "http:\/\/127\.0\.0\.1:\d+\/loop"/,
    );
    assert.doesNotMatch(JSON.stringify(report), new RegExp(SESSION));
  } finally {
    await server.shutdown();
    await other.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
