/**
 * `convert har` on a server-rendered admin whose CSRF nonce rotates with every page and travels
 * only in its links' and forms' query strings, under a parameter named like a Java class
 * (`org.apache.catalina.filters.CSRF_NONCE`), as Tomcat's Manager writes it
 * (docs/real-servers-har.md: every URL of a page is encoded with a new nonce, a form's `action`
 * with its slashes as `&#47;`; a request without one of the last few nonces is refused 403). A
 * link's parameter was a page value only when its name was letters, digits, `_` and `-`, so the
 * dotted name hid each nonce from its page: the flow asked for twelve variables no user can know,
 * and a fresh instance refused the first form (1 of 17 steps).
 *
 * What the converter does (lib/convert/pages.ts `linkValues`): a link's parameter named with
 * dots, colons or brackets (`a.b.c`, `ns:token`, `form[_token]`) is read like any other, its
 * value captured from the page that linked it. Widened to the three spellings, in links and in
 * forms' actions; each run twice on one instance.
 */
import assert from "node:assert/strict";
import { pageValues } from "../../lib/convert/pages.ts";
import { runCli, runCliTwice } from "../support/cli.ts";
import { pagesHar, type PageSpec } from "../support/form_pages.ts";

const AT = "http://127.0.0.1:8080";
const HTML = { "content-type": "text/html;charset=utf-8" };

/** A 32-digit uppercase hex nonce, as Tomcat's filter makes. */
function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("").toUpperCase();
}

/** The manager's page: a list link, and a form per action, each URL carrying `nonce` under `name`. */
function page(name: string, nonceValue: string, said = ""): string {
  const q = `${name}=${nonceValue}`;
  const form = (action: string) =>
    `<form method="POST" action="&#47;manager&#47;html&#47;${action}?path=&#47;tides&amp;${q}">` +
    `<input type="submit" value="${action}"></form>`;
  return `<html><body><pre>${said}</pre><a href="/manager/html/list?${q}">List Applications</a>` +
    `${form("stop")}${form("start")}</body></html>`;
}

/** A stand-in that hands out a new nonce with every page and refuses a request without a recent one. */
function standIn(name: string) {
  const issued = new Map<string, string[]>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const session = /JSESSIONID=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    const entry = req.method === "GET" && url.pathname === "/manager/html";
    const known = session ? issued.get(session) : undefined;
    if (!entry && !known?.includes(url.searchParams.get(name) ?? "")) {
      return new Response("<h1>403 Access Denied</h1>", { status: 403, headers: HTML });
    }
    const id = session ?? nonce();
    const fresh = nonce();
    // The filter keeps the last five nonces of a session, as Tomcat's `nonceCacheSize` does.
    issued.set(id, [...(issued.get(id) ?? []), fresh].slice(-5));
    const said = url.pathname.endsWith("/list") ? "" : `OK - ${url.pathname.split("/").pop()}`;
    const headers = new Headers(HTML);
    if (!session) headers.set("set-cookie", `JSESSIONID=${id}; Path=/manager; HttpOnly`);
    return new Response(page(name, fresh, said), { headers });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** The recorded journey: open the manager, list, stop, start, list; each nonce from the page before. */
function recording(name: string): string {
  const n = [nonce(), nonce(), nonce(), nonce(), nonce()];
  const cookie = { name: "Cookie", value: "JSESSIONID=5E2CBB9E484628219AD8FE197461C104" };
  const post = (action: string, i: number): PageSpec => ({
    method: "POST",
    path: `/manager/html/${action}?path=/tides&${name}=${n[i]}`,
    headers: [cookie, { name: "Content-Type", value: "application/x-www-form-urlencoded" }],
    postData: { mimeType: "application/x-www-form-urlencoded", text: "" },
    text: page(name, n[i + 1], `OK - ${action}`),
  });
  return pagesHar(AT, [
    { method: "GET", path: "/manager/html", text: page(name, n[0]) },
    {
      method: "GET",
      path: `/manager/html/list?${name}=${n[0]}`,
      headers: [cookie],
      text: page(name, n[1]),
    },
    post("stop", 1),
    post("start", 2),
    {
      method: "GET",
      path: `/manager/html/list?${name}=${n[3]}`,
      headers: [cookie],
      text: page(name, n[4]),
    },
  ]);
}

for (const name of ["org.apache.catalina.filters.CSRF_NONCE", "csrf:nonce", "form[_nonce]"]) {
  Deno.test(`convert har: a nonce each page hands out in its links under "${name}" is captured from that page, and the flow passes twice on one instance`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-dotted-nonce-" });
    const app = standIn(name);
    try {
      const har = recording(name);
      // The page that set the cookie is what a Set-Cookie header would have said.
      const parsed = JSON.parse(har);
      parsed.log.entries[0].response.headers.push({
        name: "Set-Cookie",
        value: "JSESSIONID=5E2CBB9E484628219AD8FE197461C104; Path=/manager; HttpOnly",
      });
      await Deno.writeTextFile(`${dir}/r.har`, JSON.stringify(parsed));
      const converted = await runCli(["convert", "har", `${dir}/r.har`, "-o", `${dir}/flow.yaml`]);
      assert.equal(converted.code, 0, converted.stderr);
      const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
      assert.doesNotMatch(converted.stderr, /Set before running/, converted.stderr);
      await runCliTwice(`${dir}/flow.yaml`, app.origin, flow);
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("convert har: a link's parameter named with dots, a colon or brackets is a page value", () => {
  const html = '<a href="/m/list?org.apache.catalina.filters.CSRF_NONCE=44CAEBF268CBD9D2">l</a>' +
    '<form action="&#47;m&#47;stop?path=&#47;t&amp;ns:token=9f2a71be04dc"></form>' +
    "<a href='/m?form[_token]=c9f2a71be04d&amp;page=2'>2</a>";
  // The form's action writes its slashes as `&#47;`: the parameters after one are read too.
  assert.deepEqual(pageValues(html).map((v) => [v.name, v.value]), [
    ["org.apache.catalina.filters.CSRF_NONCE", "44CAEBF268CBD9D2"],
    ["ns:token", "9f2a71be04dc"],
    ["form[_token]", "c9f2a71be04d"],
  ]);
  for (const v of pageValues(html)) {
    const fresh = html.replace(v.value, "0A1B2C3D4E5F6789");
    assert.equal(new RegExp(v.pattern).exec(fresh)?.[1], "0A1B2C3D4E5F6789", v.pattern);
  }
});
