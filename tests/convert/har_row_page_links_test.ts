/**
 * `convert har` on a created row's small number sent to the other pages the row's own page links,
 * as a server-rendered tracker does (Request Tracker: `POST /Ticket/Create.html` answers `302
 * Location: /Ticket/Display.html?id=1&results=…`, and the ticket's page links
 * `Modify.html?id=1` and `Update.html?Action=Comment;id=1`, where the user edits and comments;
 * Perl's CGI takes `;` between a query's fields as `&`).
 * A one-digit number is no evidence of an id on its own, and `query_rows.ts` took the
 * `Location`'s number only back to the same page (`Display.html`), so the edit and the comment
 * were sent to the recorded ticket: right on a fresh instance, but a second run on one instance
 * made ticket 3 and changed ticket 2, the first run's. The evidence is the page the `Location`
 * led to: it links those pages with the same `id=1`. The comment form also holds an empty hidden
 * field named after the ticket (`1-RefersTo`): read by that name from a second run's page, it
 * found nothing and failed the step, though the browser sent it empty. The stand-in numbers its
 * tickets from a counter and keeps what each one was sent.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8872";
const SUBJECT = "Harbour crane stalls at noon";
const EDITED = "Harbour crane stalls at noon, east quay";
const COMMENT = "Seen again on the night shift";

type Ticket = { id: number; subject: string; status: string; comments: string[] };

/** The ticket's own page: its subject and the links to its other pages, written as `q` quotes. */
function displayPage(t: Ticket, q: string): string {
  const a = (href: string, label: string) => `<a href=${q}${href}${q}>${label}</a>`;
  return `<html><body><h1>#${t.id}: ${t.subject}</h1><ul>` +
    `<li>${a(`/Ticket/Display.html?id=${t.id}`, "Display")}</li>` +
    `<li>${a(`/Ticket/Modify.html?id=${t.id}`, "Basics")}</li>` +
    `<li>${a(`/Ticket/Update.html?Action=Comment;id=${t.id}`, "Comment")}</li>` +
    `</ul><p>Status: ${t.status}</p></body></html>`;
}

/** A form for ticket `id` posting `fields` to `page`. */
const formPage = (page: string, id: number, fields: string) =>
  `<html><body><form method="post" action="/Ticket/${page}"><input type="hidden" name="id" ` +
  `value="${id}">${fields}<input type="submit" value="Save"></form></body></html>`;

/** The comment form's fields: an empty hidden field named after the ticket, as RT's links box. */
const updateFields = (id: number) =>
  `<input type="hidden" name="${id}-RefersTo" value=""><textarea name="UpdateContent"></textarea>`;

/** A tracker whose tickets are numbered from a counter; ticket 1 is seeded. */
function standIn(q: string) {
  const tickets: Ticket[] = [{ id: 1, subject: "Seeded", status: "open", comments: [] }];
  const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });
  const back = (page: string, id: number) =>
    new Response(null, {
      status: 302,
      headers: { location: `/Ticket/${page}?id=${id}&results=${crypto.randomUUID().slice(0, 8)}` },
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    // Perl's CGI takes `;` between a query's fields as `&`.
    const query = url.search.replaceAll(";", "&");
    const form = new URLSearchParams(req.method === "POST" ? await req.text() : query);
    const page = url.pathname.split("/").pop();
    if (req.method === "POST" && page === "Create.html") {
      const t = { id: tickets.length + 1, subject: form.get("Subject")!, status: "new" };
      tickets.push({ ...t, comments: [] });
      return back("Display.html", t.id);
    }
    const t = tickets.find((t) => t.id === Number(form.get("id")));
    if (t === undefined) return html("<p>No such ticket</p>");
    if (req.method === "POST" && page === "Modify.html") {
      t.subject = form.get("Subject") ?? t.subject;
      t.status = form.get("Status") ?? t.status;
      return back("Modify.html", t.id);
    }
    if (req.method === "POST" && page === "Update.html") {
      t.comments.push(form.get("UpdateContent") ?? "");
      return back("Display.html", t.id);
    }
    if (page === "Modify.html") return html(formPage(page, t.id, '<input name="Subject">'));
    if (page === "Update.html") return html(formPage(page, t.id, updateFields(t.id)));
    return html(displayPage(t, q));
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    tickets,
    close: () => server.shutdown(),
  };
}

/** The journey: create ticket 2, open it, edit its subject, comment, then mark it deleted. */
function journey(q: string): string {
  const t: Ticket = { id: 2, subject: SUBJECT, status: "new", comments: [] };
  const post = (page: string, fields: Record<string, string>, to: string): EntrySpec => ({
    method: "POST",
    url: `${AT}/Ticket/${page}`,
    headers: [["Content-Type", "application/x-www-form-urlencoded"]],
    mime: "application/x-www-form-urlencoded",
    body: new URLSearchParams(fields).toString(),
    status: 302,
    html: "",
    setCookies: [],
    ...{ location: to },
  });
  const specs: (EntrySpec & { location?: string })[] = [
    { url: `${AT}/Ticket/Create.html?Queue=1`, html: formPage("Create.html", 0, "") },
    post("Create.html", { Queue: "1", Subject: SUBJECT }, "/Ticket/Display.html?id=2&results=a1"),
    { url: `${AT}/Ticket/Display.html?id=2&results=a1`, html: displayPage(t, q) },
    { url: `${AT}/Ticket/Modify.html?id=2`, html: formPage("Modify.html", 2, "") },
    post("Modify.html", { id: "2", Subject: EDITED }, "/Ticket/Modify.html?id=2&results=b2"),
    { url: `${AT}/Ticket/Modify.html?id=2&results=b2`, html: formPage("Modify.html", 2, "") },
    {
      url: `${AT}/Ticket/Update.html?Action=Comment;id=2`,
      html: formPage("Update.html", 2, updateFields(2)),
    },
    post(
      "Update.html",
      { id: "2", "2-RefersTo": "", UpdateContent: COMMENT },
      "/Ticket/Display.html?id=2&results=c3",
    ),
    { url: `${AT}/Ticket/Display.html?id=2&results=c3`, html: displayPage(t, q) },
    post("Modify.html", { id: "2", Status: "deleted" }, "/Ticket/Modify.html?id=2&results=d4"),
  ];
  const har = JSON.parse(harOf(specs));
  for (const [i, spec] of specs.entries()) {
    if (spec.location === undefined) continue;
    har.log.entries[i].response.headers = [{ name: "Location", value: spec.location }];
    har.log.entries[i].response.redirectURL = spec.location;
  }
  return JSON.stringify(har);
}

for (const q of [`"`, `'`]) {
  Deno.test(`convert har: a created row's small id is sent to the pages its own page links with it (${q}), and a second run changes its own row`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-row-pages-" });
    const server = standIn(q);
    try {
      const { flow } = await convertHar(dir, journey(q));
      for (const run of [1, 2]) {
        const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
        assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
        const own = server.tickets[run];
        assert.deepEqual(
          { ...own },
          { id: run + 1, subject: EDITED, status: "deleted", comments: [COMMENT] },
          `run ${run}: ${JSON.stringify(server.tickets)}\n${flow}`,
        );
      }
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
