/**
 * `convert har` on small row numbers a server-rendered page links only from the row that shows
 * what the journey typed, as Nagios 4's host page does (docs/real-servers-har.md): a comment
 * added through a form post answered "submitted" (no id anywhere), then the host page lists it
 * as a table row whose last cell is an icon linking `cmd.cgi?cmd_typ=2&com_id=1`; the user
 * clicks it, and confirms. A one-digit number is no evidence of an id on its own, so the link was
 * sent as recorded: right on a fresh instance, but a second run on the same instance made comment
 * 3 and deleted number 1 (gone), and the server refused in words on a 200 page, so the run passed
 * and left its comment behind. The evidence is the row: the only row of the page that shows a
 * text the journey sent holds the link. The stand-in numbers its comments from a counter, so it
 * fails a flow that replays the recorded number on its second run: the row is left.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8871";
const TEXT = "Harbour check: disk swap tonight";
const SEEDED = "Quay lights replaced";

type Comment = { id: number; text: string };
/** How a row is written: the delete link after the text (Nagios), before it, or in a list item. */
type Markup = "after" | "before" | "item";

const link = (id: number, q: string) =>
  `<a href=${q}cmd.cgi?cmd_typ=2&amp;com_id=${id}${q}><img src=${q}delete.gif${q} ` +
  `title=${q}Delete This Comment${q}></a>`;

/** The host page listing `comments`, every row written as `markup` says. */
function hostPage(comments: Comment[], markup: Markup, q = "'"): string {
  const row = (c: Comment) =>
    markup === "item"
      ? `<li class=${q}comment${q}><span>${c.text}</span> ${link(c.id, q)}</li>`
      : markup === "before"
      ? `<tr><td>${link(c.id, q)}</td><td>nagiosadmin</td><td>${c.text}</td></tr>`
      : `<tr class=${q}commentOdd${q}><td>quay</td><td>nagiosadmin</td><td>${c.text}</td>` +
        `<td>${link(c.id, q)}</td></tr>`;
  const rows = comments.map(row).join("\n");
  return markup === "item"
    ? `<html><body><ul>${rows}</ul></body></html>`
    : `<html><body><table><tr><th>Host</th><th>Author</th><th>Comment</th></tr>\n${rows}</table></body></html>`;
}

/** The confirmation page of deleting comment `id`. */
const confirmPage = (id: number) =>
  `<html><body><form method='post' action='cmd.cgi'><input type='hidden' name='cmd_typ' ` +
  `value='2'><input type='hidden' name='com_id' value='${id}'><input type='submit' ` +
  `name='btnSubmit' value='Commit'></form></body></html>`;

const SUBMITTED = "<html><body>Your command request was successfully submitted.</body></html>";
const REFUSED = "<html><body>Sorry, but you are not authorized to commit the specified command." +
  "</body></html>";

/** A console whose comments are numbered from a counter; a seeded one is number 1. */
function standIn(markup: Markup) {
  const comments: Comment[] = [{ id: 1, text: SEEDED }];
  let next = 2;
  const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/extinfo.cgi") return html(hostPage(comments, markup));
    if (req.method === "GET" && url.pathname === "/cmd.cgi") {
      return html(confirmPage(Number(url.searchParams.get("com_id"))));
    }
    const form = new URLSearchParams(await req.text());
    if (form.get("cmd_typ") === "1") {
      comments.push({ id: next++, text: form.get("com_data") ?? "" });
      return html(SUBMITTED);
    }
    const at = comments.findIndex((c) => c.id === Number(form.get("com_id")));
    if (at === -1) return html(REFUSED);
    comments.splice(at, 1);
    return html(SUBMITTED);
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    comments,
    close: () => server.shutdown(),
  };
}

/** The journey: the host page, add a comment, the page again, its delete link, confirm. */
function journey(markup: Markup, q: string): string {
  const form = (fields: Record<string, string>): EntrySpec => ({
    method: "POST",
    url: `${AT}/cmd.cgi`,
    headers: [["Content-Type", "application/x-www-form-urlencoded"]],
    mime: "application/x-www-form-urlencoded",
    body: new URLSearchParams(fields).toString(),
    html: SUBMITTED,
  });
  const seeded = { id: 1, text: SEEDED };
  return harOf([
    { url: `${AT}/extinfo.cgi?type=1&host=quay`, html: hostPage([seeded], markup, q) },
    form({ cmd_typ: "1", cmd_mod: "2", host: "quay", com_data: TEXT }),
    {
      url: `${AT}/extinfo.cgi?type=1&host=quay`,
      html: hostPage([seeded, { id: 2, text: TEXT }], markup, q),
    },
    { url: `${AT}/cmd.cgi?cmd_typ=2&com_id=2`, html: confirmPage(2) },
    form({ cmd_typ: "2", com_id: "2", cmd_mod: "2", btnSubmit: "Commit" }),
    { url: `${AT}/extinfo.cgi?type=1&host=quay`, html: hostPage([seeded], markup, q) },
  ]);
}

for (
  const [markup, q] of [["after", "'"], ["before", '"'], ["item", "'"]] as [Markup, string][]
) {
  Deno.test(`convert har: a small id linked from the one row showing the typed text (${markup}, ${q}) is read from that row, and a second run deletes its own row`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-row-link-" });
    const server = standIn(markup);
    try {
      const { flow } = await convertHar(dir, journey(markup, q));
      for (const run of [1, 2]) {
        const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
        assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
        assert.deepEqual(server.comments.map((c) => c.text), [SEEDED], `run ${run}\n${flow}`);
      }
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("convert har: a number linked from a row that shows no text the journey sent stays as recorded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-row-link-" });
  try {
    // The journey deletes the seeded comment: nothing it typed names that row.
    const har = JSON.parse(journey("after", "'"));
    har.log.entries.splice(1, 2);
    har.log.entries[0].request.url = `${AT}/extinfo.cgi?type=1&host=quay`;
    har.log.entries[1].request.url = `${AT}/cmd.cgi?cmd_typ=2&com_id=1`;
    har.log.entries[1].response.content.text = confirmPage(1);
    const body = new URLSearchParams({ cmd_typ: "2", com_id: "1", cmd_mod: "2" }).toString();
    har.log.entries[2].request.postData.text = body;
    const { flow } = await convertHar(dir, JSON.stringify(har));
    assert.match(flow, /cmd\.cgi\?cmd_typ=2&com_id=1\n/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
