/**
 * `convert openapi`: a flow that removes something it did not make runs
 * after the others, alone. Found on Unleash 8.2.0
 * (tests/real/unleash_openapi_test.ts): the Projects flow's `DELETE
 * /projects/{projectId}/environments/{environment}` removed `development`
 * (the environment an API token's create answers with) from the one project
 * while the Features flow, beside it, read and switched the new feature in
 * that environment: 12 of its operations got 404. What a flow reads from a
 * listing, or from a create of something else that names it, existed before
 * the flow and is everyone's; removing it is run last, alone (`serial`).
 * What a flow removes of its own making stays beside the others.
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
const created = (schema: unknown) => ({ "201": { description: "Created", content: json(schema) } });
const object = (props: Record<string, unknown>, required?: string[]) => ({
  type: "object",
  ...(required ? { required } : {}),
  properties: props,
});
const text = { type: "string" };

/** Projects with environments, features switched per environment, tokens of an environment. */
function document(): Record<string, unknown> {
  const tags = (t: string) => ({ tags: [t] });
  const featureEnv = "/api/projects/{projectId}/features/{featureName}/environments/{environment}";
  return {
    openapi: "3.0.3",
    info: { title: "Flags", version: "1" },
    paths: {
      "/api/projects": {
        get: {
          ...tags("Projects"),
          operationId: "getProjects",
          responses: ok(object({ projects: { type: "array", items: object({ id: text }) } })),
        },
      },
      "/api/tokens": {
        post: {
          ...tags("Tokens"),
          operationId: "createToken",
          requestBody: {
            required: true,
            content: json(object({ tokenName: { type: "string", example: "t" } }, ["tokenName"])),
          },
          responses: created(object({ tokenName: text, environment: text }, ["environment"])),
        },
        get: { ...tags("Tokens"), operationId: "getTokens", responses: ok() },
      },
      "/api/hooks": {
        get: {
          ...tags("Hooks"),
          operationId: "getHooks",
          responses: ok(object({ hooks: { type: "array", items: object({ id: text }) } })),
        },
      },
      "/api/hooks/{id}": {
        parameters: [param("id")],
        delete: { ...tags("Hooks"), operationId: "deleteHook", responses: ok() },
      },
      "/api/projects/{projectId}/environments/{environment}": {
        parameters: [param("projectId"), param("environment")],
        delete: { ...tags("Projects"), operationId: "removeEnvironment", responses: ok() },
      },
      "/api/projects/{projectId}/features": {
        parameters: [param("projectId")],
        post: {
          ...tags("Features"),
          operationId: "createFeature",
          requestBody: {
            required: true,
            content: json(object({ name: { type: "string", example: "f" } }, ["name"])),
          },
          responses: created(object({ name: text }, ["name"])),
        },
      },
      "/api/projects/{projectId}/features/{featureName}": {
        parameters: [param("projectId"), param("featureName")],
        get: { ...tags("Features"), operationId: "getFeature", responses: ok() },
        delete: { ...tags("Features"), operationId: "archiveFeature", responses: ok() },
      },
      [featureEnv]: {
        parameters: [param("projectId"), param("featureName"), param("environment")],
        get: { ...tags("Features"), operationId: "getFeatureEnvironment", responses: ok() },
      },
      [`${featureEnv}/on`]: {
        parameters: [param("projectId"), param("featureName"), param("environment")],
        post: { ...tags("Features"), operationId: "switchOn", responses: ok() },
      },
      [`${featureEnv}/off`]: {
        parameters: [param("projectId"), param("featureName"), param("environment")],
        post: { ...tags("Features"), operationId: "switchOff", responses: ok() },
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

/**
 * Answers as Unleash does: project `default` with `development`; a
 * feature is in each environment its project has; each feature read takes
 * a little while, as a database's would, so a removal beside it lands.
 */
function startServer(): Stand {
  const environments = new Set(["development"]);
  const features = new Set<string>();
  const seen: string[] = [];
  const stand = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const route = `${req.method} ${pathname}`;
    const answer = async (): Promise<Response> => {
      if (route === "GET /api/projects") return Response.json({ projects: [{ id: "default" }] });
      if (route === "GET /api/tokens") return Response.json({ tokens: [] });
      if (route === "GET /api/hooks") return Response.json({ hooks: [{ id: "h1" }] });
      if (route === "DELETE /api/hooks/h1") return Response.json({});
      if (route === "POST /api/tokens") {
        const body = await req.json();
        return Response.json({ tokenName: body.tokenName, environment: "development" }, {
          status: 201,
        });
      }
      const removed = /^\/api\/projects\/default\/environments\/([^/]+)$/.exec(pathname);
      if (removed && req.method === "DELETE" && environments.delete(removed[1])) {
        return Response.json({});
      }
      if (route === "POST /api/projects/default/features") {
        const body = await req.json();
        features.add(body.name);
        return Response.json({ name: body.name }, { status: 201 });
      }
      const m = /^\/api\/projects\/default\/features\/([^/]+)(?:\/environments\/([^/]+))?/
        .exec(pathname);
      if (m && features.has(decodeURIComponent(m[1]))) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        if (m[2] !== undefined && !environments.has(m[2])) {
          return Response.json({ name: "NotFoundError" }, { status: 404 });
        }
        return Response.json({});
      }
      return Response.json({ name: "NotFoundError" }, { status: 404 });
    };
    const response = await answer();
    seen.push(`${route} ${response.status}`);
    return response;
  });
  return { ...stand, seen };
}

/** One conversion and run, which the tests read. */
let once: ReturnType<typeof convertAndRunFresh> | undefined;
const convertAndRun = () => once ??= convertAndRunFresh();

/** Converts the document and runs the suite as its summary prints it, flows 4 at a time. */
async function convertAndRunFresh() {
  const server = startServer();
  const suite = await convertAndRunSuite(document(), server, { extra: ["--jobs", "4"] });
  const read = (name: string) => suite.flows.get(`${name}.yaml`) ?? "";
  const flows = { projects: read("projects"), features: read("features"), hooks: read("hooks") };
  return { summary: suite.summary, run: suite.runs[0], seen: server.seen, flows };
}

Deno.test("convert openapi: a flow that removes what it read from another's create runs after the others, alone", async () => {
  const { summary, flows } = await convertAndRun();
  assert.match(
    summary,
    /\{environment\} of DELETE \/api\/projects\/\{projectId\}\/environments\/\{environment\} ← POST \/api\/tokens \$\.json\.environment/,
  );
  assert.match(flows.projects, /^serial: true$/m);
  assert.match(
    flows.projects,
    /^# It removes what it did not make \(DELETE \/api\/projects\/\{projectId\}\/environments\/\{environment\}\): it runs after the other flows, alone\.$/m,
  );
});

Deno.test("convert openapi: so does a flow that removes what it read from a listing it did not fill", async () => {
  const { flows } = await convertAndRun();
  assert.match(flows.hooks, /^serial: true$/m);
  assert.match(flows.hooks, /removes what it did not make \(DELETE \/api\/hooks\/\{id\}\)/);
});

Deno.test("convert openapi: a flow that removes only what it made runs beside the others", async () => {
  const { flows } = await convertAndRun();
  // The Features flow archives its own feature (`DELETE …/features/{featureName}`).
  assert.doesNotMatch(flows.features, /serial/);
});

Deno.test("convert openapi: the feature's environment is read and switched before the project loses it", async () => {
  const { run, seen } = await convertAndRun();
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const featureEnv = seen.filter((s) => /\/features\/[^/ ]+\/environments\//.test(s));
  assert.equal(featureEnv.length, 3, seen.join("\n"));
  for (const s of featureEnv) assert.match(s, / 200$/, seen.join("\n"));
  assert.ok(seen.includes("DELETE /api/projects/default/environments/development 200"));
});
