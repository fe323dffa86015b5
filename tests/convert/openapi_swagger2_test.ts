/**
 * A Swagger 2.0 document (7 of @readme/oas-examples' 60, and what many
 * real servers still publish) is converted like an OpenAPI 3 one: it was
 * refused with a hint to convert it first, a refusal of a valid document
 * (docs/real-servers.md "Real documents at scale"). It is upgraded to
 * OpenAPI 3.0 in the output folder (the `openapi:` checks read 3.x), and
 * the flows are run against a server this test starts: the base path,
 * a JSON body from a `$ref`'d definition, a form and a file upload from
 * `formData`, a shared `$ref`'d parameter, and basic, apiKey and oauth2
 * credentials from the environment, each as the server receives it.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const DOC = {
  swagger: "2.0",
  info: { title: "Pets two", version: "1" },
  host: "pets.example.com",
  basePath: "/v2",
  schemes: ["https"],
  consumes: ["application/json"],
  produces: ["application/json"],
  securityDefinitions: {
    basic: { type: "basic" },
    key: { type: "apiKey", in: "header", name: "X-Key" },
    app: {
      type: "oauth2",
      flow: "application",
      tokenUrl: "https://pets.example.com/token",
      scopes: { "pets:write": "write" },
    },
  },
  security: [{ key: [] }],
  parameters: {
    Limit: { name: "limit", in: "query", required: true, type: "integer", minimum: 5 },
  },
  definitions: {
    Pet: {
      type: "object",
      required: ["name", "tags"],
      properties: {
        id: { type: "integer", readOnly: true },
        name: { type: "string", example: "rex" },
        tags: { type: "array", items: { $ref: "#/definitions/Tag" } },
      },
    },
    Tag: { type: "object", required: ["label"], properties: { label: { type: "string" } } },
  },
  paths: {
    "/pets": {
      get: {
        tags: ["pets"],
        operationId: "listPets",
        parameters: [{ $ref: "#/parameters/Limit" }],
        responses: {
          "200": {
            description: "ok",
            schema: { type: "array", items: { $ref: "#/definitions/Pet" } },
          },
        },
      },
      post: {
        tags: ["pets"],
        operationId: "addPet",
        security: [{ basic: [] }],
        parameters: [{
          name: "pet",
          in: "body",
          required: true,
          schema: { $ref: "#/definitions/Pet" },
        }],
        responses: { "201": { description: "made", schema: { $ref: "#/definitions/Pet" } } },
      },
    },
    "/pets/{petId}/photo": {
      post: {
        tags: ["pets"],
        operationId: "uploadPhoto",
        consumes: ["multipart/form-data"],
        security: [{ app: ["pets:write"] }],
        parameters: [
          { name: "petId", in: "path", required: true, type: "integer", "x-example": 7 },
          { name: "caption", in: "formData", required: true, type: "string", default: "hi" },
          { name: "file", in: "formData", required: true, type: "file" },
        ],
        responses: { "200": { description: "ok" } },
      },
    },
    "/login": {
      post: {
        tags: ["pets"],
        operationId: "login",
        security: [],
        consumes: ["application/x-www-form-urlencoded"],
        parameters: [
          { name: "user", in: "formData", required: true, type: "string", default: "ann" },
          {
            name: "tags",
            in: "query",
            required: true,
            type: "array",
            items: { type: "string" },
            collectionFormat: "csv",
            default: ["a", "b"],
          },
        ],
        responses: { "204": { description: "ok" } },
      },
    },
  },
};

interface Seen {
  route: string;
  headers: Headers;
  body: string;
  search: string;
}

/** A server that answers each operation as the document says, recording what it received. */
function startPets() {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const route = `${req.method} ${url.pathname}`;
    seen.push({ route, headers: req.headers, body: await req.text(), search: url.search });
    if (route === "POST /token") {
      return Response.json({
        access_token: "tok-from-server",
        token_type: "bearer",
        expires_in: 60,
      });
    }
    if (route === "GET /v2/pets") return Response.json([{ id: 1, name: "rex", tags: [] }]);
    if (route === "POST /v2/pets") {
      return Response.json({ id: 2, name: "rex", tags: [] }, { status: 201 });
    }
    if (/^POST \/v2\/pets\/\d+\/photo$/.test(route)) return new Response(null, { status: 200 });
    if (route === "POST /v2/login") return new Response(null, { status: 204 });
    return new Response("no such route", { status: 404 });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { base: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

Deno.test("convert openapi: a Swagger 2.0 document is upgraded and converted, and its flows send what the document says", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-swagger2-" });
  const pets = startPets();
  try {
    // The token endpoint is the server's own: the document's host is replaced as a user would.
    const doc = JSON.stringify(DOC).replace("https://pets.example.com/token", `${pets.base}/token`);
    await Deno.writeTextFile(`${dir}/swagger.json`, doc);
    const converted = await runCli(["convert", "openapi", "swagger.json", "-o", "out"], {
      cwd: dir,
    });
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /^Converted Pets two: 4 operations into 1 flow/m);
    assert.match(
      converted.stderr,
      /^The Swagger 2\.0 document is upgraded to OpenAPI 3\.0 in out\/openapi\.bundled\.json, which the openapi: checks read\.$/m,
    );
    const bundled = JSON.parse(await Deno.readTextFile(`${dir}/out/openapi.bundled.json`));
    assert.equal(bundled.openapi, "3.0.3");
    assert.deepEqual(bundled.servers, [{ url: "https://pets.example.com/v2" }]);
    const flow = await Deno.readTextFile(`${dir}/out/pets.yaml`);
    assert.match(flow, /url: \$\{ENV\.BASE_URL\}\/v2\/pets$/m);
    const env = {
      BASE_URL: pets.base,
      API_KEY: "key-1",
      API_USERNAME: "ann",
      API_PASSWORD: "pw",
      CLIENT_ID: "cid",
      CLIENT_SECRET: "csecret",
    };
    await Deno.writeTextFile(`${dir}/out/files/upload_photo_file.bin`, "PNGDATA");
    const run = await runCli(["run", "out", "--openapi", "out/openapi.bundled.json"], {
      cwd: dir,
      env,
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const at = (route: string) => {
      const found = pets.seen.find((s) => s.route === route);
      assert.ok(found, `${route} not sent: ${pets.seen.map((s) => s.route).join(", ")}`);
      return found;
    };
    assert.equal(at("GET /v2/pets").headers.get("x-key"), "key-1");
    assert.equal(new URLSearchParams(at("GET /v2/pets").search).get("limit"), "5");
    const add = at("POST /v2/pets");
    assert.equal(add.headers.get("authorization"), `Basic ${btoa("ann:pw")}`);
    assert.deepEqual(JSON.parse(add.body), { name: "rex", tags: [{ label: "string" }] });
    // The pet's id is the one the create answered (2), not the document's example (7).
    const photo = at("POST /v2/pets/2/photo");
    assert.equal(photo.headers.get("authorization"), "Bearer tok-from-server");
    assert.match(photo.headers.get("content-type") ?? "", /^multipart\/form-data/);
    assert.match(photo.body, /name="caption"\r\n\r\nhi\r\n/);
    assert.match(photo.body, /name="file"; filename="[^"]*"[^]*PNGDATA/);
    const login = at("POST /v2/login");
    assert.equal(login.headers.get("content-type"), "application/x-www-form-urlencoded");
    assert.equal(login.body, "user=ann");
    assert.equal(new URLSearchParams(login.search).get("tags"), "a,b");
    assert.equal(login.headers.get("x-key"), null, "security: [] sends nothing");
  } finally {
    await pets.close();
    await Deno.remove(dir, { recursive: true });
  }
});
