/**
 * `convert openapi`: the read of a user (`GET /users/{id}`) takes its id
 * from the sign-up's answer when that answer names it after the
 * collection's noun. hapi-swagger's document of a Hapi API answers
 * `POST /register` with `{data: {userId}}` ("the ID of the newly
 * registered user"), its login with a token only, and `GET /users/{id}`
 * (only the signed-in user's own; 403 otherwise) with `{data: {id,
 * username}}`: no create of users, no shape shared, so the summary asked
 * for `id`. The member `userId` of the sign-up's answer is a user's id by
 * its name; a badge's read keeps its placeholder.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };
const obj = (properties: Record<string, unknown>) => ({ type: "object", properties });
const answers = (status: string, data: Record<string, unknown>) => ({
  [status]: {
    description: "OK",
    content: { "application/json": { schema: obj({ status: text, data: obj(data) }) } },
  },
});
const body = (props: Record<string, unknown>) => ({
  required: true,
  content: {
    "application/json": { schema: { ...obj(props), required: Object.keys(props) } },
  },
});
const path = [{ name: "id", in: "path", required: true, schema: text }];

const DOC = {
  openapi: "3.0.0",
  info: { title: "Sleeps", version: "1" },
  security: [{ jwt: [] }],
  components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" } } },
  paths: {
    "/register": {
      post: {
        security: [],
        requestBody: body({ username: text, password: text }),
        responses: answers("201", { userId: text }),
      },
    },
    "/login": {
      post: {
        security: [],
        requestBody: body({ username: text, password: text }),
        responses: answers("200", { accessToken: text }),
      },
    },
    "/users/{id}": {
      get: { parameters: path, responses: answers("200", { id: text, username: text }) },
    },
    "/badges/{id}": {
      get: { parameters: path, responses: answers("200", { id: text, label: text }) },
    },
  },
};

/** Users `user-1`, `user-2`…; a token per login; a user reads only themself. */
function accounts() {
  const users = new Map<string, { id: string; password: string }>();
  const tokens = new Map<string, string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "POST") {
      const sent = await req.json();
      if (pathname === "/register") {
        const id = `user-${users.size + 1}`;
        users.set(sent.username, { id, password: sent.password });
        return Response.json({ status: "success", data: { userId: id } }, { status: 201 });
      }
      const found = users.get(sent.username);
      if (!found || found.password !== sent.password) return Response.json({}, { status: 400 });
      const token = `t${tokens.size}`;
      tokens.set(token, found.id);
      return Response.json({ status: "success", data: { accessToken: token } });
    }
    const me = tokens.get((req.headers.get("authorization") ?? "").replace(/^Bearer /, ""));
    if (!me) return Response.json({}, { status: 401 });
    if (pathname === "/badges/1") return Response.json({ data: { id: "1", label: "first" } });
    if (pathname !== `/users/${me}`) {
      return Response.json({ message: "not yours" }, { status: 403 });
    }
    return Response.json({ status: "success", data: { id: me, username: "someone" } });
  });
}

Deno.test("the read of a user takes the id the sign-up answers under the collection's noun", async () => {
  const { runs, summary } = await convertAndRunSuite(DOC, accounts(), { runs: 2 });
  assert.match(summary, /\{id\} of GET \/users\/\{id\} ← POST \/register \$\.json\.data\.userId/);
  assert.match(summary, /vars\.id \(path parameter id of GET \/badges\/\{id\}/);
  // The badge's placeholder fails its read; the user's read passes.
  for (const run of runs) assert.match(run.stdout, /✔ get_users_id/, run.stdout);
});
