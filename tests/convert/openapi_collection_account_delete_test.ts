/**
 * `convert openapi`: the signed-in account deleted at the path it was
 * signed up at, with no parameter (`POST /users/` signs up, `DELETE
 * /users/` "Deletes current user": the credential says which), as a
 * FastAPI blog API measured by hand has it. With no `GET /users/` beside
 * it, the DELETE was not known for the account's own: it ran in its
 * tag's flow on the account every flow shares (the setup's sign-in), in
 * parallel with the others, whose later steps then acted for an account
 * that was gone (a blog made by it listed with no creator: 500; its token
 * refused). The path of the sign-up is the evidence: a DELETE there
 * without a parameter, signed in, removes that account, so its flow signs
 * in on its own account, and the DELETE runs last in it.
 *
 * The stand-in server below answers as FastAPI's OAuth2 password flow
 * does (a form login at `/login`, a token valid while its account
 * exists), on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const int = { type: "integer" };
const text = { type: "string" };
const secured = [{ OAuth2PasswordBearer: [] }];
const body = (required: string[], props: Record<string, unknown>) => ({
  required: true,
  content: json({ type: "object", required, properties: props }),
});
const answer = (status: string, schema: unknown = {}) => ({
  [status]: { description: "Successful Response", content: json(schema) },
});
const user = { type: "object", properties: { id: int, email: text, name: text } };
const idParam = [{ name: "id", in: "path", required: true, schema: int }];

/** FastAPI's document of users, a form login and notes, each tag its flow. */
function document(): Record<string, unknown> {
  const form = {
    type: "object",
    required: ["username", "password"],
    properties: {
      grant_type: { type: "string", pattern: "password" },
      username: text,
      password: text,
    },
  };
  return {
    openapi: "3.0.2",
    info: { title: "FastAPI", version: "0.1.0" },
    paths: {
      "/users/": {
        post: {
          tags: ["Users"],
          requestBody: body(["name", "email", "password"], {
            name: text,
            email: text,
            password: text,
          }),
          responses: answer("201", user),
        },
        delete: {
          tags: ["Users"],
          summary: "Deletes current user",
          responses: { "204": { description: "Successful Response" } },
          security: secured,
        },
      },
      "/users/{id}": {
        get: { tags: ["Users"], parameters: idParam, responses: answer("200", user) },
      },
      "/login": {
        post: {
          tags: ["Authentication"],
          requestBody: {
            required: true,
            content: { "application/x-www-form-urlencoded": { schema: form } },
          },
          responses: answer("200", {
            type: "object",
            required: ["access_token", "token_type"],
            properties: { access_token: text, token_type: text },
          }),
        },
      },
      "/notes/": {
        get: {
          tags: ["Notes"],
          responses: answer("200", { type: "array", items: {} }),
          security: secured,
        },
        post: {
          tags: ["Notes"],
          requestBody: body(["title"], { title: text }),
          responses: answer("201"),
          security: secured,
        },
      },
    },
    components: {
      securitySchemes: {
        OAuth2PasswordBearer: {
          type: "oauth2",
          flows: { password: { scopes: {}, tokenUrl: "login" } },
        },
      },
    },
  };
}

/** As FastAPI's `get_current_user`: a token verifies while its account exists. */
function api() {
  const accounts = new Map<string, { id: number; password: string }>();
  const tokens = new Map<string, string>();
  const notes: { id: number; owner: string }[] = [];
  const detail = (status: number, said: string) => Response.json({ detail: said }, { status });
  return serveStandIn(async (req) => {
    const route = `${req.method} ${new URL(req.url).pathname}`;
    if (route === "POST /users/") {
      const sent = await req.json();
      if (accounts.has(sent.email)) return detail(409, "Email taken");
      accounts.set(sent.email, { id: accounts.size + 1, password: sent.password });
      return Response.json({ id: accounts.size, email: sent.email, name: sent.name }, {
        status: 201,
      });
    }
    if (route.startsWith("GET /users/")) {
      const id = Number(route.slice("GET /users/".length));
      const found = [...accounts].find(([, a]) => a.id === id);
      return found ? Response.json({ id, email: found[0] }) : detail(404, "User not found");
    }
    if (route === "POST /login") {
      const form = new URLSearchParams(await req.text());
      const found = accounts.get(form.get("username") ?? "");
      if (!found || found.password !== form.get("password")) return detail(401, "Invalid");
      const token = crypto.randomUUID();
      tokens.set(token, form.get("username") ?? "");
      return Response.json({ access_token: token, token_type: "bearer" });
    }
    const email = tokens.get(req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "");
    if (email === undefined || !accounts.has(email)) {
      return detail(401, "Could not validate credentials");
    }
    if (route === "DELETE /users/") {
      accounts.delete(email);
      return new Response(null, { status: 204 });
    }
    if (route === "POST /notes/") {
      notes.push({ id: notes.length + 1, owner: email });
      return Response.json(notes.at(-1), { status: 201 });
    }
    if (route === "GET /notes/") return Response.json(notes.filter((n) => accounts.has(n.owner)));
    return detail(404, "Not Found");
  });
}

Deno.test("a DELETE at the sign-up's own path removes the signed-in account: its flow signs in on its own", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document(), api(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  const users = [...flows.entries()].find(([file]) => file.startsWith("users"))?.[1] ?? "";
  assert.doesNotMatch(users, /setup\.token/, users);
  // Its own sign-in, then the account's read, the DELETE last.
  const at = (step: string) => users.indexOf(`name: ${step}`);
  assert.ok(at("delete_users") > at("get_users_id") && at("get_users_id") >= 0, users);
  const notes = [...flows.entries()].find(([file]) => file.startsWith("notes"))?.[1] ?? "";
  assert.match(notes, /setup\.token/, notes);
});
