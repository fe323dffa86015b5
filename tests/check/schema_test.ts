/**
 * Schema checks against a real server: a body against a JSON Schema (inline,
 * JSON file, YAML file) with every violation listed by its JSON pointer, and
 * against an OpenAPI 3 document (the operation found by method and path
 * under the server's base path, $refs, nullable, status codes and default).
 * Unusable schemas and files are problems before anything is sent.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

function serve() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/api/items/7") {
      return Response.json({ id: 7, name: "tea", tags: ["green"], note: null });
    }
    if (path === "/api/items/8") return Response.json({ id: "8", tags: [1] });
    if (path === "/api/items" && req.method === "POST") {
      return Response.json({ id: 9, name: "new", tags: [], note: "x" }, { status: 201 });
    }
    if (path === "/api/items/404") return Response.json({ error: "no item" }, { status: 404 });
    return Response.json({ unexpected: true }, { status: 418 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const OPENAPI = `openapi: 3.0.3
info: {title: items, version: "1"}
servers: [{url: "https://api.example.test/api"}]
paths:
  /items:
    post:
      responses:
        "201":
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Item"}
  /items/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "200":
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Item"}
        default:
          content:
            application/json:
              schema: {type: object, required: [error], properties: {error: {type: string}}}
components:
  schemas:
    Item:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
        tags: {type: array, items: {type: string}}
        note: {type: string, nullable: true}
`;

Deno.test("a body against JSON Schemas and an OpenAPI document, violations by pointer", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-schema-" });
  try {
    await Deno.mkdir(`${dir}/schemas`);
    await Deno.writeTextFile(`${dir}/schemas/openapi.yaml`, OPENAPI);
    await Deno.writeTextFile(
      `${dir}/schemas/item.json`,
      JSON.stringify({
        type: "object",
        required: ["id", "name"],
        properties: { id: { type: "integer" } },
      }),
    );
    await Deno.writeTextFile(`${dir}/schemas/item.yaml`, "type: object\nrequired: [id]\n");
    await Deno.writeTextFile(
      `${dir}/items.yaml`,
      `name: items
steps:
  - name: good
    request: {url: "${api.url}/api/items/7"}
    assert:
      schema: schemas/item.json
      openapi: schemas/openapi.yaml
  - name: created
    request: {method: POST, url: "${api.url}/api/items", body: {name: new}}
    assert:
      status: 201
      openapi: schemas/openapi.yaml
  - name: not_found
    request: {url: "${api.url}/api/items/404"}
    assert:
      schema: {type: object, required: [error]}
      openapi: schemas/openapi.yaml
  - name: yaml_schema
    request: {url: "${api.url}/api/items/7"}
    assert: {schema: schemas/item.yaml}
  - name: polled
    request: {url: "${api.url}/api/items/7"}
    loop: {max_attempts: 2, sleep_ms: 10, until: {schema: schemas/item.json}}
  - name: bad
    always: true
    request: {url: "${api.url}/api/items/8"}
    assert:
      schema: schemas/item.json
      openapi: schemas/openapi.yaml
  - name: undocumented
    always: true
    request: {url: "${api.url}/api/other"}
    assert: {openapi: schemas/openapi.yaml}
`,
    );
    const run = await runCli(["run", `${dir}/items.yaml`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const steps = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).flows[0].steps;
    const byName = Object.fromEntries(
      steps.map((s: { name: string; assertions: { passed: boolean; message: string }[] }) => [
        s.name,
        s.assertions.map((a) => `${a.passed ? "✔" : "✘"} ${a.message}`),
      ]),
    );
    assert.deepEqual(byName.good, [
      "✔ $.json matches schemas/item.json",
      "✔ $.json matches schemas/openapi.yaml (GET /items/{id} 200)",
    ]);
    assert.deepEqual(byName.created, [
      "✔ status 201",
      "✔ $.json matches schemas/openapi.yaml (POST /items 201)",
    ]);
    assert.deepEqual(byName.not_found, [
      "✔ $.json matches the inline schema",
      "✔ $.json matches schemas/openapi.yaml (GET /items/{id} default)",
    ]);
    assert.deepEqual(byName.yaml_schema, ["✔ $.json matches schemas/item.yaml"]);
    // A loop's until conditions may be schema checks too.
    assert.deepEqual(byName.polled, ["✔ $.json matches schemas/item.json"]);
    assert.deepEqual(byName.bad, [
      "✘ $.json: 2 violations of schemas/item.json: / must have required property 'name'; /id must be integer",
      "✘ $.json: 3 violations of schemas/openapi.yaml (GET /items/{id} 200): / must have required property 'name'; /id must be integer; /tags/0 must be string",
    ]);
    assert.deepEqual(byName.undocumented, [
      "✘ $.json: schemas/openapi.yaml has no operation for GET /other",
    ]);
    const bad = steps.find((s: { name: string }) => s.name === "bad").assertions[1];
    assert.deepEqual(bad.actual.map((v: { at: string }) => v.at), ["", "/id", "/tags/0"]);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("schemas that cannot be used are problems before anything is sent", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-schema-" });
  try {
    await Deno.writeTextFile(`${dir}/broken.json`, "{not json");
    await Deno.writeTextFile(`${dir}/not_openapi.yaml`, "openapi: 3.0.0\n");
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: f
steps:
  - name: b
    request: {url: http://127.0.0.1:1/}
    assert: {schema: broken.json}
  - name: c
    request: {url: http://127.0.0.1:1/}
    assert: {openapi: not_openapi.yaml}
  - name: d
    request: {url: http://127.0.0.1:1/}
    assert: {schema: missing.json}
`,
    );
    // A schema the validator refuses is found once its flow has no other problem.
    await Deno.writeTextFile(
      `${dir}/g.yaml`,
      "name: g\nsteps:\n  - name: a\n    request: {url: http://127.0.0.1:1/}\n    assert: {schema: {type: 12}}\n",
    );
    const run = await runCli(["run", `${dir}/f.yaml`, `${dir}/g.yaml`]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const lines = run.stderr.split("\n").filter((l) => / error\[/.test(l)).map((l) =>
      l.replace(`${dir}/`, "")
    );
    assert.equal(lines.length, 4, lines.join("\n"));
    assert.match(
      lines[0],
      /^f\.yaml:5:22 error\[file-read\]: Could not use "broken\.json" .*: it is not JSON/,
    );
    assert.match(
      lines[1],
      /^f\.yaml:8:23 error\[file-read\]: .*it has no "paths", so it is not an OpenAPI/,
    );
    assert.match(lines[2], /^f\.yaml:11:22 error\[file-read\]: .*: no such file\./);
    assert.match(
      lines[3],
      /^g\.yaml:5:14 error\[bad-schema\]: The JSON Schema "the inline schema" cannot be used: /,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
