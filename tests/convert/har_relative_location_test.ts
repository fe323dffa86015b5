/**
 * `convert har` on redirects whose `Location` is a relative reference, as
 * PostfixAdmin's PHP pages answer (tests/real/postfixadmin_har_test.ts): its
 * login answers `302 Location: main.php`, its forms `302 Location:
 * edit.php?table=domain`, each resolved against the directory of the page
 * that answered. The page the browser was sent to is fetched from the
 * captured `Location`; before, the capture went straight after the base URL
 * (`http://127.0.0.1:PORTmain.php`, not a URL), which only holds for a path
 * from the root. Here the app lives under `/admin/`, so the directory is
 * part of the URL; a root path (`/admin/done.php`) is captured as before.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** One entry of the recording: a request and its HTML answer, a redirect when `location` is set. */
function entry(i: number, method: string, path: string, location?: string, form?: string) {
  const html = `<html><body><form method="post"><input name="title"></form>${path}</body></html>`;
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    request: {
      method,
      url: `http://127.0.0.1:8080${path}`,
      headers: [{ name: "Accept", value: "text/html" }],
      ...(form === undefined
        ? {}
        : { postData: { mimeType: "application/x-www-form-urlencoded", text: form } }),
    },
    response: {
      status: location ? 302 : 200,
      headers: location ? [{ name: "Location", value: location }] : [],
      cookies: [],
      content: location
        ? { mimeType: "text/html", text: "" }
        : { mimeType: "text/html", text: html },
    },
  };
}

const RECORDING = JSON.stringify({
  log: {
    entries: [
      entry(0, "GET", "/admin/index.php"),
      entry(1, "POST", "/admin/index.php", "main.php", "title=Harbour"),
      entry(2, "GET", "/admin/main.php"),
      entry(
        3,
        "POST",
        "/admin/edit.php?table=domain",
        "edit.php?table=domain&saved=1",
        "title=Pier",
      ),
      entry(4, "GET", "/admin/edit.php?table=domain&saved=1"),
      entry(5, "POST", "/admin/edit.php?table=domain", "/admin/done.php", "title=Quay"),
      entry(6, "GET", "/admin/done.php"),
    ],
  },
});

/** The app: each form redirects as recorded; only the pages under `/admin/` exist. */
function app() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}${url.search}`);
    await req.body?.cancel();
    const html = (body: string) =>
      new Response(`<html><body>${body}</body></html>`, {
        headers: { "content-type": "text/html" },
      });
    if (req.method === "POST") {
      const title = seen.filter((s) => s.startsWith("POST")).length;
      const to = url.pathname === "/admin/index.php"
        ? "main.php"
        : title === 2
        ? "edit.php?table=domain&saved=1"
        : "/admin/done.php";
      return new Response(null, { status: 302, headers: { location: to } });
    }
    const known = ["/admin/index.php", "/admin/main.php", "/admin/edit.php", "/admin/done.php"];
    return known.includes(url.pathname) ? html(url.pathname) : new Response("no", { status: 404 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

Deno.test("convert har: a redirect to a relative Location is followed in the directory of the page that answered", async () => {
  const dir = await Deno.makeTempDir();
  const live = app();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, RECORDING);
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: live.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(live.seen.filter((s) => s.startsWith("GET")), [
      "GET /admin/index.php",
      "GET /admin/main.php",
      "GET /admin/edit.php?table=domain&saved=1",
      "GET /admin/done.php",
    ]);
  } finally {
    await live.close();
    await Deno.remove(dir, { recursive: true });
  }
});
