/**
 * `convert har` where an edit form sends back, untouched, a value the server
 * made and its page prefilled in a visible text box: a URL shortener draws a
 * six-letter address for a new link (`pfqsZQ`), shows it, and its edit page
 * holds it in `<input name="address" type="text" value="pfqsZQ">`. Sent as
 * recorded, the edit renames another instance's link to the recorded address
 * (or is refused where it is taken). A field sent as the form's page held it,
 * whose value an answer showed before any request sent it, is the page's:
 * captured from that page. A value the user typed first stays the user's.
 */
import assert from "node:assert/strict";
import { convertHarThenRun, runCli, runFlowText } from "../support/cli.ts";
import { formExchange } from "../support/har_records.ts";

const APP = "http://127.0.0.1:3701";
const ID = "0b4a8cad-02b9-455f-a1a7-bc3692844e9a";

const made = (id: string, address: string) =>
  `<html><body><p>Made <a href="/edit?id=${id}">${APP}/${address}</a></p></body></html>`;
const editPage = (id: string, address: string, note: string) =>
  `<html><body><form method="post" action="/save?id=${id}">` +
  `<input name="address" type="text" value="${address}">` +
  `<input name="note" type="text" value="${note}"></form></body></html>`;

/** A stand-in that draws each link's address, and refuses an edit that renames it. */
function standIn() {
  const links = new Map<string, { address: string; note: string }>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const id = url.searchParams.get("id") ?? "";
    if (req.method === "POST" && url.pathname === "/links") {
      const form = new URLSearchParams(await req.text());
      const made_ = crypto.randomUUID();
      const address = crypto.randomUUID().replace(/[^a-f]/g, "").slice(0, 6).padEnd(6, "q");
      links.set(made_, { address, note: form.get("note") ?? "" });
      return html(made(made_, address));
    }
    const link = links.get(id);
    if (!link) return new Response("no such link", { status: 404 });
    if (req.method === "GET" && url.pathname === "/edit") {
      return html(editPage(id, link.address, link.note));
    }
    const form = new URLSearchParams(await req.text());
    if (form.get("address") !== link.address) {
      return new Response(`address ${form.get("address")} is not this link's`, { status: 409 });
    }
    link.note = form.get("note") ?? "";
    return html("<p>Saved.</p>");
  });
  const port = (server.addr as Deno.NetAddr).port;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

function html(text: string) {
  return new Response(text, { headers: { "content-type": "text/html" } });
}

/** The recording of one session: make a link, open its edit page, save a new note. */
function recording(id: string, address: string) {
  return JSON.stringify({
    log: {
      entries: [
        formExchange("POST", `${APP}/links`, "note=Runbook", made(id, address)),
        formExchange("GET", `${APP}/edit?id=${id}`, undefined, editPage(id, address, "Runbook")),
        formExchange(
          "POST",
          `${APP}/save?id=${id}`,
          `address=${address}&note=Runbook+v2`,
          "<p>Saved.</p>",
        ),
      ],
    },
  });
}

Deno.test("convert har: a value the server made, prefilled in a text box and sent back untouched, is the page's", async () => {
  const { flow, run } = await convertHarThenRun(standIn, recording(ID, "pfqsZQ"));
  const sent = flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
  assert.doesNotMatch(sent, /address: pfqsZQ/, flow);
  assert.equal(run.code, 0, `${run.stdout}${run.stderr}\n${flow}`);
});

Deno.test("convert har: two recordings capture it too, not a value made fresh", async () => {
  const dir = await Deno.makeTempDir();
  const server = standIn();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, recording(ID, "pfqsZQ"));
    await Deno.writeTextFile(`${dir}/b.har`, recording(crypto.randomUUID(), "KmTrwx"));
    const out = await runCli([
      "convert",
      "har",
      `${dir}/a.har`,
      `${dir}/b.har`,
      "-o",
      `${dir}/f.yaml`,
    ]);
    assert.equal(out.code, 0, out.stderr);
    const flow = await Deno.readTextFile(`${dir}/f.yaml`);
    assert.match(flow, /address: \$\{steps\.open_edit\.capture\.address\}/, flow);
    const run = await runFlowText(flow, { BASE_URL: server.origin });
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}\n${flow}`);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
