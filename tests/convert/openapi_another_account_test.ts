/**
 * `convert openapi` on a document with a sign-up, a login and a second create
 * taking the login's credentials, `POST /users` (a NestJS 9 API measured by
 * hand: `/auth/registration`, `/auth/login` and `POST /users` all take one
 * `CreateUserDto` of email and password). The run's account is made by the
 * sign-up; the users' create was sent the same `${vars.email}`, an account
 * that already exists, and a server keeping emails unique refused it (409
 * here, 500 there from its unique constraint) every run. A create that takes
 * every field the login takes and answering an item, other than the sign-up
 * (and its second, `second_signup.ts`), makes another account: it is sent an
 * email and a user name of its own, made per run; the login, the sign-up and
 * a second sign-in (`POST /sessions`, answering nothing it describes) still
 * share the run's.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import {
  answers,
  body,
  json,
  param,
  signUpPaths,
  text,
  tokenDocument,
} from "../support/openapi_doc_parts.ts";

const credentials = { email: { type: "string", format: "email" }, password: text };
const user = { type: "object", properties: { id: { type: "integer" }, email: text } };
const dto = { $ref: "#/components/schemas/CreateUserDto" };
const made = (schema: unknown) => ({ "201": { description: "", content: json(schema) } });
/** As `@nestjs/swagger` writes it: no security declared, one DTO for the three creates. */
const nestDocument = {
  openapi: "3.0.0",
  info: { title: "Nest", version: "1" },
  paths: {
    "/auth/registration": {
      post: {
        tags: ["Authorization"],
        requestBody: { required: true, content: json(dto) },
        responses: made({}),
      },
    },
    "/auth/login": {
      post: {
        tags: ["Authorization"],
        requestBody: { required: true, content: json(dto) },
        responses: answers({}),
      },
    },
    "/users": {
      post: {
        tags: ["Users"],
        requestBody: { required: true, content: json(dto) },
        responses: made(user),
      },
    },
    "/users/{id}": { get: { tags: ["Users"], parameters: param("id"), responses: answers(user) } },
    // A second sign-in of the same credentials, answering nothing it describes: the run's account.
    "/sessions": {
      post: {
        tags: ["Sessions"],
        requestBody: { required: true, content: json(dto) },
        responses: { "201": { description: "" } },
      },
    },
  },
  components: {
    schemas: {
      CreateUserDto: { type: "object", required: ["email", "password"], properties: credentials },
    },
  },
};
/** A second sign-up: the users' create taken only when the sign-up is refused (second_signup.ts). */
const document = tokenDocument({
  paths: {
    ...signUpPaths(credentials, { type: "object", properties: { token: text } }),
    "/users": { post: { requestBody: body(credentials), responses: made(user) } },
    "/users/{id}": { get: { parameters: param("id"), responses: answers(user) } },
  },
});

/** A token shaped as a JWT (`eyJ…`), as NestJS's `JwtService` signs one. */
const jwt = (id: number) =>
  `${btoa('{"alg":"HS256"}').replace(/=+$/, "")}.${btoa(`{"id":${id}}`).replace(/=+$/, "")}.sig`;

/** Accounts by email, each made once: a second account of one email is refused 409. */
function accountServer() {
  const emails = new Map<string, number>();
  const make = (email: string) => {
    if (emails.has(email)) return Response.json({ message: "email taken" }, { status: 409 });
    emails.set(email, emails.size + 1);
    return Response.json({ id: emails.size, email, token: jwt(emails.size) }, { status: 201 });
  };
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const sent = req.method === "POST" ? await req.json() : {};
    if (/^\/auth\/regist/.test(path)) return make(sent.email);
    if (path === "/sessions") {
      return new Response(null, { status: emails.has(sent.email) ? 201 : 401 });
    }
    if (path === "/auth/login") {
      const id = emails.get(sent.email);
      return id ? Response.json({ token: jwt(id) }) : new Response(null, { status: 401 });
    }
    if (!/^(Bearer )?eyJ/.test(req.headers.get("authorization") ?? "")) {
      return new Response(null, { status: 401 });
    }
    if (path === "/users") return make(sent.email);
    return Response.json({ id: Number(path.split("/").pop()), email: "a@example.com" });
  });
}

/** The step of `flows` sending `POST /users`, as YAML text. */
function usersCreate(flows: Map<string, string>): string {
  const all = [...flows.values()].join("\n");
  return /^ {2}- name: \w*users\w*\n(?: {4}.*\n)*? {6}url: \$\{ENV\.BASE_URL\}\/users\n(?: {4}.*\n)*/m
    .exec(all)?.[0] ?? all;
}

Deno.test("convert openapi: a create of the login's credentials besides the sign-up makes its own account", async () => {
  const { runs, flows } = await convertAndRunSuite(nestDocument, accountServer(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  const step = usersCreate(flows);
  assert.match(step, /email: user-\$\{RANDOM\.HEX_8\}@example\.com/, step);
  // The sign-up and the login still share the run's account.
  const all = [...flows.values()].join("\n");
  assert.match(all, /auth\/login\n(?:.*\n)*?\s+email: \$\{vars\.email\}/);
  assert.match(all, /auth\/registration\n(?:.*\n)*?\s+email: \$\{vars\.email\}/);
  assert.match(all, /url: \$\{ENV\.BASE_URL\}\/sessions\n(?:.*\n)*?\s+email: \$\{vars\.email\}/);
});

Deno.test("convert openapi: the second sign-up, sent when the sign-up is refused, keeps the run's account", async () => {
  const { runs, flows } = await convertAndRunSuite(document, accountServer());
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  const step = usersCreate(flows);
  assert.match(step, /email: \$\{vars\.email\}/, step);
  assert.match(step, /signup_status/, step);
});
