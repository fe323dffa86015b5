/**
 * `convert openapi` on a signed-in create whose body names its author by an id
 * (`{title, author_id}` of `POST /notes/`) where no operation of the document makes
 * an author: a FastAPI recipes tutorial's `POST /recipes/` requires `submitter_id`
 * and answers 403 unless it is the caller's own id. The body was sent the literal
 * `1`, the first account a fresh server seeds (its administrator), never the run's.
 * The document's answers show two kinds of item with an id, the note the create
 * makes and the account the sign-up answers: an id the body sends of neither a
 * collection nor the create's own item can only name the account, whose id the
 * sign-up answered. The stand-in runs on 127.0.0.1 and the suite runs twice.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { withAccountReferences } from "../../lib/convert/openapi/account_reference.ts";
import { operationsOf } from "../../lib/convert/openapi/operations.ts";
import { findLogin } from "../../lib/convert/openapi/login.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };
const whole = { type: "integer" };

const ACCOUNT = {
  type: "object",
  properties: { id: whole, email: { type: "string", format: "email" }, name: text },
};
const NOTE = {
  type: "object",
  required: ["id", "title", "author_id"],
  properties: { id: whole, title: text, author_id: whole },
};
const OAUTH = [{ OAuth2: [] }];

/** A document of notes whose create names its author; `extra` adds paths. */
function notesDocument(author: unknown = whole, extra: Record<string, unknown> = {}) {
  return {
    openapi: "3.0.2",
    info: { title: "notes", version: "1" },
    components: {
      securitySchemes: {
        OAuth2: { type: "oauth2", flows: { password: { tokenUrl: "/auth/login", scopes: {} } } },
      },
    },
    paths: {
      "/auth/signup": {
        post: {
          tags: ["auth"],
          requestBody: json({
            type: "object",
            required: ["email", "password"],
            properties: { email: { type: "string", format: "email" }, password: text },
          }),
          responses: { 201: { description: "Made", ...json(ACCOUNT) } },
        },
      },
      "/auth/login": {
        post: {
          tags: ["auth"],
          requestBody: {
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  required: ["username", "password"],
                  properties: { username: text, password: text },
                },
              },
            },
          },
          responses: {
            200: { description: "Signed in", ...json({ type: "object", properties: {} }) },
          },
        },
      },
      "/notes/": {
        post: {
          tags: ["notes"],
          security: OAUTH,
          requestBody: json({
            type: "object",
            required: ["title", "author_id"],
            properties: { title: text, author_id: author },
          }),
          responses: { 201: { description: "Made", ...json(NOTE) } },
        },
      },
      "/notes/{note_id}": {
        get: {
          tags: ["notes"],
          parameters: [{ name: "note_id", in: "path", required: true, schema: whole }],
          responses: { 200: { description: "The note", ...json(NOTE) } },
        },
      },
      ...extra,
    },
  };
}

/** A notes server whose first account (1) is its administrator, seeded before any sign-up. */
function notesServer() {
  const accounts = new Map<string, number>([["admin@example.com", 1]]);
  const notes: { id: number; title: string; author_id: number }[] = [];
  const made: number[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/auth/signup") {
      const body = await req.json();
      accounts.set(body.email, accounts.size + 1);
      return Response.json({ id: accounts.size, email: body.email }, { status: 201 });
    }
    if (path === "/auth/login") {
      const form = new URLSearchParams(await req.text());
      const id = accounts.get(form.get("username") ?? "");
      if (!id) return Response.json({ detail: "Incorrect username or password" }, { status: 400 });
      return Response.json({ access_token: `t-${id}`, token_type: "bearer" });
    }
    if (path === "/notes/" && req.method === "POST") {
      const me = Number(req.headers.get("authorization")?.replace(/^Bearer t-/, ""));
      const body = await req.json();
      if (body.author_id !== me) {
        return Response.json({ detail: "You can only write notes as yourself" }, { status: 403 });
      }
      notes.push({ id: notes.length + 1, title: body.title, author_id: me });
      made.push(me);
      return Response.json(notes.at(-1), { status: 201 });
    }
    const note = notes.find((n) => path === `/notes/${n.id}`);
    return note ? Response.json(note) : Response.json({ detail: "Not found" }, { status: 404 });
  });
  return { server, made };
}

Deno.test("convert openapi: a signed-in create's id of no collection is the signed-up account's", async () => {
  const { server, made } = notesServer();
  const { summary, runs } = await convertAndRunSuite(notesDocument(), server, { runs: 2 });
  const out = runs.map((r) => r.stdout).join("\n");
  assert.equal(made.length, 2, out);
  assert.ok(!made.includes(1), out);
  assert.ok(runs.every((r) => r.code === 0), out);
  assert.match(summary, /author_id of POST \/notes\/ ← POST \/auth\/signup/);
});

/** The link `withAccountReferences` adds to the notes' create of `document`, if any. */
function accountLink(document: Record<string, unknown>) {
  const ops = operationsOf(document as never);
  const login = findLogin(document as never, ops);
  const got = withAccountReferences(document as never, ops, { params: new Map(), login });
  const create = ops.find((op) => op.method === "POST" && op.template === "/notes/");
  return got.body?.get(create!)?.find((l) => l.body.join() === "author_id");
}

Deno.test("convert openapi: the account is read from the sign-up's answer", () => {
  const link = accountLink(notesDocument());
  assert.equal(link?.producer.template, "/auth/signup");
  assert.deepEqual(link?.path, ["id"]);
});

Deno.test("convert openapi: a body's id is not the account's when the document answers another kind of item", () => {
  const TAG = { type: "object", properties: { id: whole, label: text } };
  const tags = {
    "/tags/{tag_id}": {
      get: {
        parameters: [{ name: "tag_id", in: "path", required: true, schema: whole }],
        responses: { 200: { description: "A tag", ...json(TAG) } },
      },
    },
  };
  assert.equal(accountLink(notesDocument(whole, tags)), undefined);
});

Deno.test("convert openapi: a body's id of another type than the account's, or given a default, is not the account's", () => {
  assert.equal(accountLink(notesDocument({ type: "string", format: "uuid" })), undefined);
  assert.equal(accountLink(notesDocument({ type: "integer", default: 0 })), undefined);
});
