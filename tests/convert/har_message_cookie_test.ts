/**
 * `convert har` on a recording whose page script leaves a message for the next page in cookies,
 * as Zabbix's frontend does after a save by XHR (tests/real/zabbix.ts): the answer is JSON
 * (`{"success":{"title":"Note added"}}`), the script writes `flash-ok=Note%20added` and
 * `flash-details=<base64 of {"type":"success","messages":[…]}>`, the list page it loads next sends
 * them and the server clears them. No answer set either, so the converter read each from the
 * save's live answer, which sets only the session: the capture failed and the journey stopped.
 *
 * What the converter does (lib/convert/values.ts): a cookie's value is judged as the text it
 * carries, its percent-encoding undone and, when it is base64 of JSON, by the JSON's strings: a
 * message with spaces is no secret, so the cookie goes as recorded. A base64 JSON value that holds
 * a token (a session's id and signature) stays a credential.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, type PageSpec, passesTwice } from "../support/form_pages.ts";

const PASSWORD = "keeper-typed-52";
const ORIGIN = "http://127.0.0.1:8300";
const SID = "5f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f";
const DETAILS = btoa(JSON.stringify({ type: "success", messages: ["Note added to the board"] }));

/** The stand-in: a session cookie renewed by every answer; the note's save is XHR. */
function standIn() {
  const sessions = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /(?:^|; )sid=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    const renewed = (res: Response, id = sid) => {
      res.headers.append("set-cookie", `sid=${id}; path=/; HttpOnly`);
      return res;
    };
    if (url.pathname === "/login" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      if (form.get("password") !== PASSWORD) return htmlPage(url.origin, 403, "wrong");
      const fresh = crypto.randomUUID().replaceAll("-", "");
      sessions.add(fresh);
      return renewed(htmlPage(url.origin, 302, "", "/notes"), fresh);
    }
    if (!sessions.has(sid)) return htmlPage(url.origin, 401, "sign in");
    if (req.method === "POST") {
      await req.body?.cancel();
      return renewed(Response.json({ success: { title: "Note added" } }));
    }
    const res = renewed(htmlPage(url.origin, 200, "<ul><li>Quay</li></ul>"));
    res.headers.append("set-cookie", "flash-ok=deleted; Max-Age=0");
    return res;
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

/** The journey recorded on another instance. */
function recording(): string {
  const session = [{ name: "Cookie", value: `sid=${SID}` }];
  const pages: PageSpec[] = [
    { method: "POST", path: "/login", location: "/notes", ...formPost(`password=${PASSWORD}`) },
    { method: "GET", path: "/notes", headers: session, text: "<ul></ul>" },
    {
      method: "POST",
      path: "/notes",
      headers: [...session, { name: "Content-Type", value: "application/json" }],
      postData: { mimeType: "application/json", text: '{"title":"Quay"}' },
    },
    {
      method: "GET",
      path: "/notes",
      headers: [{
        name: "Cookie",
        value: `sid=${SID}; flash-ok=Note%20added; flash-details=${DETAILS}`,
      }],
      text: "<ul><li>Quay</li></ul>",
    },
    {
      method: "POST",
      path: "/notes",
      headers: [...session, { name: "Content-Type", value: "application/json" }],
      postData: { mimeType: "application/json", text: '{"title":"Pier"}' },
    },
  ];
  const har = JSON.parse(pagesHar(ORIGIN, pages));
  for (const entry of har.log.entries) {
    entry.response.headers.push({ name: "Set-Cookie", value: `sid=${SID}; path=/; HttpOnly` });
  }
  for (const save of [har.log.entries[2], har.log.entries[4]]) {
    save.response.headers[0].value = "application/json";
    const text = '{"success":{"title":"Note added"}}';
    save.response.content = { mimeType: "application/json", text };
    save._resourceType = "xhr";
  }
  return JSON.stringify(har);
}

Deno.test("convert har: cookies a page script wrote with a message for the next page go as recorded, twice", async () => {
  const app = standIn();
  try {
    await passesTwice(recording(), app.origin, (flow, summary) => {
      assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
      assert.ok(!flow.includes(SID), flow);
      assert.match(flow, /flash-ok=Note%20added/);
    }, { LOGIN_PASSWORD: PASSWORD });
  } finally {
    await app.close();
  }
});
