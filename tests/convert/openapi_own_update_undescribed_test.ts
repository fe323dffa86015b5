/**
 * `convert openapi` on an account's own item when the document describes
 * no answer: a todo API on Elysia measured by hand registers with
 * `{username, email, password}`, signs in with a cookie, and reads,
 * updates (`{username, email}`) and deletes `/users/{id}`, refusing anyone
 * but that user 403; every answer is documented `200: {}`. Nothing said
 * which id the item takes, so `PUT /users/{id}` was taken for a create at
 * a URL the client names and all three were sent a made-up id. An item
 * whose update sends two or more of the sign-up's fields but the password,
 * and nothing else, is the account: its id is searched for in the
 * sign-up's answer, and its delete runs last.
 *
 * The stand-in runs on 127.0.0.1: accounts numbered by the server, a
 * session cookie naming the signed-in one.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };
const body = (props: Record<string, unknown>, required: string[]) => ({
  required: true,
  content: {
    "application/json": { schema: { type: "object", required, properties: props } },
  },
});
const undescribed = { "200": {} };
const id = [{ name: "id", in: "path", required: true, schema: { type: "string" } }];

const document = {
  openapi: "3.0.3",
  info: { title: "Accounts", version: "1" },
  paths: {
    "/register": {
      post: {
        tags: ["Auth"],
        requestBody: body({ username: text, email: { ...text, format: "email" }, password: text }, [
          "username",
          "email",
          "password",
        ]),
        responses: undescribed,
      },
    },
    "/login": {
      post: {
        tags: ["Auth"],
        requestBody: body({ email: { ...text, format: "email" }, password: text }, [
          "email",
          "password",
        ]),
        responses: undescribed,
      },
    },
    "/users/{id}": {
      get: { tags: ["Users"], parameters: id, responses: undescribed },
      put: {
        tags: ["Users"],
        parameters: id,
        requestBody: body({ username: text, email: { ...text, format: "email" } }, []),
        responses: undescribed,
      },
      delete: { tags: ["Users"], parameters: id, responses: undescribed },
    },
  },
};

/** Accounts by id; a login's cookie names the account, which alone may change or end itself. */
function accounts() {
  const users = new Map<string, { email: string; password: string }>();
  let next = 0;
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    if (path[0] === "register") {
      const { username, email, password } = await req.json();
      const made = `u${++next}x`;
      users.set(made, { email, password });
      return Response.json({ id: made, username, email });
    }
    if (path[0] === "login") {
      const { email, password } = await req.json();
      const found = [...users].find(([, u]) => u.email === email && u.password === password);
      if (!found) return Response.json({ error: "Invalid" }, { status: 401 });
      return Response.json({ ok: true }, { headers: { "set-cookie": `sid=${found[0]}; Path=/` } });
    }
    const who = /sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    if (!users.has(path[1])) return Response.json({ error: "Not found" }, { status: 404 });
    if (req.method !== "GET" && who !== path[1]) {
      return Response.json({ error: "Forbidden" }, { status: 403 });
    }
    if (req.method === "DELETE") users.delete(path[1]);
    return Response.json({ id: path[1] });
  });
}

Deno.test("an item whose update sends the sign-up's fields is the account its undescribed answer names", async () => {
  const { runs, summary, flows } = await convertAndRunSuite(document, accounts(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  for (const op of ["GET /users/{id}", "PUT /users/{id}", "DELETE /users/{id}"]) {
    const said = `{id} of ${op} ← POST /register`;
    assert.ok(summary.includes(said), `${said}\n${summary}`);
  }
  assert.doesNotMatch(summary, /the client names|Fill in/);
  const users = flows.get("users.yaml") ?? "";
  assert.ok(users.lastIndexOf("method: DELETE") > users.lastIndexOf("method: PUT"), users);
});
