/**
 * `convert openapi`: the update and the delete of an item of the signed-in
 * account's own shape take its id from the sign-up's or the login's answer,
 * and that delete runs after every step needing the account's token. Found
 * on an Express 5 + knex social API measured by hand: its register answers
 * the user it makes (`{id, username, email}`), and `PUT` and `DELETE
 * /api/users/{id}` answer 403 to anyone but that user, yet nothing links
 * `{id}` to a create, so the flow sent a made-up id (403, 404). The
 * evidence is the answer, not the name: the item's read answers the very
 * properties the sign-up (or the login) answers.
 *
 * The stand-in server below enforces "only your own account" with 403.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, body, json, param, text } from "../support/openapi_doc_parts.ts";

const user = {
  type: "object",
  properties: { id: { type: "integer" }, username: text, email: text },
};
const idParam = param("id");
const bearer = [{ bearer: [] }];

/**
 * Where the account's id is answered: the sign-up answering the user, the
 * login, a `/me` read, or the sign-up answering `{message, id}` while the
 * read answers the fields it sent (`sent`, as the social API's does).
 */
type Giver = "register" | "login" | "me" | "sent";

/** The read of `/users/{id}` as the social API documents it: the sent fields and `userId`. */
const userRead = {
  type: "object",
  properties: { userId: { type: "integer" }, username: text, email: text, role: text },
};

/** Register, login, the users' item (read, update, delete) and posts that need the token. */
function document(giver: Giver): Record<string, unknown> {
  const token = { type: "object", properties: { token: text } };
  const loginAnswer = giver === "login"
    ? { type: "object", properties: { token: text, user } }
    : token;
  const paths: Record<string, unknown> = {
    "/auth/register": {
      post: {
        tags: ["Auth"],
        requestBody: body({ username: text, email: text, password: text }),
        responses: {
          "201": {
            description: "Created",
            ...giver === "register" ? { content: json(user) } : {},
            ...giver === "sent"
              ? {
                content: json({
                  type: "object",
                  properties: { message: text, id: { type: "integer" } },
                }),
              }
              : {},
          },
        },
      },
    },
    "/auth/login": {
      post: {
        tags: ["Auth"],
        requestBody: body({ email: text, password: text }),
        responses: answers(loginAnswer),
      },
    },
    "/users/{id}": {
      get: {
        tags: ["User"],
        parameters: idParam,
        responses: answers(giver === "sent" ? userRead : user),
      },
      put: {
        tags: ["User"],
        security: bearer,
        parameters: idParam,
        requestBody: body({ username: text }),
        responses: answers(user),
      },
      delete: {
        tags: ["User"],
        security: bearer,
        parameters: idParam,
        responses: { "204": { description: "Deleted" } },
      },
    },
    "/posts": {
      post: {
        tags: ["Post"],
        security: bearer,
        requestBody: body({ content: text }),
        responses: {
          "201": {
            description: "Created",
            content: json({
              type: "object",
              properties: { id: { type: "integer" }, content: text },
            }),
          },
        },
      },
    },
  };
  if (giver === "me") {
    paths["/auth/me"] = {
      get: { tags: ["Auth"], security: bearer, responses: answers(user) },
    };
  }
  return {
    openapi: "3.0.0",
    info: { title: "Social", version: "1" },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths,
  };
}

/** Users from 41 on, tokens naming them; a user's update and delete are that user's only. */
function social() {
  const users: { id: number; username: string; email: string; password: string }[] = [];
  let posts = 0;
  const shown = (u: (typeof users)[number]) => ({ id: u.id, username: u.username, email: u.email });
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const auth = req.headers.get("authorization") ?? "";
    const me = users.find((u) => auth === `Bearer t${u.id}`);
    const item = /^\/users\/([^/]+)$/.exec(pathname)?.[1];
    if (item !== undefined) {
      const found = users.find((u) => String(u.id) === item);
      if (req.method === "GET") {
        return found ? Response.json(shown(found)) : Response.json({}, { status: 404 });
      }
      if (!me) return Response.json({ message: "no token" }, { status: 401 });
      if (!found || found !== me) return Response.json({ message: "not yours" }, { status: 403 });
      if (req.method === "DELETE") {
        users.splice(users.indexOf(me), 1);
        return new Response(null, { status: 204 });
      }
      me.username = (await req.json()).username;
      return Response.json(shown(me));
    }
    if (pathname === "/auth/me") {
      return me ? Response.json(shown(me)) : Response.json({}, { status: 401 });
    }
    if (pathname === "/posts") {
      if (!me) return Response.json({ message: "no token" }, { status: 401 });
      return Response.json({ id: ++posts, content: (await req.json()).content }, { status: 201 });
    }
    const sent = await req.json();
    if (pathname === "/auth/register") {
      const made = { ...sent, id: users.length + 41 + posts * 100 };
      users.push(made);
      return Response.json({ ...shown(made), message: "registered" }, { status: 201 });
    }
    const found = users.find((u) => u.email === sent.email && u.password === sent.password);
    if (!found) return Response.json({ message: "wrong password" }, { status: 401 });
    return Response.json({ token: `t${found.id}`, user: shown(found) });
  });
}

for (const giver of ["register", "login", "me", "sent"] as const) {
  Deno.test(`the account's own update and delete take the id the ${giver} answers, the delete last`, async () => {
    const { runs, summary, flows } = await convertAndRunSuite(document(giver), social(), {
      runs: 2,
    });
    for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    for (const method of ["GET", "PUT", "DELETE"]) {
      assert.match(summary, new RegExp(`\\{id\\} of ${method} /users/\\{id\\} ← `));
    }
    assert.doesNotMatch(summary, /vars\.id\b/);
    // The account's delete is the last step of its flow, which keeps its own sign-in.
    const users = flows.get("user.yaml") ?? "";
    assert.ok(
      users.lastIndexOf("name: delete_users_id") > users.lastIndexOf("name: put_users_id"),
      users,
    );
  });
}
