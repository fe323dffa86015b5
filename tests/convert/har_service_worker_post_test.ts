/**
 * `convert har` on Playwright's recording of a page whose service worker
 * answers its navigations (LDAP Account Manager 8.3, by hand in
 * docs/real-servers-har.md). The worker's `fetch` follows redirects, so
 * `recordHar` wrote each redirected form post as `200` holding the body of
 * the page the redirects ended at, with no `Location` and no `Set-Cookie`,
 * and the worker's fetches of the hops as entries of their own
 * (`_serviceWorkerRef`), the last page's body not kept. The flow expected 200
 * of the sign-in (302 live) and read the form token from its empty answer:
 * 1 of 13 steps passed.
 *
 * What the converter does (lib/convert/redirected_posts.ts): a document post
 * during which the worker fetched a page (a redirect, or HTML; not an icon)
 * was redirected there. It becomes a `302` that sets the cookies that page's
 * request sent anew, and its body goes to the page the chain ended at.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const ORIGIN = "http://127.0.0.1:3000";
const HTML = "text/html; charset=utf-8";
const TOKEN = "Tk7qP2wX9mRz4LbN";
const OLD = "s1xa1b2c3d4", RENEWED = "s2ye5f6a7b8";

/** A sign-in that renews the session, a list page with a form token, a save that redirects. */
function standIn() {
  const sessions = new Map<string, boolean>();
  const saved: string[] = [];
  let n = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /(?:^|; )sid=([^;]*)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    const page = (body: string, status = 200) =>
      new Response(`<html><body>${body}</body></html>`, {
        status,
        headers: { "content-type": HTML },
      });
    const redirect = (to: string, cookies: string[] = []) => {
      const headers = new Headers({ location: to });
      for (const c of cookies) headers.append("set-cookie", c);
      return new Response(null, { status: 302, headers });
    };
    const form = req.method === "POST" ? new URLSearchParams(await req.text()) : undefined;
    if (url.pathname === "/login.php" && !form) {
      const fresh = `s${++n}x${crypto.randomUUID().slice(0, 8)}`;
      sessions.set(fresh, false);
      return new Response("<form></form>", {
        headers: { "content-type": HTML, "set-cookie": `sid=${fresh}; Path=/` },
      });
    }
    if (url.pathname === "/login.php") {
      if (!sessions.has(sid) || form?.get("username") !== "keeper") return page("no", 403);
      sessions.delete(sid);
      const renewed = `s${++n}y${crypto.randomUUID().slice(0, 8)}`;
      sessions.set(renewed, true);
      return redirect("./main.php", [`sid=${renewed}; Path=/; HttpOnly`, "lang=en_GB; Path=/"]);
    }
    if (url.pathname === "/main.php") return redirect("list.php?type=user");
    if (!sessions.get(sid)) return page("<form>sign in</form>");
    if (!form) return page(`<form><input type="hidden" name="sec_token" value="${sid}-${TOKEN}">`);
    if (form.get("sec_token") !== `${sid}-${TOKEN}`) return page("bad token", 403);
    if (form.has("confirm")) return page("sure?");
    saved.push(form.get("filter") ?? "");
    return redirect("list.php?type=user&saved=1");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, saved, close: () => server.shutdown() };
}

/** One entry: the page's (a document) or the worker's (`worker` set), `ms` after the start. */
function entry(spec: {
  method: string;
  path: string;
  status: number;
  ms: number;
  time?: number;
  cookie?: string;
  setCookie?: string;
  location?: string;
  body?: string;
  form?: string;
  worker?: boolean;
  mime?: string;
}) {
  const headers = [
    ...(spec.cookie ? [{ name: "Cookie", value: spec.cookie }] : []),
    ...(spec.form ? [{ name: "Content-Type", value: "application/x-www-form-urlencoded" }] : []),
  ];
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, spec.ms)).toISOString(),
    time: spec.time ?? 30,
    ...(spec.worker ? { _serviceWorkerRef: "worker@1" } : {}),
    _resourceType: spec.worker ? "fetch" : "document",
    request: {
      method: spec.method,
      url: `${ORIGIN}${spec.path}`,
      headers,
      cookies: [],
      ...(spec.form
        ? { postData: { mimeType: "application/x-www-form-urlencoded", text: spec.form } }
        : {}),
    },
    response: {
      status: spec.status,
      headers: [
        { name: "Content-Type", value: spec.mime ?? HTML },
        ...(spec.setCookie ? [{ name: "Set-Cookie", value: spec.setCookie }] : []),
        ...(spec.location ? [{ name: "Location", value: spec.location }] : []),
      ],
      cookies: [],
      content: { mimeType: spec.mime ?? HTML, text: spec.body ?? "" },
      redirectURL: "",
    },
  };
}

/** Sign in, read the list (a confirm post answered 200 on the way), save a filter: Playwright's shape. */
function recording(): string {
  const session = `sid=${RENEWED}; lang=en_GB`;
  const list = `<form><input type="hidden" name="sec_token" value="${RENEWED}-${TOKEN}"></form>`;
  const entries = [
    entry({
      method: "GET",
      path: "/login.php",
      status: 200,
      ms: 0,
      setCookie: `sid=${OLD}; Path=/`,
    }),
    entry({
      method: "POST",
      path: "/login.php",
      status: 200,
      ms: 1000,
      time: 200,
      cookie: `sid=${OLD}`,
      form: "username=keeper",
      body: list,
    }),
    entry({
      method: "GET",
      path: "/main.php",
      status: 302,
      ms: 1050,
      cookie: session,
      location: "list.php?type=user",
      worker: true,
    }),
    entry({ method: "GET", path: "/list.php?type=user", status: -1, ms: 1080, worker: true }),
    entry({
      method: "GET",
      path: "/list.php?type=user",
      status: 200,
      ms: 1090,
      cookie: session,
      worker: true,
    }),
    entry({
      method: "POST",
      path: "/list.php?type=user",
      status: 200,
      ms: 2000,
      time: 100,
      cookie: session,
      form: `sec_token=${RENEWED}-${TOKEN}&confirm=1`,
      body: "sure?",
    }),
    entry({
      method: "GET",
      path: "/style.css",
      status: 200,
      ms: 2150,
      worker: true,
      mime: "text/css",
    }),
    entry({
      method: "POST",
      path: "/list.php?type=user",
      status: 200,
      ms: 3000,
      time: 200,
      cookie: session,
      form: `sec_token=${RENEWED}-${TOKEN}&filter=ada`,
      body: list,
    }),
    entry({
      method: "GET",
      path: "/favicon.ico",
      status: 200,
      ms: 3020,
      worker: true,
      mime: "image/x-icon",
    }),
    entry({
      method: "GET",
      path: "/list.php?type=user&saved=1",
      status: 200,
      ms: 3100,
      cookie: session,
      worker: true,
    }),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "Playwright" }, entries } });
}

Deno.test("convert har: a post a service worker answered after following its redirect is a redirect again, twice on one instance", async () => {
  const app = standIn();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording());
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /A service worker answered POST \/login\.php/, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/app.yaml`);
    // The confirm post the worker fetched no page during stays the 200 it was.
    assert.match(flow, /→ 302[\s\S]*→ 200[\s\S]*→ 302/, flow);
    for (const run of [1, 2]) {
      const got = await runCli(["run", `${dir}/app.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(got.code, 0, `run ${run}\n${got.stdout}\n${flow}`);
    }
    assert.deepEqual(app.saved, ["ada", "ada"]);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
