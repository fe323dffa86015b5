/**
 * Values of real documents that gave a flow the loader refuses (found on
 * APIs.guru's directory, docs/real-servers.md "Real documents at scale"):
 * a blank tag (Bungie's `""`) named the flow `""`, and an integer example
 * past 2^53 (Water Linked's receiver id 2339264502380679709, which JSON
 * already read as 2339264502380679700) was written as one the loader
 * cannot keep exactly. Each flow now loads.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const DOC = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Blank" },
  paths: {
    "/locales": { get: { tags: [""], responses: { "200": { description: "ok" } } } },
    "/receivers": {
      post: {
        tags: ["receivers"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["id", "low"],
                properties: { id: { type: "integer" }, low: { type: "integer", minimum: -1e300 } },
              },
              example: { id: 2339264502380679709, low: -9007199254740993 },
            },
          },
        },
        responses: { "201": { description: "made" } },
      },
    },
    // A `${` in a field's name is its text: a flow's form and multipart names are templates.
    "/receivers/notes": {
      post: {
        tags: ["receivers"],
        requestBody: {
          content: {
            "application/x-www-form-urlencoded": {
              schema: { type: "object", properties: { "note${x}": { type: "string" } } },
              example: { "note${x}": "n" },
            },
          },
        },
        responses: { "201": { description: "made" } },
      },
    },
    "/receivers/files": {
      post: {
        tags: ["receivers"],
        requestBody: {
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                properties: {
                  "doc${x}": { type: "string", format: "binary" },
                  "t${x}": { type: "string" },
                },
                example: { "t${x}": "t" },
              },
            },
          },
        },
        responses: { "201": { description: "made" } },
      },
    },
  },
});

Deno.test("convert openapi: a blank tag, an integer past 2^53 and a `${` in a field name still give flows that load", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-loadable-" });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, DOC);
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    const validated = await runCli(["validate", "--no-env", `${dir}/out`]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    const files = [...Deno.readDirSync(`${dir}/out`)].map((e) => e.name).sort();
    assert.deepEqual(files, ["blank.yaml", "files", "receivers.yaml"]);
    assert.match(await Deno.readTextFile(`${dir}/out/blank.yaml`), /^name: Blank$/m);
    const receivers = await Deno.readTextFile(`${dir}/out/receivers.yaml`);
    // The nearest integer the loader keeps exactly.
    assert.match(receivers, /^ {8}id: 9007199254740991$/m);
    assert.match(receivers, /^ {8}low: -9007199254740991$/m);
    assert.match(receivers, /"note\$\$\{x\}": "n"/);
    assert.match(receivers, /"doc\$\$\{x\}":\n +file: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Just Eat's: the login (`POST /consumers/{tenant}`, answering a token)
 * has a path parameter nothing produces; the Checkout flow's bearer block
 * read its token, but the login was not copied into that flow, so the
 * flow named a step it did not hold. The login is now the run's one
 * sign-in (`.sign_in.yaml`, passed with `--setup`), whose token the flow
 * reads as `${setup.token}`: they validate together.
 */
const LOGIN = `openapi: 3.0.3
info: {title: Eat}
components:
  securitySchemes:
    Bearer: {type: http, scheme: bearer}
paths:
  /consumers/{tenant}:
    post:
      tags: [Consumers]
      parameters: [{name: tenant, in: path, required: true, schema: {type: string}}]
      requestBody:
        content:
          application/json:
            schema: {type: object, required: [emailAddress, password], properties: {emailAddress: {type: string, format: email}, password: {type: string}}}
      responses:
        '201':
          description: made
          content:
            application/json:
              schema: {type: object, properties: {token: {type: string}}}
  /checkout/{tenant}/{checkoutId}:
    get:
      tags: [Checkout]
      security: [{Bearer: []}]
      parameters:
        - {name: tenant, in: path, required: true, schema: {type: string}}
        - {name: checkoutId, in: path, required: true, schema: {type: string}}
      responses: {'200': {description: ok}}
`;

Deno.test("convert openapi: a flow whose credential is a login's token reads it from the login, even one whose path parameter nothing produces", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-loadable-" });
  try {
    await Deno.writeTextFile(`${dir}/api.yaml`, LOGIN);
    const converted = await runCli(["convert", "openapi", `${dir}/api.yaml`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    const setup = `${dir}/out/.sign_in.yaml`;
    const validated = await runCli(["validate", "--no-env", `${dir}/out`, "--setup", setup]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    const checkout = await Deno.readTextFile(`${dir}/out/checkout.yaml`);
    assert.match(checkout, /token: \$\{setup\.token\}/);
    const signIn = await Deno.readTextFile(setup);
    assert.match(signIn, /^ {2}- name: post_consumers_tenant$/m);
    assert.match(signIn, /^ {2}token: \$\{steps\.post_consumers_tenant\.capture\.token\}$/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
