/**
 * `convert har` where a header names a row the journey made inside longer
 * text: an htmx page's edit sends `hx-target: edit-form-<the link's id>` and
 * `hx-trigger` the same, the id the create's page linked (`/stats?id=…`). Sent as recorded, the
 * header names the recorded row on another instance (`--verify` had to
 * repair it, and two recordings asked it as a variable). A UUID an answer
 * produced, inside a header's value, is that answer's capture there too, as
 * it is in the URL beside it.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { formExchange } from "../support/har_records.ts";

const APP = "http://127.0.0.1:3701";
const ID = "0b4a8cad-02b9-455f-a1a7-bc3692844e9a";

const HOME =
  '<html><body><form method="post" action="/links"><input name="target"></form></body></html>';
const made = (id: string) => `<table><tr><td><a href="/stats?id=${id}">Stats</a></td></tr></table>`;

/** A stand-in that makes a row and takes an edit only from the form that names that row. */
function standIn() {
  const rows = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === "/links") {
      const id = crypto.randomUUID();
      rows.add(id);
      return html(made(id));
    }
    const id = url.pathname.split("/").pop() ?? "";
    if (req.method === "PATCH" && rows.has(id)) {
      return req.headers.get("hx-target") === `edit-form-${id}`
        ? html("<p>Saved.</p>")
        : new Response(`hx-target names ${req.headers.get("hx-target")}`, { status: 400 });
    }
    if (req.method === "GET" && url.pathname === "/") return html(HOME);
    return new Response("no such link", { status: 404 });
  });
  const port = (server.addr as Deno.NetAddr).port;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

function html(text: string) {
  return new Response(text, { headers: { "content-type": "text/html" } });
}

Deno.test("convert har: a made row's id inside a header's value is captured there too", async () => {
  const edit = formExchange("PATCH", `${APP}/api/links/${ID}`, "target=x", "<p>Saved.</p>");
  edit.request.headers.push(
    { name: "hx-request", value: "true" },
    { name: "hx-target", value: `edit-form-${ID}` },
  );
  const har = JSON.stringify({
    log: {
      entries: [
        formExchange("GET", `${APP}/`, undefined, HOME),
        formExchange("POST", `${APP}/links`, "target=a", made(ID)),
        edit,
      ],
    },
  });
  const { flow, run } = await convertHarThenRun(standIn, har);
  const sent = flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
  assert.doesNotMatch(sent, new RegExp(`edit-form-${ID}`), flow);
  assert.equal(run.code, 0, `${run.stdout}${run.stderr}\n${flow}`);
});
