/**
 * `convert har` on a small row number an action-style API hands out, as
 * NocoBase 2.2's admin does (measured by hand, docs/real-servers-har.md):
 * every call names its resource and its action after a colon,
 * `POST /api/users:create` answers `{"data": {"id": 2}}`, and the journey
 * then sends that `2` back to other actions of the same resource as a whole
 * query value (`GET /api/users:get?filterByTk=2`,
 * `POST /api/users:update?filterByTk=2` with the row, its `id` too, as the
 * body, `POST /api/users:destroy?filterByTk=2`). The number was sent as
 * recorded: right on a fresh instance by chance, another row (or none) on a
 * second run. The evidence: a create on the resource (the path before the
 * colon) answered the number, a later request to another action of that
 * resource sends it whole under a query key, and an answer to that resource
 * showed the number as the id of the one row it returned for that key and
 * value (the `get`), or the key is id-named. A page number equal to a row's
 * (`users:list?page=2`, a list answer) stays as recorded, and a number sent
 * to another resource is not that resource's row.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

/** A stand-in whose users start at `first`; an action on an unknown user fails. */
function standIn(first: number) {
  const users = new Map<number, { id: number; name: string }>();
  let next = first;
  const errors: string[] = [];
  const fail = (what: string) => {
    errors.push(what);
    return Response.json({ errors: [{ message: "Not found" }] }, { status: 404 });
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname.startsWith("/api/tags:")) return Response.json({ data: { id: 2 } });
    const action = url.pathname.replace(/^\/api\/users:/, "");
    const key = Number(url.searchParams.get("filterByTk") ?? url.searchParams.get("userId"));
    const body = req.method === "POST" ? await req.json() : undefined;
    if (action === "create") {
      const user = { id: next++, name: body.name };
      users.set(user.id, user);
      return Response.json({ data: user });
    }
    if (action === "list") {
      if (url.searchParams.get("page") !== "2") return fail(`list ${url.search}`);
      return Response.json({ data: [...users.values()], meta: { page: 2 } });
    }
    const user = users.get(key);
    if (user === undefined) return fail(`${action} ${url.search}`);
    if (action === "get") return Response.json({ data: user });
    if (action === "update") {
      if (body.id !== key) return fail(`update body ${JSON.stringify(body)}`);
      user.name = body.name;
      return Response.json({ data: [user] });
    }
    if (action === "roles") return Response.json({ data: [] });
    users.delete(key);
    return Response.json({ data: 1 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, errors, close: () => server.shutdown() };
}

function recording(): string {
  const at = (path: string) => `http://127.0.0.1:13000/api/${path}`;
  const dana = { id: 2, name: "Dana" };
  return harOf([
    { method: "POST", url: at("users:create"), body: '{"name":"Dana"}', json: { data: dana } },
    { url: at("users:list?page=2"), json: { data: [{ id: 1, name: "Admin" }, dana] } },
    { url: at("users:get?filterByTk=2"), json: { data: dana } },
    { url: at("users:roles?userId=2"), json: { data: [] } },
    {
      method: "POST",
      url: at("users:update?filterByTk=2"),
      body: '{"id":2,"name":"Dana L."}',
      json: { data: [{ id: 2, name: "Dana L." }] },
    },
    { method: "POST", url: at("users:destroy?filterByTk=2"), body: "{}", json: { data: 1 } },
    { url: at("tags:get?filterByTk=2"), json: { data: { id: 2, name: "other" } } },
  ]);
}

Deno.test("convert har: a small id an action-style create answered is captured where other actions of its resource send it in the query, the page number beside it kept; the flow passes where rows start elsewhere", async () => {
  const { flow, run, server: app } = await convertHarThenRun(() => standIn(7), recording());
  assert.match(flow, /users:list\?page=2$/m, flow);
  assert.match(flow, /users:get\?filterByTk=\$\{steps\.users_create\.capture\.[a-z_]+\}/, flow);
  assert.match(flow, /users:roles\?userId=\$\{steps\.users_create\.capture\.[a-z_]+\}/, flow);
  assert.match(flow, /users:destroy\?filterByTk=\$\{steps\.users_create\.capture\.[a-z_]+\}/, flow);
  // Another resource's row 2 is not the user's.
  assert.match(flow, /tags:get\?filterByTk=2$/m, flow);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  assert.deepEqual(app.errors, [], flow);
});
