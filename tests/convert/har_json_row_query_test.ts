/**
 * `convert har` on a server-rendered SQLite admin that names a row by JSON in a query value
 * (phpLiteAdmin 1.9.8.2, by hand in docs/real-servers-har.md): the table's list links each row's
 * edit and delete as `?action=row_editordelete&pk=%5B1%5D` (`pk=[1]`, the row's key values as a
 * JSON list), and the page that opens holds a form posting to `…&pk=%5B%22%5B1%5D%22%5D`
 * (`pk=["[1]"]`, that list as a string inside another list). No answer held the number but the
 * row's link, and the flow sent both as recorded: on a second run on the same instance (a table
 * the journey keeps) it edited the first run's row and deleted one already gone.
 *
 * What the converter does (correlate/row_links.ts, encoded.ts): a small number inside JSON in a
 * link of the one row that shows a text the journey typed, where the page's other rows link the
 * same page with another number, is captured from the live page by that row's text; and JSON in
 * a query value is read a layer deeper (a JSON text inside one of its strings), so the number is
 * sent inside both encodings. Links written percent-encoded and written raw.
 */
import assert from "node:assert/strict";
import { formPost, pagesHar, passesTwice } from "../support/form_pages.ts";

const HTML = "text/html; charset=utf-8";

/** How a link's `pk` is written into the page: percent-encoded, or the JSON as it is. */
type Spelling = "percent" | "raw";
const inLink = (json: string, spelling: Spelling) =>
  spelling === "percent" ? encodeURIComponent(json) : json.replaceAll('"', "&quot;");

/** The list: a checkbox, the edit and delete links, then the note. */
const listPage = (rows: [number, string][], spelling: Spelling) =>
  `<html><body><table><tr><td>note</td></tr>${
    rows.map(([id, note]) => {
      const pk = inLink(`[${id}]`, spelling);
      const link = (type: string) =>
        `<a href="?table=tides&amp;action=row_editordelete&amp;pk=${pk}&amp;type=${type}">${type}</a>`;
      return `<tr><td><input type='checkbox' name='check[]' value='[${id}]'/></td>` +
        `<td>${link("edit")}</td><td>${link("delete")}</td><td>${note}</td></tr>`;
    }).join("")
  }</table><a href="?table=tides&amp;action=row_create">Insert</a></body></html>`;

/** The page a row's link opens: a form that posts to the row's `pk=["[N]"]`. */
const formPage = (id: number, type: string, note: string) => {
  const action = type === "edit" ? "row_edit" : "row_delete";
  const pk = encodeURIComponent(JSON.stringify([`[${id}]`]));
  return `<html><body><form method="post" action="?table=tides&amp;action=${action}&amp;confirm=1&amp;pk=${pk}">` +
    `<input name="note" value="${note}" /></form></body></html>`;
};

/** The admin, writing links as `spelling`: rows by number, never reused; a row's form and its save want the row. */
function adminStandIn(spelling: Spelling) {
  const rows = new Map<number, string>();
  let next = 1;
  const done: string[] = [];
  const page = (body: string, status = 200, location?: string) =>
    new Response(body, {
      status,
      headers: { "content-type": HTML, ...(location ? { location } : {}) },
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const q = url.searchParams;
    const back = `${url.origin}/admin.php?table=tides&action=row_view`;
    if (q.get("action") === "row_view") return page(listPage([...rows], spelling));
    if (q.get("action") === "row_create") {
      if (req.method !== "POST") return page("<form method='post'></form>");
      rows.set(next++, String((await req.formData()).get("note")));
      return page("", 302, back);
    }
    // `pk=[N]` opens a row's form; `pk=["[N]"]` saves it.
    const outer = JSON.parse(q.get("pk") ?? "null");
    const key = Array.isArray(outer) && typeof outer[0] === "string" ? JSON.parse(outer[0]) : outer;
    const id = Array.isArray(key) ? Number(key[0]) : NaN;
    if (!rows.has(id)) return page("No such row", 404);
    if (q.get("action") === "row_editordelete") {
      return page(formPage(id, q.get("type") ?? "edit", rows.get(id)!));
    }
    if (req.method !== "POST") return page("Not a save", 400);
    const note = String((await req.formData()).get("note"));
    done.push(`${q.get("action")} ${id} ${rows.get(id)}`);
    if (q.get("action") === "row_delete") rows.delete(id);
    else rows.set(id, note);
    return page("", 302, back);
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, rows, done, close: () => server.shutdown() };
}

/** Add two notes, edit the first from the list, delete the second. */
function recording(spelling: Spelling): string {
  const list = (rows: [number, string][]) => listPage(rows, spelling);
  const view = "/admin.php?table=tides&action=row_view";
  const open = (id: number, type: string) =>
    `/admin.php?table=tides&action=row_editordelete&pk=${
      encodeURIComponent(`[${id}]`)
    }&type=${type}`;
  const save = (id: number, action: string) =>
    `/admin.php?table=tides&action=${action}&confirm=1&pk=${
      encodeURIComponent(JSON.stringify([`[${id}]`]))
    }`;
  const create = "/admin.php?table=tides&action=row_create";
  return pagesHar("http://127.0.0.1:3000", [
    { method: "GET", path: view, text: list([]) },
    { method: "POST", path: create, ...formPost("note=high+water"), location: view, text: "" },
    { method: "GET", path: view, text: list([[1, "high water"]]) },
    { method: "POST", path: create, ...formPost("note=low+water"), location: view, text: "" },
    { method: "GET", path: view, text: list([[1, "high water"], [2, "low water"]]) },
    { method: "GET", path: open(1, "edit"), text: formPage(1, "edit", "high water") },
    {
      method: "POST",
      path: save(1, "row_edit"),
      ...formPost("note=slack+water"),
      location: view,
      text: "",
    },
    { method: "GET", path: view, text: list([[1, "slack water"], [2, "low water"]]) },
    { method: "GET", path: open(2, "delete"), text: formPage(2, "delete", "low water") },
    {
      method: "POST",
      path: save(2, "row_delete"),
      ...formPost("note=low+water"),
      location: view,
      text: "",
    },
    { method: "GET", path: view, text: list([[1, "slack water"]]) },
  ]);
}

for (const spelling of ["percent", "raw"] as const) {
  Deno.test(`convert har: a row's number inside JSON in a query value is captured by the row's typed text and sent inside both encodings, so a second run edits and deletes its own rows (links ${spelling})`, async () => {
    const app = adminStandIn(spelling);
    try {
      await passesTwice(recording(spelling), app.origin, (flow) => {
        assert.doesNotMatch(flow, /url: .*pk=%5B[12]%5D/, flow);
        assert.doesNotMatch(flow, /url: .*pk=%5B%22%5B[12]%5D%22%5D/, flow);
      });
      assert.deepEqual(app.done, [
        "row_edit 1 high water",
        "row_delete 2 low water",
        "row_edit 3 high water",
        "row_delete 4 low water",
      ]);
      assert.deepEqual([...app.rows], [[1, "slack water"], [3, "slack water"]]);
    } finally {
      await app.close();
    }
  });
}
