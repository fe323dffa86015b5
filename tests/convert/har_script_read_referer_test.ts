/**
 * `convert har` on a page whose script reads a form fragment from a server that refuses a
 * script's request without a `Referer`, as osTicket 1.18's public ticket form does (measured by
 * hand, docs/real-servers-har.md): picking a help topic fetches
 * `GET /ajax.php/form/help-topic/2` with `X-Requested-With: XMLHttpRequest`, and the server
 * answers `403 Forbidden.` when the request names no page it came from. The `Referer` was kept
 * only on writes and on links that act (`referer_header.ts`), so the read failed on every
 * instance and every step after it was skipped.
 *
 * The evidence is in the recording: the request says a page's script sent it
 * (`X-Requested-With: XMLHttpRequest`, the mark servers tell a script's request by), it sent the
 * session's cookie and its own page's `Referer`. Such a read keeps its `Referer` on the base URL,
 * as a write does; a page the browser navigated to keeps none.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8874";
const SID = "9d8c7b6a5f4e3d2c1b0a9f8e";

/** A desk whose form fragment wants a `Referer`; its pages and its ticket post do not. */
function standIn() {
  const state = { fragments: 0, tickets: 0 };
  const html = (body: string, status = 200) =>
    new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/open.php" && req.method === "GET") {
      const headers = {
        "content-type": "text/html",
        "set-cookie": `sid=${crypto.randomUUID()}; Path=/`,
      };
      return new Response("<form method=post><select name=topicId></select></form>", { headers });
    }
    if (url.pathname === "/ajax.php/form/help-topic/2") {
      if (!req.headers.get("referer")) return html("Forbidden.", 403);
      state.fragments++;
      return html(JSON.stringify({ html: "<input name=summary>" }));
    }
    if (url.pathname === "/open.php" && req.method === "POST") {
      state.tickets++;
      return html("<p>Support ticket request created</p>");
    }
    return html("not found", 404);
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, state, close: () => server.shutdown() };
}

/** The form page, its script's read of the topic's fields, the ticket's post. */
function journey(): string {
  const cookie: [string, string] = ["Cookie", `sid=${SID}`];
  const page = `${AT}/open.php`;
  const specs: EntrySpec[] = [
    { url: page, html: "<form method=post></form>", setCookies: [["sid", SID]] },
    {
      url: `${AT}/ajax.php/form/help-topic/2`,
      headers: [cookie, ["Referer", page], ["X-Requested-With", "XMLHttpRequest"]],
      html: JSON.stringify({ html: "<input name=summary>" }),
    },
    {
      method: "POST",
      url: page,
      headers: [cookie, ["Referer", page]],
      mime: "application/x-www-form-urlencoded",
      body: "topicId=2&summary=Crane+stuck",
      html: "<p>Support ticket request created</p>",
    },
  ];
  return harOf(specs);
}

Deno.test("convert har: a script's read (X-Requested-With) keeps the page's Referer, and a server that checks it answers", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-script-referer-" });
  const server = standIn();
  try {
    const { flow } = await convertHar(dir, journey());
    const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
    assert.equal(out.code, 0, `${out.stdout}\n${flow}`);
    assert.deepEqual(server.state, { fragments: 1, tickets: 1 }, flow);
    // The script's read and the post send it, on the base URL; the navigated page sends none.
    assert.equal(flow.match(/referer: \$\{origin:vars\.base_url\}\/open\.php\n/g)?.length, 2, flow);
    assert.equal(flow.match(/referer:/g)?.length, 2, flow);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
