/**
 * `convert har` on a form a page's script fetched as HTML inside a JSON answer: ZoneMinder 1.36
 * opens its log-out dialog by `GET ?request=modal&modal=logout`, answered
 * `{"result":"Ok","html":"<form …><input type=\"hidden\" name=\"__csrf_magic\" value=\"key:…,…\" \/>…"}`,
 * and the dialog's form posts that token. The token is made for each answer, so no earlier page
 * held it, and the JSON answer held it only inside a longer string: the summary asked the user for
 * it (`INDEX_PHP_8_CSRF_MAGIC`), and the recorded one was refused (`403`).
 *
 * The rule (correlate/json_html.ts): a JSON answer's string member that holds HTML is read as a
 * page (its hidden inputs, `<meta>` tokens, data- attributes), each value captured from that
 * member with the page's pattern (`{path: $.json.html, regex: …}`), as a page's own would be.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar } from "../support/form_pages.ts";
import { convertHarThenRun } from "../support/cli.ts";

/** A dialog's HTML with a fresh `token`, as a server writes it into a JSON string. */
const dialog = (token: string) =>
  `<div class="modal"><p>Sign out?</p><form method="post" action="/logout">` +
  `<input type="hidden" name="__guard" value="${token}" /><button>Sign out</button></form></div>`;

/** An app whose dialogs come as JSON and whose posts need the token the latest dialog made. */
function dialogApp() {
  const issued = new Set<string>();
  let signedOut = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/modal") {
      const token = `key:${crypto.randomUUID().replaceAll("-", "")},${Date.now()}`;
      issued.add(token);
      return Response.json({ result: "Ok", html: dialog(token) });
    }
    if (url.pathname === "/logout" && req.method === "POST") {
      const sent = new URLSearchParams(await req.text()).get("__guard") ?? "";
      if (!issued.delete(sent)) return htmlPage(url.origin, 403, "bad token");
      signedOut++;
      return htmlPage(url.origin, 200, "signed out");
    }
    return htmlPage(url.origin, 200, '<button id="out">Sign out</button>');
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    origin: `http://127.0.0.1:${port}`,
    signedOut: () => signedOut,
    close: () => server.shutdown(),
  };
}

/** The journey as Chromium recorded it: the page, the dialog fetched, its form posted. */
function recording(): string {
  const token = "key:9f2c41d07a6b4be1a1c35e8d2f60b7aa,1796060741";
  const har = JSON.parse(pagesHar("http://127.0.0.1:8000", [
    { method: "GET", path: "/console", text: '<button id="out">Sign out</button>' },
    { method: "GET", path: "/modal?modal=logout" },
    { method: "POST", path: "/logout", ...formPost(`__guard=${encodeURIComponent(token)}`) },
  ]));
  const modal = har.log.entries[1];
  modal._resourceType = "xhr";
  modal.response.headers = [{ name: "Content-Type", value: "application/json" }];
  // PHP's json_encode escapes each `/` as `\/`.
  const text = JSON.stringify({ result: "Ok", html: dialog(token) }).replaceAll("/", "\\/");
  modal.response.content = { mimeType: "application/json", text };
  har.log.entries[2].response.content.text = "signed out";
  return JSON.stringify(har);
}

Deno.test("convert har: a dialog's token inside a JSON answer's HTML is captured there, not asked", async () => {
  const { converted, flow, runs, server } = await convertHarThenRun(dialogApp, recording(), {}, 2);
  assert.doesNotMatch(converted.stderr, /Set before running/, converted.stderr);
  assert.ok(!flow.includes("9f2c41d07a6b"), flow);
  runs.forEach((run, n) => assert.equal(run.code, 0, `run ${n + 1}\n${run.stdout}\n${flow}`));
  assert.equal(server.signedOut(), 2);
});
