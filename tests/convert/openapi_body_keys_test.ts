/**
 * convert openapi (issue 52): a request body property named as the key of
 * an apiKey scheme the operation sends is that key, from the scheme's
 * variable, never the document's example. Express-Zod-API's example
 * declares its `key` scheme `in: query` and reads it from the body (its
 * description says so), with an example that is not the key; measured by
 * hand, its update was refused 401 until the body sent the key.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** An update whose key goes in the query by its scheme, and is read from the body. */
function document() {
  return {
    openapi: "3.1.0",
    info: { title: "Users", version: "1" },
    components: {
      securitySchemes: {
        KEY: {
          type: "apiKey",
          in: "query",
          name: "key",
          description: "key MUST be supplied within the request body instead of query",
        },
      },
    },
    paths: {
      "/v1/user/{id}": {
        patch: {
          security: [{ KEY: [] }],
          parameters: [{
            name: "id",
            in: "path",
            required: true,
            schema: { type: "string", example: "12" },
          }],
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["key", "name"],
                  properties: {
                    key: { type: "string", examples: ["1234-5678-90"] },
                    name: { type: "string", examples: ["John Doe"] },
                  },
                },
              },
            },
          },
          responses: { "200": { description: "updated" } },
        },
      },
    },
  };
}

/** A server that takes the key from the body only, as the measured one does. */
function startServer(key: string) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json().catch(() => ({}));
    if (body.key !== key) return Response.json({ message: "Invalid key" }, { status: 401 });
    return Response.json({ name: body.name });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { base: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

Deno.test("a body property named as the operation's apiKey is that key", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-openapi-body-keys-" });
  const server = startServer("k-123");
  try {
    await Deno.writeTextFile(`${dir}/users.json`, JSON.stringify(document(), null, 2));
    const converted = await runCli(["convert", "openapi", `${dir}/users.json`, "-o", `${dir}/f`]);
    assert.equal(converted.code, 0, converted.stderr);
    let flows = "";
    for await (const e of Deno.readDir(`${dir}/f`)) {
      if (e.name.endsWith(".yaml")) flows += await Deno.readTextFile(`${dir}/f/${e.name}`);
    }
    assert.match(flows, /body:\n {8}key: \$\{ENV\.API_KEY\}\n {8}name: John Doe/);
    assert.doesNotMatch(flows, /1234-5678-90/);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const env = { BASE_URL: server.base, API_KEY: "k-123" };
    const run = await runCli(line.split(" "), { env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
