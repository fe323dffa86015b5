/**
 * `convert openapi` on a document that declares no security at all though
 * its API wants a token, in the shape Django REST framework's own schema
 * generator writes (`manage.py generateschema`, `get_schema_view`): no
 * `securitySchemes`, no `security`, every POST answered `201`, and
 * simplejwt's `POST /api/token/` (`createTokenObtainPair`) described as
 * "returns an access and refresh JSON web token pair" while its answer's
 * schema is its request's (`TokenObtainPair`: `username`, `password`), the
 * token nowhere in it. Before, nothing signed in: every step that needs the
 * token was refused 401 (a real DRF blog 4 of 21, a todo API 0 of 12).
 * Now the token the login's words say it answers is read from its answer
 * (`access`) and sent as a bearer to every operation but the login and the
 * sign-up, the account signed up first with the run's own credentials. A
 * login whose words say nothing of a token, and a document that declares a
 * scheme, are read as before.
 *
 * The stand-in runs on 127.0.0.1 and answers as simplejwt does: 200 with
 * `{refresh, access}`, 401 without the token.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const created = (schema: unknown) => ({ "201": { description: "", ...json(schema) } });

/** A DRF-shaped document: a sign-up, simplejwt's token pair and a notes viewset. */
function document(loginWords: string, name = "TokenObtainPair") {
  return {
    openapi: "3.0.2",
    info: { title: "", version: "" },
    paths: {
      "/api/users/": {
        post: {
          operationId: "createUser",
          requestBody: json(ref("User")),
          responses: created(ref("User")),
        },
      },
      "/api/token/": {
        post: {
          operationId: `create${name}`,
          description: loginWords,
          requestBody: json(ref(name)),
          responses: created(ref(name)),
        },
      },
      "/api/token/refresh/": {
        post: {
          operationId: "createTokenRefresh",
          description: "Takes a refresh type JSON web token and returns an access type JSON web\n" +
            "token if the refresh token is valid.",
          requestBody: json(ref("TokenRefresh")),
          responses: created(ref("TokenRefresh")),
        },
      },
      "/api/notes/": {
        get: {
          operationId: "listNotes",
          responses: { "200": { description: "", ...json({ type: "array", items: ref("Note") }) } },
        },
        post: {
          operationId: "createNote",
          requestBody: json(ref("Note")),
          responses: created(ref("Note")),
        },
      },
      "/api/notes/{id}/": {
        get: {
          operationId: "retrieveNote",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "", ...json(ref("Note")) } },
        },
      },
    },
    components: {
      schemas: {
        User: {
          type: "object",
          properties: {
            id: { type: "integer", readOnly: true },
            username: { type: "string", maxLength: 150 },
            password: { type: "string", writeOnly: true },
          },
          required: ["username", "password"],
        },
        [name]: {
          type: "object",
          properties: {
            username: { type: "string" },
            password: { type: "string", writeOnly: true },
          },
          required: ["username", "password"],
        },
        TokenRefresh: {
          type: "object",
          properties: { refresh: { type: "string" }, access: { type: "string", readOnly: true } },
          required: ["refresh"],
        },
        Note: {
          type: "object",
          properties: { id: { type: "integer", readOnly: true }, text: { type: "string" } },
          required: ["text"],
        },
      },
    },
  };
}

/** Sign-up and token pair open; every note needs `Bearer <access>` (401 without, as simplejwt). */
function standIn(seen: Map<string, string | null>) {
  const accounts = new Map<string, string>();
  const notes: { id: number; text: string }[] = [];
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const auth = req.headers.get("authorization");
    seen.set(`${req.method} ${pathname}`, auth);
    if (req.method === "POST" && pathname === "/api/users/") {
      const body = await req.json();
      accounts.set(body.username, body.password);
      return Response.json({ id: accounts.size, username: body.username }, { status: 201 });
    }
    if (req.method === "POST" && pathname === "/api/token/") {
      const body = await req.json();
      if (accounts.get(body.username) !== body.password) return Response.json({}, { status: 401 });
      return Response.json({ refresh: "r.e.f", access: "a.c.c" });
    }
    if (req.method === "POST" && pathname === "/api/token/refresh/") {
      const { refresh } = await req.json();
      seen.set("refresh sent", refresh);
      if (refresh !== "r.e.f") return Response.json({ detail: "invalid" }, { status: 401 });
      return Response.json({ access: "a.c.c" });
    }
    if (auth !== "Bearer a.c.c") {
      const headers = { "WWW-Authenticate": 'Bearer realm="api"' };
      return Response.json({ detail: "no credentials" }, { status: 401, headers });
    }
    if (req.method === "POST") {
      notes.push({ id: notes.length + 1, text: (await req.json()).text });
      return Response.json(notes.at(-1), { status: 201 });
    }
    const id = /^\/api\/notes\/(\d+)\/$/.exec(pathname)?.[1];
    return Response.json(id ? notes[Number(id) - 1] : notes);
  });
}

const WORDS = "Takes a set of user credentials and returns an access and refresh JSON web\n" +
  "token pair to prove the authentication of those credentials.";

Deno.test("convert openapi: a document declaring no security sends the token its login says it answers", async () => {
  const seen = new Map<string, string | null>();
  const { runs, flows, summary } = await convertAndRunSuite(document(WORDS), standIn(seen));
  assert.equal(seen.get("GET /api/notes/"), "Bearer a.c.c", summary + runs[0].stdout);
  assert.equal(seen.get("POST /api/notes/"), "Bearer a.c.c");
  assert.equal(seen.get("GET /api/notes/1/"), "Bearer a.c.c");
  // The sign-up and the login send none, and every step the token serves passes.
  assert.equal(seen.get("POST /api/users/"), null);
  assert.equal(seen.get("POST /api/token/"), null);
  for (const step of ["create_note", "list_notes", "retrieve_note"]) {
    assert.match(runs[0].stdout, new RegExp(`✔ ${step} `));
  }
  // The refresh sends the refresh token the login answered, which no schema shows.
  assert.equal(seen.get("refresh sent"), "r.e.f");
  // The run's own account: no literal credential in any flow.
  assert.doesNotMatch([...flows.values()].join("\n"), /password: (?!\$\{)/);
});

Deno.test("convert openapi: a login whose words say nothing of a token leaves a document with no security unsigned", async () => {
  const seen = new Map<string, string | null>();
  await convertAndRunSuite(
    document("Checks a set of user credentials.", "Credentials"),
    standIn(seen),
  );
  assert.equal(seen.get("GET /api/notes/"), null);
});
