/**
 * convert openapi's run values and inference, in process (issue 52, class
 * 9): a password is never a literal in a flow, in a body or a query; the
 * account's email and user name are flow vars made per run; a login's
 * token is the credential of a bearer scheme, and a key the user is given
 * (an apiKey that says nothing of a token) stays an environment variable.
 */
import assert from "node:assert/strict";
import { convertOpenApi } from "../../lib/convert/openapi/mod.ts";
import { loadFlow } from "../../lib/load/mod.ts";

const json = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  content: { "application/json": { schema: { type: "object", required, properties } } },
});

Deno.test("a password or user name in a query is a run var, never the word password", async () => {
  const document = {
    openapi: "3.0.3",
    info: { title: "q" },
    paths: {
      "/session": {
        get: {
          parameters: [
            { name: "username", in: "query", required: true, schema: { type: "string" } },
            {
              name: "password",
              in: "query",
              required: true,
              schema: { type: "string", format: "password" },
            },
          ],
          responses: { "200": { description: "ok" } },
        },
      },
    },
  };
  const { files } = convertOpenApi({ document, source: "q.yaml" });
  const text = files[0].text;
  assert.match(
    text,
    /query:\n {8}username: \$\{vars\.username\}\n {8}password: \$\{vars\.password\}/,
  );
  assert.doesNotMatch(text, /password: password/);
  assert.match(text, /^ {2}password: Pw-\$\{RANDOM\.HEX_16\}$/m);
  await loadFlow(text, "q.yaml");
});

Deno.test("a login's token serves a bearer scheme; a key the user is given stays a variable", () => {
  const document = {
    openapi: "3.0.3",
    info: { title: "t" },
    security: [{ jwt: [] }],
    components: {
      securitySchemes: {
        jwt: { type: "http", scheme: "bearer" },
        key: { type: "apiKey", in: "header", name: "X-API-Key" },
      },
    },
    paths: {
      "/login": {
        post: {
          security: [],
          requestBody: json({ email: { type: "string" }, password: { type: "string" } }),
          responses: { "200": json({ data: { type: "object", properties: { jwt: {} } } }) },
        },
      },
      "/me": { get: { responses: { "200": { description: "ok" } } } },
      "/admin": {
        get: { security: [{ key: [] }], responses: { "200": { description: "ok" } } },
      },
    },
  };
  const { files, summary } = convertOpenApi({ document, source: "t.yaml" });
  const text = files[0].text;
  assert.deepEqual(summary.env.map((e) => e.name), ["BASE_URL", "API_KEY"]);
  assert.match(text, /capture:\n {6}token: \$\.json\.data\.jwt\n/);
  assert.match(text, /bearer:\n {8}token: \$\{steps\.post_login\.capture\.token\}/);
  assert.match(text, /value: \$\{ENV\.API_KEY\}/);
  assert.match(text, /email: \$\{vars\.email\}\n {8}password: \$\{vars\.password\}/);
});

Deno.test("an upload whose schema requires no field still sends its one file", () => {
  const binary = { type: "string", format: "binary" };
  const document = {
    openapi: "3.0.3",
    info: { title: "files" },
    paths: {
      "/files": {
        post: {
          operationId: "upload",
          requestBody: {
            content: {
              "multipart/form-data": {
                schema: { type: "object", properties: { note: { type: "string" }, file: binary } },
              },
            },
          },
          responses: { "200": json({}) },
        },
      },
    },
  };
  const { files, summary } = convertOpenApi({ document, source: "f.yaml" });
  assert.match(files[0].text, /multipart:\n {8}file:\n {10}file: files\/upload_file\.bin\n/);
  assert.deepEqual(summary.placeholders.map((p) => p.file), ["files/upload_file.bin"]);
});
