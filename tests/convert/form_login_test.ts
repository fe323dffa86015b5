/**
 * The rules proven on Formapp (tests/convert/formapp_test.ts), shown on
 * cases they were not built from: a Django-shaped form login recorded in
 * another producer's shape (tests/fixtures/har/django_form_login.har, a
 * Firefox-style export without `_resourceType`) replayed on a small server
 * of the same shape, and urlencoded bodies whose values hold every character
 * a raw string would send wrong.
 */
import assert from "node:assert/strict";
import {
  assertReplayPassed,
  convertAndReplay,
  explain,
  literalOutsideComments,
} from "../support/convert_apps.ts";
import { harCheck } from "../support/harcheck.ts";

/** The password of the Django-style fixture: `@`, a space, `ö`, `&`, `=`, `#`, `+` and `%`. */
const TALLY_PASSWORD = "p@ss wörd&=#+%";

/**
 * A Django-shaped app, the second case of the form-login rules: the CSRF
 * cookie is `csrftoken` and the form's `csrfmiddlewaretoken` is another value
 * for each page, the login answers `302` and rotates `csrftoken` while setting
 * `sessionid`, the API reads `X-CSRFToken` (the cookie's value) and an
 * `X-Org-Key` from a script variable, and the team id sits in a
 * `data-team-id` attribute. Every start has new tokens, keys, team and ids.
 */
