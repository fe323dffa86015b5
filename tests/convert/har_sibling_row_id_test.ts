/**
 * `convert har` on rows a create makes at an action path and a later request
 * addresses under a sibling path, as AdminJS's panel does (docs/real-servers.md,
 * its row): `POST /admin/api/resources/Authors/actions/new` answers
 * `{"record": {"id": 1, …}}`, and the row is then edited at
 * `…/Authors/records/1/edit` (its form sending `id=1` back), deleted at
 * `…/records/2/delete`, and named by a later form's `authorId=1`. The small-id rule took a number only right under
 * the path that created it, so these were sent as recorded: right on a fresh
 * instance by luck, and on a used one the run edited the first run's rows and
 * deleted one already gone. The same shape is Rails' `POST /posts/create` →
 * `/posts/1`, or any `…/new` → `…/{id}`.
 *
 * The evidence (correlate/sibling_rows.ts): the create's answer holds the number
 * as its record's `id` (at the top, or in an object named for the record:
 * `record`), and the later path shares the create's path up to the row's
 * collection, then names the record (`records`) or nothing before the number; a
 * form field named for a create's collection (`authorId` after a create under
 * `…/Authors/…`) sends that create's row. The other side: a page number in a
 * sibling path (`…/Authors/pages/2`), `page=1&perPage=10`, and a form field
 * named for nothing created (`rating=2`) stay as recorded.
 */
import assert from "node:assert/strict";
import { harOf } from "../support/har_records.ts";
import { passesTwice } from "../support/form_pages.ts";

const ORIGIN = "http://127.0.0.1:3000";
const API = "/admin/api/resources";
const BOUNDARY = "----flowrunsibling";

/** A multipart body of text fields, as the panel's React forms send. */
function multipart(fields: [string, string][]) {
  const mime = `multipart/form-data; boundary=${BOUNDARY}`;
  const parts = fields.map(([name, value]) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  );
  return {
    body: `${parts.join("")}--${BOUNDARY}--\r\n`,
    mime,
    headers: [["Content-Type", mime]] as [string, string][],
  };
}

/**
 * A panel whose rows keep counting across runs. Each act must be on the run's own rows: an
 * edit on the newest post, a delete on the newest author, a post's author the one made just
 * before it; the page number and the rating as the recording sent them.
 */
function panel() {
  const next = new Map<string, number>([["Authors", 1], ["Posts", 1]]);
  const rows = new Map<string, number[]>([["Authors", []], ["Posts", []]]);
  const errors: string[] = [];
  const refuse = (what: string) => {
    errors.push(what);
    return Response.json({ notice: { type: "error" } }, { status: 404 });
  };
  // The post's author is the first of the two the run made just before it.
  const byFirstAuthor = (form: FormData) =>
    form.get("authorId") === String(rows.get("Authors")!.at(-2));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const [resource, kind, ...rest] = url.pathname.slice(API.length + 1).split("/");
    const made = rows.get(resource) ?? [];
    if (kind === "pages") {
      if (rest[0] !== "2") return refuse(`page ${rest[0]}`);
      return Response.json({ records: [], meta: { page: 2, perPage: 10 } });
    }
    if (kind === "actions" && rest[0] === "list") {
      const q = url.searchParams;
      if (q.get("page") !== "1" || q.get("perPage") !== "10") return refuse(`list ${q}`);
      return Response.json({ records: made.map((id) => ({ id })), meta: { page: 1, perPage: 10 } });
    }
    const form = req.headers.get("content-type")?.startsWith("multipart/")
      ? await req.formData()
      : new FormData();
    if (kind === "actions" && rest[0] === "new") {
      if (resource === "Posts" && !byFirstAuthor(form)) return refuse(`by ${form.get("authorId")}`);
      if (resource === "Posts" && form.get("rating") !== "2") {
        return refuse(`${form.get("rating")}`);
      }
      const id = next.get(resource)!;
      next.set(resource, id + 1);
      made.push(id);
      const params = { id, ...Object.fromEntries(form) };
      return Response.json({ record: { params, id, recordActions: [{ name: "edit" }] } });
    }
    const id = Number(kind === "records" ? rest[0] : NaN);
    if (id !== made.at(-1)) return refuse(`${rest[1]} ${resource} ${id}`);
    // The edit form sends the record's own id back among its fields.
    if (form.has("id") && form.get("id") !== String(id)) return refuse(`id ${form.get("id")}`);
    if (form.has("authorId") && !byFirstAuthor(form)) return refuse(`by ${form.get("authorId")}`);
    if (rest[1] === "delete") made.pop();
    return Response.json({ record: { id, params: {} }, redirectUrl: `/admin/${resource}` });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, errors, close: () => server.shutdown() };
}

