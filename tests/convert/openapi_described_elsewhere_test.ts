/**
 * `convert openapi`: a required member a request schema names but does not
 * describe is sent as the document describes that name elsewhere. Found on
 * LemonLDAP::NG 2.16's Manager API (Debian's `liblemonldap-ng-manager-perl`,
 * measured by hand: docs/real-servers.md): `PUT /api/v1/providers/oidc/rp/
 * {confKey}` takes `OidcRpReplace`, which requires `redirectUris` and lists
 * no such property, while the create's `OidcRp` describes it as an array of
 * URIs. Sent as made-up text, the replace was refused 400 "redirectUris must
 * be an array". Widened to a description behind a `$ref`, one inside an
 * `allOf` part, and two descriptions of one type that differ in detail; a
 * name two schemas give different types stays text.
 *
 * The stand-in refuses as LemonLDAP::NG does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { runCli } from "../support/cli.ts";

type Schemas = Record<string, unknown>;

/** Relying parties: a create describing `redirectUris` (as `schemas` say), a replace that does not. */
function document(schemas: Schemas): Record<string, unknown> {
  const json = (ref: string) => ({
    required: true,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
  });
  const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
  const answer = {
    description: "",
    content: {
      "application/json": {
        schema: { type: "object", required: ["id"], properties: { id: { type: "string" } } },
      },
    },
  };
  return {
    openapi: "3.0.1",
    info: { title: "Relying parties", version: "1" },
    paths: {
      "/rps": { post: { requestBody: json("Rp"), responses: { "201": answer } } },
      "/rps/{id}": {
        parameters: [id],
        put: { requestBody: json("RpReplace"), responses: { "204": { description: "" } } },
      },
    },
    components: {
      schemas: {
        ...schemas,
        RpReplace: {
          type: "object",
          required: ["clientId", "redirectUris"],
          properties: { clientId: { type: "string" } },
        },
      },
    },
  };
}

const URIS = { type: "array", items: { type: "string", format: "uri" }, minItems: 1 };
const CLIENT = { clientId: { type: "string" } };

/** The ways a document describes `redirectUris` elsewhere. */
const DESCRIBED: [string, Schemas][] = [
  ["its create's schema", {
    Rp: { type: "object", required: ["clientId"], properties: { ...CLIENT, redirectUris: URIS } },
  }],
  ["a schema behind a $ref", {
    Uris: URIS,
    Rp: {
      type: "object",
      required: ["clientId"],
      properties: { ...CLIENT, redirectUris: { $ref: "#/components/schemas/Uris" } },
    },
  }],
  ["an allOf part, and again in less detail", {
    Base: { type: "object", properties: { redirectUris: URIS } },
    Options: {
      type: "object",
      properties: { redirectUris: { type: "array", items: { type: "string" } } },
    },
    Rp: {
      allOf: [{ $ref: "#/components/schemas/Base" }, {
        type: "object",
        required: ["clientId"],
        properties: CLIENT,
      }],
    },
  }],
];

/** Relying parties as the Manager API keeps them; each replace's body. */
function startServer() {
  const known = new Set<string>();
  const replaced: unknown[] = [];
  const bad = (text: string) => Response.json({ error: text }, { status: 400 });
  let next = 0;
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/rps" && req.method === "POST") {
      const id = `rp${++next}`;
      known.add(id);
      return Response.json({ id }, { status: 201 });
    }
    const m = /^\/rps\/([^/]+)$/.exec(path);
    if (!m || req.method !== "PUT" || !known.has(m[1])) return bad("Not found");
    const body = await req.json();
    replaced.push(body);
    const uris = body.redirectUris;
    if (!Array.isArray(uris) || !uris.every((u) => typeof u === "string")) {
      return bad("Invalid input: redirectUris must be an array");
    }
    return new Response(null, { status: 204 });
  });
  return { ...stand, replaced };
}

for (const [where, schemas] of DESCRIBED) {
  Deno.test(`convert openapi: a required member a replace does not describe is sent as ${where} describes it`, async () => {
    const server = startServer();
    const { runs } = await convertAndRunSuite(document(schemas), server, { runs: 2 });
    for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(server.replaced.length, 2);
    for (const body of server.replaced) {
      assert.ok(
        Array.isArray((body as { redirectUris: unknown }).redirectUris),
        JSON.stringify(body),
      );
    }
  });
}

Deno.test("convert openapi: a required member two schemas give different types stays text", async () => {
  const schemas = {
    Rp: { type: "object", properties: { ...CLIENT, redirectUris: URIS } },
    Legacy: { type: "object", properties: { redirectUris: { type: "string" } } },
  };
  const dir = await Deno.makeTempDir({ prefix: "flowrun-described-elsewhere-" });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document(schemas)));
    const out = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(out.code, 0, out.stderr);
    const [file] = [...Deno.readDirSync(`${dir}/flows`)].filter((e) => e.name.endsWith(".yaml"));
    const flow = Deno.readTextFileSync(`${dir}/flows/${file.name}`);
    const replace = flow.slice(flow.indexOf("method: PUT"));
    assert.match(replace, /redirectUris: redirecturis-\$\{RANDOM\.HEX_8\}/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
