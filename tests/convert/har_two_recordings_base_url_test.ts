/**
 * `convert har` with two recordings of a server-rendered journey, each on a fresh instance of
 * its own port, as ikiwiki's CGI and Glewlwyd's admin were recorded (docs/real-servers-har.md).
 * The `Origin` and `Referer` a browser sends with a form are written
 * `${origin:vars.base_url}` and `${origin:vars.base_url}/edit`: the base URL the run is given.
 * They differ between the recordings only by the port, yet the summary counted each as "read
 * from a variable" (6 for ikiwiki, 1 for Glewlwyd) for flows that ask for no variable but the
 * password, because the `origin:` modifier hid which value the template reads. A template that
 * reads nothing but a base URL var is the instance's address, no value of the session: it is not
 * counted. One read through a modifier from a capture (`${raw:steps.….capture.location}`) counts
 * as a capture.
 */
import assert from "node:assert/strict";
import { runCliTwice } from "../support/cli.ts";
import { convertHars } from "./har_convert.ts";

/** A stand-in with a session cookie that answers each form post with an absolute redirect. */
function standIn() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (req.method === "POST") {
      const to = url.pathname === "/save" ? "/tides/?updated" : "/";
      return new Response(null, { status: 302, headers: { location: `${url.origin}${to}` } });
    }
    const headers = new Headers({ "content-type": "text/html" });
    if (url.pathname === "/edit") headers.set("set-cookie", `sid=${crypto.randomUUID()}; Path=/`);
    return new Response("<p>ok</p>", { headers });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One recording of the journey on `port`, its session `sid`. */
function recording(port: number, sid: string): string {
  const at = `http://127.0.0.1:${port}`;
  const time = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
  const html = { mimeType: "text/html", text: "<p>ok</p>" };
  const post = (s: number, path: string, to: string, referer: string) => ({
    startedDateTime: time(s),
    request: {
      method: "POST",
      url: `${at}${path}`,
      headers: [
        { name: "Cookie", value: `sid=${sid}` },
        { name: "Origin", value: at },
        { name: "Referer", value: `${at}${referer}` },
        { name: "Content-Type", value: "application/x-www-form-urlencoded" },
      ],
      postData: { mimeType: "application/x-www-form-urlencoded", text: "text=high+water" },
    },
    response: {
      status: 302,
      headers: [{ name: "Location", value: `${at}${to}` }],
      content: { mimeType: "text/html", text: "" },
    },
  });
  const get = (s: number, path: string, cookie: boolean) => ({
    startedDateTime: time(s),
    request: {
      method: "GET",
      url: `${at}${path}`,
      headers: cookie ? [{ name: "Cookie", value: `sid=${sid}` }] : [],
    },
    response: {
      status: 200,
      headers: cookie ? [] : [{ name: "Set-Cookie", value: `sid=${sid}; Path=/` }],
      content: html,
    },
  });
  return JSON.stringify({
    log: {
      entries: [
        get(0, "/edit", false),
        post(1, "/save", "/tides/?updated", "/edit"),
        get(2, "/tides/?updated", true),
        post(3, "/logout", "/", "/prefs"),
        get(4, "/", true),
      ],
    },
  });
}

Deno.test("convert har with two recordings: a browser's Origin and Referer on the base URL are read from no variable, and the flow passes twice", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-base-url-" });
  const app = standIn();
  try {
    const { converted, flow } = await convertHars(dir, [
      recording(55203, "9f2c41d7e8a3b6c5d4e3f2a1b0c9d8e7"),
      recording(38571, "1a2b3c4d5e6f708192a3b4c5d6e7f809"),
    ]);
    assert.match(flow, /origin: \$\{origin:vars\.base_url\}/, flow);
    assert.match(flow, /referer: \$\{origin:vars\.base_url\}\/edit/, flow);
    assert.match(flow, /\$\{raw:steps\.\w+\.capture\.location\}/, flow);
    assert.match(converted.stderr, /No environment variables are required/, converted.stderr);
    assert.match(converted.stderr, /0 read from a variable/, converted.stderr);
    await runCliTwice(`${dir}/flow.yaml`, app.origin, flow);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
