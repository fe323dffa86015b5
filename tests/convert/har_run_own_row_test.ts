/**
 * `convert har` on a list whose new row is named only by a text the flow makes the run's own.
 * DAViCal's web admin (docs/real-servers-har.md) creates a user from a form with an e-mail
 * address, and its user list links the new row (`admin.php?action=edit&t=principal&id=1001`)
 * beside that address. The flow sends `harbour-${RUN_ID}@example.com` (a second run would be
 * refused the same address), but the row's capture looked for the recorded `harbour@example.com`:
 * it failed on the first run, and every step after it was skipped. The same holds for a name
 * ending in a number the flow replaces with the run id (`Dock 1042` → `Dock ${RUN_ID}`). The
 * stand-in numbers its rows from a counter and refuses a name or address it holds, so a flow
 * must create, read and delete its own row on each of two runs on one instance.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8872";

type Row = { id: number; name: string; email: string };
/** Which typed text the list shows beside the row's link. */
type Shown = "email" | "name";

const escape = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** The user list: each row's link (its number), and the one text `shown` picks. */
function listPage(rows: Row[], shown: Shown): string {
  const tr = (r: Row) =>
    `<tr class="r0"><td class="right"><a href="/admin.php?action=edit&t=principal&id=${r.id}">` +
    `${r.id}</a></td><td class="left">${escape(r[shown])}</td></tr>`;
  return `<html><body><table><tr><th>ID</th><th>${shown}</th></tr>\n${
    rows.map(tr).join("\n")
  }</table></body></html>`;
}

const page = (text: string) => `<html><body><p>${text}</p></body></html>`;

/** A users admin whose rows are numbered from a counter; a seeded administrator is number 1. */
function standIn(shown: Shown) {
  const rows: Row[] = [{ id: 1, name: "Administrator", email: "admin@example.net" }];
  let next = 1001;
  const html = (body: string, status = 200) =>
    new Response(body, { status, headers: { "content-type": "text/html" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const action = url.searchParams.get("action");
    const id = Number(url.searchParams.get("id"));
    if (action === "browse") return html(listPage(rows, shown));
    if (req.method === "POST" && action === "create") {
      const form = new URLSearchParams(await req.text());
      const name = form.get("name") ?? "", email = form.get("email") ?? "";
      if (rows.some((r) => r.name === name || r.email === email)) {
        return html(page("A principal with that name or address exists."), 409);
      }
      rows.push({ id: next++, name, email });
      return html(page("Creating new Principal record."));
    }
    const at = rows.findIndex((r) => r.id === id);
    if (at === -1) return html(page("No such principal."), 404);
    if (action === "delete") rows.splice(at, 1);
    return html(page(action === "delete" ? "Principal deleted." : `Principal ${id}`));
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, rows, close: () => server.shutdown() };
}

/** The journey: create a user, open the list, open the new row, delete it, the list again. */
function journey(shown: Shown): string {
  const made: Row = { id: 1001, name: "Dock 1042", email: "harbour@example.com" };
  const seeded: Row = { id: 1, name: "Administrator", email: "admin@example.net" };
  const create: EntrySpec = {
    method: "POST",
    url: `${AT}/admin.php?action=create`,
    headers: [["Content-Type", "application/x-www-form-urlencoded"]],
    mime: "application/x-www-form-urlencoded",
    body: new URLSearchParams({ name: made.name, email: made.email }).toString(),
    html: page("Creating new Principal record."),
  };
  return harOf([
    { url: `${AT}/admin.php?action=browse`, html: listPage([seeded], shown) },
    create,
    { url: `${AT}/admin.php?action=browse`, html: listPage([seeded, made], shown) },
    { url: `${AT}/admin.php?action=edit&t=principal&id=1001`, html: page("Principal 1001") },
    { url: `${AT}/admin.php?action=delete&t=principal&id=1001`, html: page("Principal deleted.") },
    { url: `${AT}/admin.php?action=browse`, html: listPage([seeded], shown) },
  ]);
}

for (const shown of ["email", "name"] as Shown[]) {
  Deno.test(`convert har: a row named by the ${shown} the flow makes the run's own is found by the run's ${shown}, twice on one instance`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-run-own-row-" });
    const server = standIn(shown);
    try {
      const { flow } = await convertHar(dir, journey(shown));
      assert.match(flow, /\$\{RUN_ID\}/, flow);
      for (const run of [1, 2]) {
        const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
        assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
        assert.deepEqual(server.rows.map((r) => r.id), [1], `run ${run}\n${flow}`);
      }
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
