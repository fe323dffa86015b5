/**
 * `convert har` on a server-rendered admin whose list links each row by a path that ends in its
 * number (Express Admin 2.0 over PostgreSQL, by hand in docs/real-servers-har.md): the add form
 * answers 302 to the list, which shows the typed note in a cell of a `<tr>` whose first cell
 * links `/tides/1`; the user clicks it, saves the edit (the form sends the row's number again as
 * a hidden field), and deletes another row the same way. No answer held the number but the
 * list's link, and a one-digit number is no evidence on its own, so the flow sent the recorded
 * `/tides/1`: the first run on a fresh instance passed, and a second run on the same instance
 * passed every step while it edited and deleted the first run's rows, leaving its own.
 *
 * What the converter does (correlate/row_links.ts): a small number ending a link's path, in the
 * one row of a page that shows a text the journey typed, is captured from the live page by that
 * row's text, as a query's `…id=N` already was (Nagios); the edit form's hidden field that
 * carries the number then comes from the page that holds it. Urlencoded and multipart forms.
 */
import assert from "node:assert/strict";
import { formPost, pagesHar, passesTwice } from "../support/form_pages.ts";

const HTML = "text/html; charset=utf-8";

/** The list's rows, as the admin renders them: the number linked first, the note after. */
const listPage = (rows: [number, string][]) =>
  `<html><body><table>${
    rows.map(([id, note]) => `<tr><td><a href="/tides/${id}">${id}</a></td><td>${note}</td></tr>`)
      .join("")
  }</table><a href="/tides/add">add</a></body></html>`;

const editPage = (id: number, note: string) =>
  `<html><body><form method="post" action="/tides/${id}">` +
  `<input type="hidden" name="pk" value="${id}" /><input name="note" value="${note}" />` +
  `</form></body></html>`;

/** The admin: rows by number; a save must name the row its path names. */
function adminStandIn() {
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
    if (url.pathname === "/tides") return page(listPage([...rows]));
    if (url.pathname === "/tides/add") {
      if (req.method !== "POST") return page(editPage(0, ""));
      const form = await req.formData();
      rows.set(next++, String(form.get("note")));
      return page("", 302, `${url.origin}/tides`);
    }
    const id = Number(/^\/tides\/(\d+)$/.exec(url.pathname)?.[1]);
    if (!rows.has(id)) return page("No such row", 404);
    if (req.method !== "POST") return page(editPage(id, rows.get(id)!));
    const form = await req.formData();
    if (Number(form.get("pk")) !== id) return page("Wrong row", 400);
    if (form.has("remove")) {
      done.push(`delete ${id} ${rows.get(id)}`);
      rows.delete(id);
      return page("", 302, `${url.origin}/tides`);
    }
    done.push(`edit ${id} ${rows.get(id)}`);
    rows.set(id, String(form.get("note")));
    return page("", 302, `${url.origin}/tides/${id}`);
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, rows, done, close: () => server.shutdown() };
}

/** A form post of `fields` as urlencoded or as multipart, the way the browser recorded it. */
function post(fields: Record<string, string>, multipart: boolean) {
  if (!multipart) return formPost(new URLSearchParams(fields).toString());
  const boundary = "----WebKitFormBoundaryy7Org6eWHQSNULha";
  const text =
    Object.entries(fields).map(([k, v]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`
    ).join("") + `--${boundary}--\r\n`;
  const mimeType = `multipart/form-data; boundary=${boundary}`;
  return { headers: [{ name: "Content-Type", value: mimeType }], postData: { mimeType, text } };
}

/** Add two notes, open the first from the list and edit it, open the second and delete it. */
function recording(multipart: boolean): string {
  const list1 = listPage([[1, "high water"]]);
  const list2 = listPage([[1, "high water"], [2, "low water"]]);
  const list3 = listPage([[1, "slack water"], [2, "low water"]]);
  return pagesHar("http://127.0.0.1:3000", [
    { method: "GET", path: "/tides", text: listPage([]) },
    { method: "GET", path: "/tides/add", text: editPage(0, "") },
    {
      method: "POST",
      path: "/tides/add",
      ...post({ note: "high water" }, multipart),
      location: "/tides",
      text: "",
    },
    { method: "GET", path: "/tides", text: list1 },
    { method: "GET", path: "/tides/add", text: editPage(0, "") },
    {
      method: "POST",
      path: "/tides/add",
      ...post({ note: "low water" }, multipart),
      location: "/tides",
      text: "",
    },
    { method: "GET", path: "/tides", text: list2 },
    { method: "GET", path: "/tides/1", text: editPage(1, "high water") },
    {
      method: "POST",
      path: "/tides/1",
      ...post({ pk: "1", note: "slack water" }, multipart),
      location: "/tides/1",
      text: "",
    },
    { method: "GET", path: "/tides/1", text: editPage(1, "slack water") },
    { method: "GET", path: "/tides", text: list3 },
    { method: "GET", path: "/tides/2", text: editPage(2, "low water") },
    {
      method: "POST",
      path: "/tides/2",
      ...post({ pk: "2", note: "low water", remove: "" }, multipart),
      location: "/tides",
      text: "",
    },
    { method: "GET", path: "/tides", text: listPage([[1, "slack water"]]) },
  ]);
}

for (const multipart of [false, true]) {
  Deno.test(`convert har: a small number ending a row's link is captured by the row's typed text, so a second run edits and deletes its own rows (${multipart ? "multipart" : "urlencoded"})`, async () => {
    const app = adminStandIn();
    try {
      await passesTwice(recording(multipart), app.origin, (flow) => {
        assert.doesNotMatch(flow, /url: \$\{vars\.base_url\}\/tides\/[12]\n/, flow);
      });
      assert.deepEqual(app.done, [
        "edit 1 high water",
        "delete 2 low water",
        "edit 3 high water",
        "delete 4 low water",
      ]);
      assert.deepEqual([...app.rows], [[1, "slack water"], [3, "slack water"]]);
    } finally {
      await app.close();
    }
  });
}
