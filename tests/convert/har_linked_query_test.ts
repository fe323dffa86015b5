/**
 * `convert har` on a page that links a value the server made under a query name, and later
 * requests that send it under that name elsewhere. A cron editor's web UI (Crontab UI 0.3.16,
 * docs/real-servers-har.md) names a backup after the server's clock (`backup Mon Nov 30 2026
 * 11:54:04 GMT 0000 (…).db`) and lists it only as a link `restore?db=<name>`, its spaces not
 * escaped; the restore page then sends the name form-encoded to `restore_backup?db=…` and
 * `delete?db=…`. The flow sent the recorded name, which a fresh instance never made. Evidence,
 * not names: the value had to be escaped in the URL, no request of the journey sent it before,
 * and the latest earlier page links it under the same query name (spelled as the page wrote it).
 * It is captured from that link; a value the journey typed (sent before) stays as recorded.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:5000";
/** What jQuery's `$.get` sends: an XHR, not a page the browser opened. */
const XHR: [string, string][] = [["Accept", "*/*"], ["X-Requested-With", "XMLHttpRequest"]];

/** The list page of an instance holding `exports`: one link per export, names written raw. */
const listPage = (exports: string[]) =>
  `<html><body><ul>${
    exports.map((n) => `<li><a href="open?file=${n}">${n}</a></li>`).join("")
  }</ul><a href="open?file=notes">notes</a></body></html>`;

/** A stand-in that names each export after its clock and drops only one it made. */
function standIn() {
  const made = new Set<string>();
  let tick = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const html = (text: string, status = 200) =>
      new Response(text, { status, headers: { "content-type": "text/html" } });
    if (url.pathname === "/") return html(listPage([...made]));
    if (url.pathname === "/export") {
      made.add(`export ${new Date(Date.UTC(2031, 0, 2, 3, 4, tick++)).toUTCString()}.db`);
      return Response.json({ ok: true });
    }
    const file = url.searchParams.get("file") ?? "";
    if (url.pathname === "/remove" && made.delete(file)) return Response.json({ ok: true });
    return html(`<p>No export ${file}</p>`, 404);
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** The recording: an export made, the list read, the export removed by its name. */
function recording(): string {
  const name = "export Sat, 01 Jan 2028 10:00:00 GMT.db";
  return harOf([
    { url: `${AT}/export`, headers: XHR, json: { ok: true } },
    { url: `${AT}/`, html: listPage([name]) },
    {
      url: `${AT}/remove?file=${encodeURIComponent(name).replace(/%20/g, "+")}`,
      headers: XHR,
      json: { ok: true },
    },
  ]);
}

Deno.test("convert har: a query value the server named, linked by an earlier page under that name, is captured from the link, and the flow passes twice on a fresh instance", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-linked-query-" });
  const app = standIn();
  try {
    const { flow } = await convertHar(dir, recording());
    const sent = flow.split("\n").filter((line) => !/^\s*#/.test(line)).join("\n");
    assert.ok(!/2028/.test(sent), flow);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(run.code, 0, `run ${n}: ${run.stdout}\n${flow}`);
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a query value the journey sent before stays as recorded though a page links it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-linked-query-" });
  try {
    const typed = "spring notes 2028";
    const { flow } = await convertHar(
      dir,
      harOf([
        { url: `${AT}/find?file=${typed.replace(/ /g, "+")}`, headers: XHR, json: { found: 0 } },
        { url: `${AT}/`, html: `<a href="open?file=${typed}">${typed}</a>` },
        { url: `${AT}/remove?file=${typed.replace(/ /g, "+")}`, headers: XHR, json: { ok: true } },
      ]),
    );
    const remove = flow.slice(flow.lastIndexOf("url: ${vars.base_url}/remove"));
    assert.match(remove, /file=spring\+notes\+2028/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
