/**
 * `convert har` on small ids two collections handed out, as Directus's
 * admin app does (tests/real/directus_har_test.ts): the data model's
 * `POST /fields/articles` answers `{"data": {"meta": {"id": 1}}}` (the
 * field's row), then `POST /items/articles` answers `{"data": {"id": 1}}`
 * (the item's), and the edit sends `PATCH /items/articles/1` and the bulk
 * delete `DELETE /items/articles` with the body `[2]`. The first create
 * to answer a number took it for its collection alone, so the item's 1 and
 * 2 were sent as recorded: right on a fresh instance's new table by chance,
 * an edit and a delete of rows that are not the run's on any other. The
 * evidence is per collection: a number a create under `/items/articles`
 * answered goes back under `/items/articles`, whatever another collection
 * answered before; and a whole JSON body that is a list of such numbers,
 * sent to that collection (a bulk delete or update), lists those rows.
 * Widened to the class: the field's own id sent back under `/fields/…`, a
 * bulk update under `/items/…` (`PATCH` `{"keys": [1, 2]}`), the row's
 * number in a query filter beside the collection's name (the app's
 * `GET /revisions?filter[_and][0][collection][_eq]=articles&filter[_and][1][item][_eq]=1`,
 * while the page size `limit=1` beside them stays), and a list body sent
 * elsewhere (a sort order to another path) kept as recorded.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

/** A stand-in whose rows start at `first` in each table; a call naming an unknown row fails. */
function standIn(first: number) {
  const tables = new Map<string, { next: number; rows: Set<number> }>();
  const errors: string[] = [];
  const table = (name: string) => {
    if (!tables.has(name)) tables.set(name, { next: first, rows: new Set() });
    return tables.get(name)!;
  };
  // A row's revisions, filtered by its collection and its number; one per page.
  const revisions = (q: URLSearchParams) => {
    const rows = table(`items/${q.get("filter[_and][0][collection][_eq]")}`).rows;
    if (!rows.has(Number(q.get("filter[_and][1][item][_eq]"))) || q.get("limit") !== "1") {
      errors.push(`GET /revisions?${q}`);
      return Response.json({ errors: [{ message: "Forbidden" }] }, { status: 403 });
    }
    return Response.json({ data: [] });
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/revisions") return revisions(new URL(req.url).searchParams);
    const body = req.body ? await req.json() : undefined;
    const [, kind, name, row] = path.split("/");
    const t = table(`${kind}/${name}`);
    const known = (id: unknown) => typeof id === "number" && t.rows.has(id);
    if (req.method === "POST" && row === undefined && kind !== "order") {
      const id = t.next++;
      t.rows.add(id);
      const data = kind === "fields" ? { field: body.field, meta: { id } } : { id, ...body };
      return Response.json({ data });
    }
    if (kind === "order") return new Response(null, { status: 204 });
    const ids: unknown[] = row !== undefined
      ? [Number(row)]
      : Array.isArray(body)
      ? body
      : body.keys;
    if (!ids.every(known)) {
      errors.push(`${req.method} ${path} ${JSON.stringify(ids)}`);
      return Response.json({ errors: [{ message: "Forbidden" }] }, { status: 403 });
    }
    if (req.method === "DELETE") {
      ids.forEach((id) => t.rows.delete(id as number));
      return new Response(null, { status: 204 });
    }
    return Response.json({ data: row !== undefined ? { id: ids[0] } : ids.map((id) => ({ id })) });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, errors, close: () => server.shutdown() };
}

/** A filter on the collection and one of its rows (the first item), one result a page. */
const REVISIONS = "filter[_and][0][collection][_eq]=articles&filter[_and][1][item][_eq]=1&limit=1";

function recording(): string {
  const at = (path: string) => `http://127.0.0.1:8055${path}`;
  const post = (path: string, body: unknown, json: unknown) => ({
    method: "POST",
    url: at(path),
    body: JSON.stringify(body),
    json,
  });
  return harOf([
    post("/fields/articles", { field: "title" }, { data: { field: "title", meta: { id: 1 } } }),
    post("/fields/articles", { field: "summary" }, { data: { field: "summary", meta: { id: 2 } } }),
    post("/items/articles", { title: "First" }, { data: { id: 1, title: "First" } }),
    post("/items/articles", { title: "Second" }, { data: { id: 2, title: "Second" } }),
    { method: "PATCH", url: at("/fields/articles/2"), body: '{"note":"x"}', json: { data: {} } },
    {
      method: "PATCH",
      url: at("/items/articles/1"),
      body: '{"title":"First!"}',
      json: { data: {} },
    },
    { method: "PATCH", url: at("/items/articles"), body: '{"keys":[1,2]}', json: { data: [] } },
    { url: at(`/revisions?${REVISIONS}`), json: { data: [] } },
    { method: "POST", url: at("/order/articles"), body: "[2,1]", status: 204 },
    { method: "DELETE", url: at("/items/articles"), body: "[2]", status: 204 },
  ]);
}

Deno.test("convert har: a small id a create answered goes back under its own collection even when another collection answered the same number first, and a list body sent to that collection lists its rows; the flow passes where rows start elsewhere", async () => {
  const { flow, run, server: app } = await convertHarThenRun(() => standIn(40), recording());
  // A list sent to another path (an order, not rows of the collection) is kept as recorded.
  assert.match(flow, /^\s+body: \[2, 1\]$/m, flow);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  assert.deepEqual(app.errors, [], flow);
});
