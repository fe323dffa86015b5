/**
 * `convert openapi` on a create whose form body requires nothing: an Express
 * users API measured by hand (multer, Joi, `swagger-jsdoc`, 2026) documents
 * `POST /users` as `multipart/form-data` `{name, email, password, picture}`
 * with no `required` list, while its Joi schema requires the three texts.
 * The suite sent the placeholder file alone, the server answered 400
 * ("\"name\" is required"), and the user's read, update and delete were
 * skipped. A JSON body of that schema already sent the item's free text
 * (`empty_create.ts`): a create of nothing makes nothing, whatever the media
 * type, and a placeholder file is no content. A multipart create to a
 * collection whose items have paths of their own (`/users/{id}`) now sends
 * the same members beside its file. A URL-encoded create of nothing is sent
 * as before (Twilio's trunk create takes an empty form, and its
 * `DomainName` "must end with pstn.twilio.com"), and so is a form POST with
 * no such path (STAPI's `/animal/search`, a search beside its GET).
 *
 * The stand-in runs on 127.0.0.1 and refuses, as Joi there does, a user
 * without a name, an address or an eight-character password.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const USER = {
  type: "object",
  properties: {
    name: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    picture: { type: "string", format: "binary" },
  },
};

/** A users API whose create takes `media`, and its item's read. */
function document(media: string) {
  const schema = media === "multipart/form-data" ? USER : {
    ...USER,
    properties: { ...USER.properties, picture: { type: "string" } },
  };
  return {
    openapi: "3.0.0",
    info: { title: "Users", version: "1" },
    paths: {
      "/users": {
        post: {
          requestBody: { required: true, content: { [media]: { schema } } },
          responses: {
            "201": {
              description: "Created",
              content: {
                "application/json": {
                  schema: { type: "object", properties: { id: { type: "integer" } } },
                },
              },
            },
          },
        },
      },
      "/users/{id}": {
        get: {
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          responses: { "200": { description: "The user" } },
        },
      },
    },
  };
}

/** Users: each create's fields are pushed to `sent`; a create lacking a text is refused. */
function users(sent: string[][]) {
  const made: string[] = [];
  return serveStandIn(async (req) => {
    if (req.method === "GET") {
      const id = Number(new URL(req.url).pathname.split("/").at(-1));
      return made[id - 1] ? Response.json({ id }) : new Response(null, { status: 404 });
    }
    const form = await req.formData();
    sent.push([...form.keys()]);
    const text = (name: string) => String(form.get(name) ?? "");
    if (text("name").length < 3) {
      return Response.json({ error: '"name" is required' }, { status: 400 });
    }
    if (!text("email").includes("@")) {
      return Response.json({ error: '"email" must be a valid email' }, { status: 400 });
    }
    if (text("password").length < 8) {
      return Response.json({ error: '"password" is too short' }, { status: 400 });
    }
    made.push(text("email"));
    return Response.json({ id: made.length }, { status: 201 });
  });
}

Deno.test("a multipart create requiring nothing sends the item's free text beside its file", async () => {
  const sent: string[][] = [];
  const { runs, summary } = await convertAndRunSuite(document("multipart/form-data"), users(sent), {
    runs: 2,
  });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.deepEqual(sent[0].sort(), ["email", "name", "password", "picture"]);
});

Deno.test("a URL-encoded create requiring nothing is sent as before, empty", async () => {
  // Twilio's trunk create takes an empty form; a made-up `DomainName` it would refuse.
  const sent: string[][] = [];
  const server = serveStandIn(async (req) => {
    if (req.method === "POST") sent.push([...(await req.formData()).keys()]);
    return Response.json({ id: 1 }, { status: req.method === "POST" ? 201 : 200 });
  });
  const { runs: [run] } = await convertAndRunSuite(
    document("application/x-www-form-urlencoded"),
    server,
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(sent, [[]]);
});

Deno.test("a form POST that creates nothing still sends only what its schema requires", async () => {
  const sent: string[][] = [];
  const search = {
    openapi: "3.0.0",
    info: { title: "Search", version: "1" },
    paths: {
      "/animals/search": {
        get: { responses: { "200": { description: "Found" } } },
        post: {
          requestBody: {
            content: {
              "application/x-www-form-urlencoded": {
                schema: { type: "object", properties: { name: { type: "string" } } },
              },
            },
          },
          responses: { "200": { description: "Found" } },
        },
      },
    },
  };
  const server = serveStandIn(async (req) => {
    if (req.method === "POST") sent.push([...(await req.formData()).keys()]);
    return Response.json([]);
  });
  const { runs: [run] } = await convertAndRunSuite(search, server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(sent, [[]]);
});
