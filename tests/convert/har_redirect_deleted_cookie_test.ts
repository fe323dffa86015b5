/**
 * `convert har` on chrome-har's recording of a form login whose redirect
 * first deletes a cookie and then sets it anew in the same answer, as
 * Roundcube's does (tests/real/roundcube_har_test.ts): `POST /?_task=login`
 * answers 302 with `roundcube_sessauth=-del-; Max-Age=0`, then
 * `roundcube_sessid=…` and `roundcube_sessauth=…`. chrome-har recorded the
 * three `Set-Cookie` lines on the page the redirect led to, whose own
 * request already sent the new values, and recorded the page's XHRs
 * without their cookies (the browser's jar fills them). redirects.ts moved the two cookies
 * that page sent back to the login, but left the deletion: the page then
 * seemed to set `roundcube_sessauth` last, the jar took it from there, the
 * flow captured it from the page,
 * and on a live server (which sets nothing there) the capture failed and
 * every later step was skipped (2 of 39 on Roundcube).
 *
 * What the converter does: the lines a response holds for a cookie name
 * go back together, so a deletion goes with the value set after it.
 */
import assert from "node:assert/strict";
import { convertHarFile, runCliTwice } from "../support/cli.ts";

/** The mail page, handing out the request token its script sends. */
const page = (token: string) =>
  `<html><body><script>rcmail.set_env({"request_token":"${token}"});</script></body></html>`;

/** A login that deletes and sets `auth` on its redirect, and a page and an API that need it. */
function standIn() {
  const listed: string[] = [];
  const tokens = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const cookie = req.headers.get("cookie") ?? "";
    const auth = `roundcube_sessauth=${crypto.randomUUID()}`;
    if (req.method === "POST") {
      const token = crypto.randomUUID().replaceAll("-", "");
      tokens.add(token);
      const headers = new Headers({ location: `/?_task=mail&_token=${token}` });
      headers.append("set-cookie", "roundcube_sessauth=-del-; Max-Age=0; path=/");
      headers.append("set-cookie", `roundcube_sessid=${crypto.randomUUID()}; path=/`);
      headers.append("set-cookie", `${auth}; path=/`);
      return new Response(null, { status: 302, headers });
    }
    if (!/\broundcube_sessauth=[0-9a-f-]{36}\b/.test(cookie) && url.searchParams.has("_task")) {
      return new Response("log in", { status: 401 });
    }
    if (url.searchParams.get("_action") === "list") {
      const token = req.headers.get("x-roundcube-request") ?? "";
      if (!tokens.has(token)) return Response.json({ error: "bad token" }, { status: 403 });
      listed.push(cookie);
      return Response.json({ action: "list", exec: "this.set_message_count(0)" });
    }
    const token = url.searchParams.get("_token") ?? "";
    return new Response(page(token), { headers: { "content-type": "text/html" } });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, listed, close: () => server.shutdown() };
}

const ORIGIN = "http://127.0.0.1:8000";
const SID = "roundcube_sessid=7ni4tdadra61ui7o3qlam6nokh";
const AUTH = "roundcube_sessauth=ueONMxFVQ9eOubnXNOa1T0fXiF-1795776900";
const TOKEN = "iQdluZ7OsOGT3br75yOd0h1xHCOW6Wy1";

/** One entry of the recording. */
function entry(method: string, path: string, status: number, extra: Record<string, unknown>) {
  return {
    startedDateTime: `2026-01-01T00:00:0${extra.second}.000Z`,
    time: 1,
    request: {
      method,
      url: `${ORIGIN}${path}`,
      headers: [
        ...(extra.cookie ? [{ name: "Cookie", value: extra.cookie }] : []),
        ...(extra.token ? [{ name: "X-Roundcube-Request", value: extra.token }] : []),
      ],
      cookies: [],
      ...(method === "POST"
        ? { postData: { mimeType: "application/x-www-form-urlencoded", text: "_user=reader" } }
        : {}),
    },
    response: {
      status,
      headers: extra.headers ?? [],
      cookies: [],
      content: { mimeType: String(extra.mime ?? "text/html"), text: String(extra.text ?? "") },
      redirectURL: "",
    },
    _resourceType: extra.type ?? "document",
  };
}

/** chrome-har's shape: the login's three lines recorded on the page after it. */
function recording(): string {
  const setCookie = `roundcube_sessauth=-del-; Max-Age=0; path=/\n${SID}; path=/\n${AUTH}; path=/`;
  const entries = [
    entry("POST", "/?_task=login", 302, {
      second: 1,
      headers: [{ name: "Location", value: `/?_task=mail&_token=${TOKEN}` }],
    }),
    entry("GET", `/?_task=mail&_token=${TOKEN}`, 200, {
      second: 2,
      cookie: `${SID}; ${AUTH}`,
      // chrome-har keeps the redirect's Location on the page too.
      headers: [
        { name: "Location", value: `/?_task=mail&_token=${TOKEN}` },
        { name: "Set-Cookie", value: setCookie },
      ],
      text: page(TOKEN),
    }),
    entry("GET", "/?_task=mail&_action=list&_remote=1", 200, {
      second: 3,
      // chrome-har recorded the XHR without its cookies: the browser's jar fills them.
      token: TOKEN,
      mime: "application/json",
      text: '{"action":"list","exec":"this.set_message_count(0)"}',
      type: "xhr",
    }),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "chrome-har" }, entries } });
}

Deno.test("convert har: a cookie a redirect deletes and sets again in one answer goes back to the redirect whole, so the page after it captures nothing and the API gets the fresh cookie", async () => {
  const app = standIn();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording());
    const flow = await convertHarFile(`${dir}/app.har`, `${dir}/app.yaml`);
    await runCliTwice(`${dir}/app.yaml`, app.origin, flow);
    assert.equal(app.listed.length, 2);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
