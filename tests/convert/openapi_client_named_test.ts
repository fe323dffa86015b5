/**
 * `convert openapi`: an item the client creates at a URL it names with a
 * POST (`POST /applications/{appName}` beside its `GET` and `DELETE`, no
 * POST on the collection) is made by the run, under a name of the run's
 * own, before it is read. Found on Unleash 8.2.0
 * (tests/real/unleash_openapi_test.ts): `{appName}` was read from the
 * listing of applications, empty on a fresh instance, so none of the
 * application's 4 operations was ever sent.
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

/** Applications listed, made at the name the client chooses, read and deleted. */
function document(): Record<string, unknown> {
  const app = {
    type: "object",
    properties: { appName: { type: "string" }, description: { type: "string" } },
  };
  return {
    openapi: "3.0.3",
    info: { title: "Apps", version: "1" },
    paths: {
      "/api/applications": {
        get: {
          operationId: "getApplications",
          responses: ok({
            type: "object",
            properties: { applications: { type: "array", items: app } },
          }),
        },
      },
      "/api/applications/{appName}": {
        parameters: [param("appName")],
        post: {
          operationId: "createApplication",
          requestBody: {
            required: true,
            content: json({ type: "object", properties: { description: { type: "string" } } }),
          },
          responses: ok(),
        },
        get: { operationId: "getApplication", responses: ok(app) },
        delete: { operationId: "deleteApplication", responses: ok() },
      },
      "/api/features/{featureName}/revive": {
        parameters: [param("featureName")],
        post: { operationId: "reviveFeature", responses: ok() },
      },
    },
  };
}

/** A running stand-in and the requests it got, with their statuses. */
interface Stand {
  base: string;
  seen: string[];
  close(): Promise<void>;
}

/** Answers as Unleash does: no application until the client makes one. */
function startServer(): Stand {
  const apps = new Set<string>();
  const seen: string[] = [];
  const stand = serveStandIn((req) => {
    const { pathname } = new URL(req.url);
    const answer = (): Response => {
      if (pathname === "/api/applications") {
        return Response.json({ applications: [...apps].map((appName) => ({ appName })) });
      }
      const name = /^\/api\/applications\/([^/]+)$/.exec(pathname)?.[1];
      if (name && req.method === "POST") {
        apps.add(name);
        return Response.json({});
      }
      if (name && apps.has(name)) {
        if (req.method === "DELETE") apps.delete(name);
        return Response.json({ appName: name });
      }
      // Revive takes any name here: what it names is the user's to fill in.
      if (pathname.endsWith("/revive")) return Response.json({});
      return Response.json({ name: "NotFoundError" }, { status: 404 });
    };
    const response = answer();
    seen.push(`${req.method} ${pathname} ${response.status}`);
    return response;
  });
  return { ...stand, seen };
}

/** One conversion and two runs on one stand-in, which the tests read. */
let once: ReturnType<typeof convertAndRunFresh> | undefined;
const convertAndRun = () => once ??= convertAndRunFresh();

/** Converts the document and runs the suite as its summary prints it, twice. */
async function convertAndRunFresh() {
  const server = startServer();
  const { summary, runs: [first, second] } = await convertAndRunSuite(document(), server, {
    runs: 2,
  });
  return { summary, first, second, seen: server.seen };
}

Deno.test("convert openapi: an item the client names at its POST is made by the run, then read and deleted", async () => {
  const { summary, first, seen } = await convertAndRun();
  assert.doesNotMatch(summary, /\{appName\} of [A-Z]+ \/api\/applications\/\{appName\} ← GET/);
  assert.doesNotMatch(summary, /vars\.appName/);
  // The first run's: made first, then read and deleted, all under one name.
  const app = seen.filter((s) => /\/api\/applications\/[^/ ]+ /.test(s)).slice(0, 3);
  assert.deepEqual(app.map((s) => s.replace(/\/applications\/\S+/, "/applications/…")), [
    "POST /api/applications/… 200",
    "GET /api/applications/… 200",
    "DELETE /api/applications/… 200",
  ]);
  assert.equal(new Set(app.map((s) => s.split(" ")[1])).size, 1, app.join("\n"));
  assert.match(app[0], /^POST \/api\/applications\/appName-[0-9a-f]{8} /);
  assert.equal(first.code, 0, first.stdout + first.stderr);
});

Deno.test("convert openapi: under a name of the run's own, so a second run makes another", async () => {
  const { second, seen } = await convertAndRun();
  assert.equal(second.code, 0, second.stdout + second.stderr);
  const made = seen.filter((s) => s.startsWith("POST /api/applications/")).map((s) =>
    s.split(" ")[1]
  );
  assert.equal(made.length, 2, seen.join("\n"));
  assert.notEqual(made[0], made[1]);
});

Deno.test("convert openapi: a POST to an item path with nothing else on it is an action, not a create", async () => {
  const { summary } = await convertAndRun();
  // Revive acts on a feature that exists: its name is the user's to fill in.
  assert.match(summary, /vars\.featureName/);
});