function startTally() {
  const team = `team_${crypto.randomUUID().slice(0, 8)}`;
  const csrf = new Set<string>();
  const forms = new Map<string, string>();
  const sessions = new Map<string, { key: string }>();
  const items = new Map<number, { id: number; name: string; team: string }>();
  let nextId = 10_000 + Math.floor(Math.random() * 80_000);
  const calls: string[] = [];
  const random = () => crypto.randomUUID().replaceAll("-", "");
  const formToken = (secret: string) => {
    const t = random() + random();
    forms.set(t, secret);
    return t;
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    calls.push(`${req.method} ${url.pathname}`);
    const jar = new Map(
      (req.headers.get("cookie") ?? "").split(";").map((c) =>
        c.trim().split("=", 2) as [string, string]
      ),
    );
    const known = csrf.has(jar.get("csrftoken") ?? "") ? jar.get("csrftoken")! : undefined;
    const session = sessions.get(jar.get("sessionid") ?? "");
    const headers = new Headers({ "content-type": "text/html; charset=utf-8" });
    const cookie = (name: string, value: string) =>
      headers.append("set-cookie", `${name}=${value}; Path=/; SameSite=Lax`);
    const form = async () => new URLSearchParams(await req.text());
    const page = (body: string) => new Response(body, { headers });
    const json = (status: number, body: unknown) => Response.json(body, { status });
    if (url.pathname === "/accounts/login/" && req.method === "GET") {
      let secret = known;
      if (!secret) {
        secret = random() + random();
        csrf.add(secret);
        cookie("csrftoken", secret);
      }
      return page(
        `<form method="post" action="/accounts/login/?next=/">\n<input type="hidden" name="csrfmiddlewaretoken" value="${
          formToken(secret)
        }">\n<input type="text" name="username"><input type="password" name="password"></form>`,
      );
    }
    if (url.pathname === "/accounts/login/" && req.method === "POST") {
      const f = await form();
      if (!known || forms.get(f.get("csrfmiddlewaretoken") ?? "") !== known) {
        return new Response("CSRF verification failed", { status: 403 });
      }
      if (f.get("username") !== "bea" || f.get("password") !== TALLY_PASSWORD) {
        return new Response("Please enter a correct username and password", { status: 200 });
      }
      // Django rotates the CSRF secret at login.
      const rotated = random() + random();
      csrf.delete(known);
      csrf.add(rotated);
      const sid = random();
      sessions.set(sid, { key: `ok_${random().slice(0, 12)}` });
      cookie("csrftoken", rotated);
      cookie("sessionid", sid);
      headers.set("location", url.searchParams.get("next") ?? "/");
      return new Response(null, { status: 302, headers });
    }
    if (url.pathname === "/" && req.method === "GET") {
      if (!session || !known) {
        return new Response(null, { status: 302, headers: { location: "/accounts/login/" } });
      }
      return page(
        `<html><head><script>window.TALLY = { apiBase: '/api/v1', orgKey: '${session.key}', locale: 'en-gb' };</script></head><body data-team-id="${team}" data-theme="light">\n<form method="post" action="/accounts/logout/"><input type="hidden" name="csrfmiddlewaretoken" value="${
          formToken(known)
        }"></form></body></html>`,
      );
    }
    if (url.pathname === "/accounts/logout/" && req.method === "POST") {
      const f = await form();
      if (!session || !known || forms.get(f.get("csrfmiddlewaretoken") ?? "") !== known) {
        return new Response("CSRF verification failed", { status: 403 });
      }
      sessions.delete(jar.get("sessionid")!);
      headers.set("location", "/accounts/login/");
      return new Response(null, { status: 302, headers });
    }
    if (url.pathname.startsWith("/api/v1/")) {
      if (!session || req.headers.get("x-org-key") !== session.key) {
        return json(403, { detail: "Authentication credentials were not provided." });
      }
      const create = new RegExp(`^/api/v1/teams/${team}/items/$`).test(url.pathname);
      if (create && req.method === "POST") {
        if (!known || req.headers.get("x-csrftoken") !== known) {
          return json(403, { detail: "CSRF Failed: CSRF token missing or incorrect." });
        }
        const item = { id: nextId++, name: String((await req.json()).name), team };
        items.set(item.id, item);
        return json(201, item);
      }
      const m = /^\/api\/v1\/items\/(\d+)\/$/.exec(url.pathname);
      const item = m && items.get(Number(m[1]));
      if (item && req.method === "GET") return json(200, item);
      return json(404, { detail: "Not found." });
    }
    return new Response("Not found", { status: 404 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    calls,
    close: () => server.shutdown(),
  };
}

Deno.test("a Django-style form login (csrfmiddlewaretoken, csrftoken and sessionid, 302) converts and passes on a fresh instance", async () => {
  const har = new URL("../fixtures/har/django_form_login.har", import.meta.url).pathname;
  const app = startTally();
  try {
    const replay = await convertAndReplay(
      har,
      app.origin,
      (name) => name === "LOGIN_PASSWORD" ? TALLY_PASSWORD : undefined,
    );
    assertReplayPassed(replay);
    const { flow } = replay;
    assert.deepEqual(app.calls.map((c) => c.replace(/team_\w+/, "T").replace(/\/\d+\//, "/N/")), [
      "GET /accounts/login/",
      "POST /accounts/login/",
      "GET /",
      "POST /api/v1/teams/T/items/",
      "GET /api/v1/items/N/",
      "POST /accounts/logout/",
    ]);
    assert.deepEqual(Object.keys(replay.env).filter((n) => !/BASE_URL/.test(n)), [
      "LOGIN_PASSWORD",
    ]);
    assert.match(flow, /\n {6}form:\n(?: {8}.*\n)* {8}password: \$\{ENV\.LOGIN_PASSWORD\}\n/);
    assert.match(flow, /csrfmiddlewaretoken: \{ regex: /);
    assert.match(flow, /x-org-key: \$\{steps\.open_home\.capture\.org_key\}/);
    assert.match(flow, /x-csrftoken: \$\{steps\.login\.capture\.csrftoken\}/);
    const text = await Deno.readTextFile(har);
    assert.deepEqual(
      literalOutsideComments(flow, ["team_4f2a9c81", "ok_71c2e9a4b5d8", "88127"]),
      [],
    );
    assert.deepEqual(harCheck(text, flow).leaks, []);
  } finally {
    await app.close();
  }
});

Deno.test("a urlencoded body is written as form fields and sent byte for byte as the browser did", async () => {
  // Every character a form value can hold that a raw string would send wrong.
  const value = "a&b+c%d=e#f g/é?";
  const encoded = encodeURIComponent(value).replaceAll("%20", "+");
  // The password comes from a variable: pasted into a raw body, it would not be encoded.
  const password = "P&ss +%=# wörd";
  const sent = `q=${encoded}&tag=x&tag=y%26z&empty=&password=${
    encodeURIComponent(password).replaceAll("%20", "+")
  }`;
  const received: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    received.push(await req.text());
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-form-" });
  try {
    const entry = (text: string) => ({
      startedDateTime: "2026-11-24T09:00:00.000Z",
      request: {
        method: "POST",
        url: "http://127.0.0.1:9/api/search",
        headers: [{ name: "Content-Type", value: "application/x-www-form-urlencoded" }],
        postData: { mimeType: "application/x-www-form-urlencoded", text },
      },
      response: { status: 200, content: { mimeType: "application/json", text: '{"ok":true}' } },
      _resourceType: "fetch",
    });
    // The second body is not a clean encoding (a stray %): it is sent as recorded.
    const har = `${dir}/form.har`;
    await Deno.writeTextFile(
      har,
      JSON.stringify({ log: { entries: [entry(sent), entry("q=100%&x")] } }),
    );
    const replay = await convertAndReplay(
      har,
      `http://127.0.0.1:${server.addr.port}`,
      (name) => name === "SEARCH_PASSWORD" ? password : undefined,
    );
    assert.equal(replay.run.code, 0, `${explain(replay)}\n${replay.flow}`);
    assert.match(
      replay.flow,
      /form:\n {8}q: a&b\+c%d=e#f g\/é\?\n {8}tag: \[x, y&z\]\n {8}empty: ""\n {8}password: \$\{ENV\.SEARCH_PASSWORD\}\n/,
    );
    assert.deepEqual(received, [sent, "q=100%&x"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
