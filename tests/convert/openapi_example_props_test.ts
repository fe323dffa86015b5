/**
 * `convert openapi`: a request body holds the optional properties the
 * document gives an example of, as its own docs show the body (Swagger UI's
 * example value). Found on Unleash 8.2.0 (tests/real/unleash_openapi_test.ts):
 * a user requires only `rootRole`, and the server wants `username` or
 * `email` (its description says so, its schema cannot): `{"rootRole": 1}`
 * was refused (400), and the 5 operations on the user never ran; a
 * segment's constraint without its example `values` (400, 7 operations).
 * Left out all the same: a switch (`archived: true` archived the feature the
 * flow went on using), a deprecated property, and a property named for a
 * collection whose items the paths address (`project: my-project`, no
 * such project: 500), which names something that must exist.
 *
 * The stand-in server below answers as Unleash does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const param = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const ok = (schema?: unknown) => ({
  "200": { description: "OK", ...(schema ? { content: json(schema) } : {}) },
});
const body = (schema: unknown) => ({ required: true, content: json(schema) });

/** A user of optional names, a project, a feature with an archive switch. */
function document(): Record<string, unknown> {
  const user = {
    type: "object",
    required: ["rootRole"],
    description: "The payload must contain at least one of the username and email properties.",
    properties: {
      username: { type: "string", example: "hunter" },
      email: { type: "string", example: "user@example.com" },
      name: { type: "string" },
      rootRole: { type: "integer", example: 1 },
      sendEmail: { type: "boolean", example: true },
      project: { type: "string", example: "my-project" },
      legacyRole: { type: "string", example: "admin", deprecated: true },
    },
  };
  const feature = {
    type: "object",
    properties: {
      description: { type: "string", example: "Controls the comments" },
      archived: { type: "boolean", example: true },
    },
  };
  return {
    openapi: "3.0.3",
    info: { title: "Users", version: "1" },
    paths: {
      "/api/users": {
        post: {
          operationId: "createUser",
          requestBody: body(user),
          responses: {
            "201": {
              description: "Created",
              content: json({
                type: "object",
                required: ["id"],
                properties: { id: { type: "integer" } },
              }),
            },
          },
        },
      },
      "/api/users/{id}": {
        parameters: [param("id")],
        get: { operationId: "getUser", responses: ok() },
      },
      "/api/projects/{projectId}": {
        parameters: [{ ...param("projectId"), example: "default" }],
        get: { operationId: "getProject", responses: ok() },
      },
      "/api/features/{featureName}": {
        parameters: [{ ...param("featureName"), example: "comments" }],
        put: { operationId: "updateFeature", requestBody: body(feature), responses: ok() },
        get: { operationId: "getFeature", responses: ok() },
      },
    },
  };
}

/** A running stand-in and the bodies it got. */
interface Stand {
  base: string;
  bodies: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

/** Answers as Unleash does: a user needs a username or an email; a project must exist. */
function startServer(): Stand {
  const bodies = new Map<string, Record<string, unknown>>();
  const users = new Set<string>();
  let archived = false;
  const refuse = (status: number) => Response.json({ name: "BadDataError" }, { status });
  const stand = serveStandIn(async (req) => {
    const route = `${req.method} ${new URL(req.url).pathname}`;
    const got = req.method === "POST" || req.method === "PUT" ? await req.json() : undefined;
    if (got) bodies.set(route, got);
    if (route === "POST /api/users") {
      if (!got.username && !got.email) return refuse(400);
      if (got.project !== undefined && got.project !== "default") return refuse(500);
      users.add(String(users.size + 1));
      return Response.json({ id: users.size }, { status: 201 });
    }
    const user = /^GET \/api\/users\/(\d+)$/.exec(route)?.[1];
    if (user && users.has(user)) return Response.json({ id: Number(user) });
    if (route === "GET /api/projects/default") return Response.json({});
    if (route === "PUT /api/features/comments") {
      archived ||= got.archived === true;
      return Response.json({});
    }
    if (route === "GET /api/features/comments" && !archived) return Response.json({});
    return refuse(404);
  });
  return { ...stand, bodies };
}

/** One conversion and run, which the tests read. */
let once: ReturnType<typeof convertAndRunFresh> | undefined;
const convertAndRun = () => once ??= convertAndRunFresh();

/** Converts the document and runs the suite as its summary prints it, on a stand-in. */
async function convertAndRunFresh() {
  const server = startServer();
  const { runs: [run] } = await convertAndRunSuite(document(), server);
  return { run, bodies: server.bodies };
}

Deno.test("convert openapi: a body holds the optional properties the document gives an example of", async () => {
  const { run, bodies } = await convertAndRun();
  const user = bodies.get("POST /api/users");
  // Made the run's own (a unique field), as the document's examples are elsewhere.
  assert.equal(typeof user?.username, "string", JSON.stringify(user));
  assert.match(String(user?.email), /@example\.com$/);
  // No example: the user's own name is made per run all the same, as a create's optional name is
  // (named_optional.ts: a server may keep it NOT NULL); no other value is made up.
  assert.match(String(user?.name), /^name-[0-9a-f]{8}$/, JSON.stringify(user));
  assert.equal(run.code, 0, run.stdout + run.stderr);
});

Deno.test("convert openapi: but not a switch, a deprecated property, or one naming an item of a collection", async () => {
  const { run, bodies } = await convertAndRun();
  const user = bodies.get("POST /api/users")!;
  for (const left of ["sendEmail", "legacyRole", "project"]) {
    assert.ok(!(left in user), `${left} in ${JSON.stringify(user)}`);
  }
  const feature = bodies.get("PUT /api/features/comments");
  assert.deepEqual(feature, { description: "Controls the comments" });
  // The feature is not archived: its read after the update passes.
  assert.equal(run.code, 0, run.stdout + run.stderr);
});
