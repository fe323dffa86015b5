/**
 * An `id` key in an OpenAPI schema is no keyword (OpenAPI's schemas have
 * none of that name; draft 4 named a schema's id so, JSON Schema 2020-12
 * writes `$id`): the `openapi:` check reads it as the unknown key it is.
 * Found on the official Fastify demo's document from `@fastify/swagger`
 * (measured by hand, see docs/real-servers.md): `POST /api/tasks/` answers
 * 201 with the schema `{id: {type: number}}` (a route that wrote its answer's
 * properties without `type: object`), and the validator refused the whole
 * document ("NOT SUPPORTED: keyword "id", use "$id" for schema ID"), so the
 * check failed whatever the answer. A property named `id` is checked as
 * before. Run through the CLI against a server started here.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "tasks", version: "0" },
  paths: {
    "/made": {
      post: { responses: { "201": { description: "made", ...json({ id: { type: "number" } }) } } },
    },
    "/task": {
      get: {
        responses: {
          "200": {
            description: "one",
            ...json({ type: "object", required: ["id"], properties: { id: { type: "integer" } } }),
          },
        },
      },
    },
  },
};

const FLOW = `name: ids
steps:
  - name: made
    request: {method: POST, url: "\${ENV.BASE_URL}/made"}
    assert: {status: 201, openapi: api.json}
    always: true
  - name: good
    request: {url: "\${ENV.BASE_URL}/task"}
    assert: {status: 200, openapi: api.json}
    always: true
  - name: bad
    request: {url: "\${ENV.BASE_URL}/task?bad=1"}
    assert: {status: 200, openapi: api.json}
    always: true
`;

Deno.test("an id key in an OpenAPI schema is no keyword: the openapi check reads it as unknown", async () => {
  const dir = await Deno.makeTempDir();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/made") return Response.json({ id: 7 }, { status: 201 });
    return Response.json({ id: url.searchParams.has("bad") ? "seven" : 7 });
  });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(DOCUMENT));
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    const env = { BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}` };
    const run = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`], { env });
    const said = run.stdout + run.stderr;
    assert.doesNotMatch(said, /NOT SUPPORTED/, said);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const status = Object.fromEntries(
      report.flows[0].steps.map((s: { name: string; status: string }) => [s.name, s.status]),
    );
    assert.deepEqual(status, { made: "passed", good: "passed", bad: "failed" }, said);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