/** The journey on a fresh panel: two authors, a post by the first, its edit, a page, a delete. */
function recording(): string {
  const at = (path: string) => `${ORIGIN}${API}${path}`;
  const create = (resource: string, fields: [string, string][], id: number) => ({
    method: "POST",
    url: at(`/${resource}/actions/new`),
    ...multipart(fields),
    // The record's params first, as AdminJS answers: its `id` is also inside them.
    json: { record: { params: { id, ...Object.fromEntries(fields) }, id } },
  });
  return harOf([
    create("Authors", [["name", "Ada"], ["email", "ada@example.com"]], 1),
    create("Authors", [["name", "Grace"], ["email", "grace@example.com"]], 2),
    create("Posts", [["title", "Tide tables"], ["authorId", "1"], ["rating", "2"]], 1),
    {
      method: "POST",
      url: at("/Posts/records/1/edit"),
      ...multipart([["id", "1"], ["title", "Tide tables, revised"], ["authorId", "1"]]),
      json: { record: { id: 1, params: {} } },
    },
    { url: at("/Authors/actions/list?page=1&perPage=10"), json: { records: [{ id: 1 }] } },
    { url: at("/Authors/pages/2"), json: { records: [] } },
    {
      method: "POST",
      url: at("/Authors/records/2/delete"),
      json: { record: { id: 2, params: {} }, redirectUrl: "/admin/Authors" },
    },
  ]);
}

Deno.test("convert har: a small id a create at an action path answered is sent where a sibling path addresses that record and where a form field names its collection; a page number, a list's page and an unnamed field stay; twice on one panel", async () => {
  const app = panel();
  try {
    await passesTwice(recording(), app.origin, (flow) => {
      assert.match(flow, /pages\/2\b/, flow);
      assert.match(flow, /page=1&perPage=10/, flow);
      assert.match(flow, /^\s+rating: "?2"?$/m, flow);
    });
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

/**
 * The other common shape: `POST /api/notes/create` answers `{"id": 1}` at the top and the row
 * is `/api/notes/1`; a JSON body names it `{"note_id": 1}` to another collection. A page of the
 * list at `/api/notes/page/1` stays page 1. Rows keep counting; each act must be on the newest.
 */
function notes() {
  let next = 1;
  const errors: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const newest = next - 1;
    if (path === "/api/notes/create") return Response.json({ id: next++, title: "t" });
    if (path === "/api/notes/page/1") return Response.json({ items: [] });
    const body = req.method === "POST" ? await req.json() : {};
    const id = path === "/api/comments" ? body.note_id : Number(path.split("/").at(-1));
    if (id !== newest) {
      errors.push(`${req.method} ${path} ${id}`);
      return Response.json({ error: "not found" }, { status: 404 });
    }
    return Response.json({ id });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, errors, close: () => server.shutdown() };
}

Deno.test("convert har: a small id a create at `…/create` answered at the top is sent under the collection and in a field named for it; a page number under the collection stays; twice on one server", async () => {
  const app = notes();
  const at = (path: string) => `${ORIGIN}${path}`;
  const har = harOf([
    { method: "POST", url: at("/api/notes/create"), body: '{"title":"t"}', json: { id: 1 } },
    { url: at("/api/notes/1"), json: { id: 1 } },
    { url: at("/api/notes/page/1"), json: { items: [] } },
    { method: "POST", url: at("/api/comments"), body: '{"note_id":1,"text":"x"}', json: {} },
  ]);
  try {
    await passesTwice(har, app.origin, (flow) => {
      assert.match(flow, /notes\/page\/1\b/, flow);
    });
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
