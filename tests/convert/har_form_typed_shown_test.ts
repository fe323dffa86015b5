/**
 * `convert har` on a text the user typed into a plain (urlencoded) form, shown back later by
 * another form's text box under another name, as SQL-Ledger's invoice does
 * (docs/real-servers-har.md): the user adds a part numbered `BW-A-100`, then types that number
 * into an invoice line (`partnumber_1`) and updates it; the answer holds it in
 * `<input name="partnumber_1" value="BW-A-100">`, and the post sends it again. Letters and digits
 * in an input the page wrote read as a value the server handed out, and a secret by its shape:
 * every request sending it asked `RECORDED_SECRET` and the run sent nothing. The same text sent
 * in a JSON body was already the client's own (EverShop's SKU); a form's field is as much the
 * client's: the part's form sent it before any answer held it.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8873";
const NUMBER = "BW-A-100";

/** The invoice form, its line holding part number `part`. */
const invoice = (part: string) =>
  `<html><body><form method=post action=is.pl><input name="partnumber_1" size="15" value="${part}">` +
  `<input name="qty_1" value="3"><input type=submit name=action value="Post"></form></body></html>`;

/** A ledger that knows the parts added and posts invoices of known parts only. */
function standIn() {
  const parts = new Set<string>();
  const posted: string[] = [];
  const html = (body: string, status = 200) =>
    new Response(body, { status, headers: { "content-type": "text/html" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET") return html(invoice(""));
    const form = new URLSearchParams(await req.text());
    if (url.pathname === "/ic.pl") parts.add(form.get("partnumber") ?? "");
    const part = form.get("partnumber_1") ?? "";
    if (url.pathname === "/is.pl" && !parts.has(part)) return html("Part not found", 404);
    if (form.get("action") === "Post") posted.push(part);
    return html(invoice(part));
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, posted, close: () => server.shutdown() };
}

function journey(): string {
  const post = (path: string, fields: Record<string, string>, html: string): EntrySpec => ({
    method: "POST",
    url: `${AT}/${path}`,
    headers: [["Content-Type", "application/x-www-form-urlencoded"]],
    mime: "application/x-www-form-urlencoded",
    body: new URLSearchParams(fields).toString(),
    html,
  });
  return harOf([
    { url: `${AT}/ic.pl?action=add&item=part`, html: invoice("") },
    post("ic.pl", { partnumber: NUMBER, description: "Blue widget", action: "Save" }, invoice("")),
    { url: `${AT}/is.pl?action=add&type=invoice`, html: invoice("") },
    post("is.pl", { partnumber_1: NUMBER, qty_1: "3", action: "Update" }, invoice(NUMBER)),
    post("is.pl", { partnumber_1: NUMBER, qty_1: "3", action: "Post" }, invoice(NUMBER)),
  ]);
}

Deno.test("convert har: a text a form sent, shown back in another form's box, is sent as typed, not asked as a secret", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-form-typed-" });
  const server = standIn();
  try {
    const { converted, flow } = await convertHar(dir, journey());
    assert.doesNotMatch(converted.stderr, /RECORDED_SECRET/, converted.stderr);
    assert.match(flow, /partnumber_1: BW-A-100\n/, flow);
    const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
    assert.equal(out.code, 0, `${out.stdout}\n${flow}`);
    assert.deepEqual(server.posted, [NUMBER]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
