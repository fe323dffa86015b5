/**
 * `convert openapi` on a document where an item's own create answers
 * undescribed and another collection's create answers a member of the
 * parameter's name. postgres-meta 0.99.0's own document (measured by hand
 * 2026-11-29, docs/real-servers.md) gives `POST /extensions/` no body and no
 * answer schema, and `POST /columns/` an answer `{id, name, …}`: `{name}` of
 * `GET /extensions/{name}` was read from the column's answer, the column's
 * own name, which names no extension (404), and the extensions' flow made a
 * table and a column it never removed. The collection's own create is the
 * item's producer (undescribed_answer.ts searches its answer); another
 * create's member of that name is its own item's. Widened to the class: a
 * `{code}` made by the server, its create answering inside an envelope,
 * beside an order whose answer holds its own `code`.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const said = { description: "Default Response" };
const text = { type: "string" };
const object = (properties: Record<string, unknown>) => ({ type: "object", properties });
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** An item path of `param` whose three operations answer undescribed. */
function item(param: string) {
  return {
    parameters: [{ name: param, in: "path", required: true, schema: text }],
    get: { responses: { "200": said } },
    patch: { requestBody: json(object({ note: text })), responses: { "200": said } },
    delete: { responses: { "200": said } },
  };
}

/** Extensions and coupons: creates of undescribed answers; columns and orders: described. */
function document(): Record<string, unknown> {
  const described = (props: Record<string, unknown>) => ({
    requestBody: { required: true, ...json(object({ label: text })) },
    responses: { "200": { description: "Default Response", ...json(object(props)) } },
  });
  return {
    openapi: "3.0.3",
    info: { title: "Catalog", version: "1" },
    paths: {
      "/extensions/": { get: { responses: { "200": said } }, post: { responses: { "200": said } } },
      "/extensions/{name}": item("name"),
      "/columns/": { post: described({ id: text, name: text }) },
      "/coupons": {
        post: { requestBody: json(object({ percent: text })), responses: { "201": said } },
      },
      "/coupons/{code}": item("code"),
      "/orders": { post: described({ id: text, code: text }) },
    },
  };
}

/** Names every item itself; a coupon is answered inside `{coupon: …}`. */
function catalogServer(seen: string[]) {
  const items = new Map<string, Record<string, unknown>>();
  let next = 41;
  return serveStandIn(async (req) => {
    const [collection, key] = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    const answer = (status: number) =>
      `${req.method} /${collection}${key ? "/{key}" : ""} ${status}`;
    if (req.method === "POST" && !key) {
      const sent = await req.json().catch(() => ({}));
      const n = next++;
      const made = collection === "extensions"
        ? { name: `ext_${n}`, installed: true }
        : collection === "columns"
        ? { id: `7.${n}`, name: `col_${n}`, ...sent }
        : collection === "orders"
        ? { id: String(n), code: `O-${n}`, ...sent }
        : { code: `C-${n}`, ...sent };
      items.set(`${collection}/${made.name ?? made.code}`, made);
      seen.push(answer(collection === "coupons" ? 201 : 200));
      return Response.json(collection === "coupons" ? { coupon: made } : made, {
        status: collection === "coupons" ? 201 : 200,
      });
    }
    if (!key) {
      seen.push(answer(200));
      return Response.json(
        [...items].filter(([k]) => k.startsWith(`${collection}/`)).map(([, v]) => v),
      );
    }
    const found = items.get(`${collection}/${key}`);
    seen.push(answer(found ? 200 : 404));
    if (!found) return Response.json({ error: "Not found" }, { status: 404 });
    if (req.method === "DELETE") items.delete(`${collection}/${key}`);
    return Response.json(found);
  });
}

Deno.test("convert openapi: an item's own create answering undescribed is its producer, not another create's member of its name", async () => {
  const seen: string[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(document(), catalogServer(seen));
  const [run] = runs;
  assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}\n${seen.join("\n")}`);
  for (const collection of ["extensions", "coupons"]) {
    for (const method of ["GET", "PATCH", "DELETE"]) {
      assert.ok(seen.includes(`${method} /${collection}/{key} 200`), `${collection}: ${seen}`);
    }
  }
  assert.match(summary, /\{name\} of GET \/extensions\/\{name\} ← POST \/extensions\/ /, summary);
  assert.match(summary, /\{code\} of GET \/coupons\/\{code\} ← POST \/coupons /, summary);
  // No column's (nor order's) answer is read for them: those name the create's own item.
  assert.doesNotMatch(summary, /\{(name|code)\} of [^\n]*← POST \/(columns|orders)/, summary);
  assert.doesNotMatch([...flows.values()].join("\n"), /steps\.post_(columns|orders)\.capture/);
});
