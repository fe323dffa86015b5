/**
 * convert openapi's parts, in process: values generated from schemas
 * (formats, bounds, required properties only, read-only ones left out of
 * requests, recursive and exploding schemas bounded), step order, a
 * `$ref` cycle across files bundled without looping, credentials per
 * scheme, and linear time with deterministic output on a large generated
 * document.
 */
import assert from "node:assert/strict";
import { bundleDocument, checkDocument, convertOpenApi } from "../../lib/convert/openapi/mod.ts";
import { ExampleMaker } from "../../lib/convert/openapi/examples.ts";
import { AuthSchemes } from "../../lib/convert/openapi/auth.ts";
import { MAX_EXAMPLE_DEPTH } from "../../lib/convert/openapi/limits.ts";

const encode = (text: string) => new TextEncoder().encode(text);

Deno.test("values from schemas: the document's own first, then type, format and bounds", () => {
  const make = (schema: unknown) => new ExampleMaker({}).make(schema);
  assert.equal(make({ type: "string", format: "email" }), "user@example.com");
  assert.equal(make({ type: "string", format: "date-time" }), "2024-01-01T00:00:00Z");
  assert.equal(make({ type: "string", minLength: 10 }), "stringxxxx");
  assert.equal(make({ type: "string", maxLength: 2 }), "st");
  assert.equal(make({ type: "integer", minimum: 7 }), 7);
  assert.equal(make({ type: "integer", exclusiveMinimum: 7 }), 8, "3.1's number form");
  assert.equal(make({ type: "integer", minimum: 7, exclusiveMinimum: true }), 8, "3.0's flag");
  assert.equal(make({ type: "number", maximum: 0.25 }), 0.25);
  assert.equal(make({ type: ["null", "boolean"] }), true, "3.1 type lists: the first not null");
  assert.equal(make({ type: "string", enum: ["b", "a"] }), "b");
  assert.equal(make({ type: "string", default: "d", example: "e" }), "e");
  assert.equal(make({ examples: ["x"] }), "x");
  assert.deepEqual(make({ type: "array", items: { type: "integer" }, minItems: 2 }), [1, 1]);
  assert.deepEqual(
    make({ oneOf: [{ type: "null" }, { type: "string", format: "uuid" }] }),
    "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  );
  assert.deepEqual(
    make({
      allOf: [
        { type: "object", required: ["a"], properties: { a: { type: "integer" } } },
        {
          type: "object",
          required: ["b", "c"],
          properties: { b: { type: "boolean" }, c: { type: "string", readOnly: true } },
        },
      ],
    }),
    { a: 1, b: true },
  );
});

Deno.test("a recursive schema stops at the depth bound; an exploding one at the size bound", () => {
  const doc = {
    components: {
      schemas: {
        Node: {
          type: "object",
          required: ["child"],
          properties: { child: { $ref: "#/components/schemas/Node" } },
        },
        Wide: {
          type: "object",
          required: Array.from({ length: 12 }, (_, i) => `p${i}`),
          properties: Object.fromEntries(
            Array.from({ length: 12 }, (_, i) => [`p${i}`, { $ref: "#/components/schemas/Wide" }]),
          ),
        },
        Loop: { $ref: "#/components/schemas/Loop" },
      },
    },
  };
  let node = new ExampleMaker(doc).make({ $ref: "#/components/schemas/Node" });
  let depth = 0;
  while (node && typeof node === "object" && "child" in node) {
    node = (node as { child: unknown }).child;
    depth++;
  }
  assert.equal(depth, MAX_EXAMPLE_DEPTH);
  const started = performance.now();
  const wide = JSON.stringify(new ExampleMaker(doc).make({ $ref: "#/components/schemas/Wide" }));
  assert.ok(performance.now() - started < 1_000);
  assert.ok(wide.length < 200_000, `${wide.length} characters`);
  assert.equal(new ExampleMaker(doc).make({ $ref: "#/components/schemas/Loop" }), undefined);
});

Deno.test("a $ref cycle across files is bundled once, without looping", async () => {
  const files: Record<string, string> = {
    "/d/api.yaml":
      "openapi: 3.1.0\npaths:\n  /a:\n    post:\n      requestBody: {content: {application/json: {schema: {$ref: 'a.yaml'}}}}\n      responses: {'200': {description: ok}}\n",
    "/d/a.yaml": "type: object\nrequired: [b]\nproperties: {b: {$ref: 'b.yaml'}}\n",
    "/d/b.yaml": "type: object\nrequired: [a]\nproperties: {a: {$ref: 'a.yaml'}}\n",
  };
  const read = (p: string) =>
    Promise.resolve(files[p] ? encode(files[p]) : { why: "no such file" });
  const got = await bundleDocument(
    "/d/api.yaml",
    read,
    (d) => checkDocument(d, "api.yaml"),
    (f) => f,
  );
  assert.deepEqual(got.files, ["/d/a.yaml", "/d/b.yaml"]);
  const bundled = got.document["x-bundled"] as Record<
    string,
    { properties: Record<string, unknown> }
  >;
  assert.deepEqual(bundled.a.properties.b, { $ref: "#/x-bundled/b" });
  assert.deepEqual(bundled.b.properties.a, { $ref: "#/x-bundled/a" });
  const { files: out } = convertOpenApi({ document: got.document, source: "api.yaml" });
  assert.match(out[0].text, /body:\n {8}b:\n {10}a:\n/);
});

Deno.test("credentials: one environment variable per scheme, security [] is none", () => {
  const doc = {
    security: [{ one: [] }],
    components: {
      securitySchemes: {
        one: { type: "apiKey", in: "header", name: "X-One" },
        two: { type: "apiKey", in: "header", name: "X-Two" },
        oidc: { type: "openIdConnect", openIdConnectUrl: "https://x.test/.well-known" },
      },
    },
  };
  const auth = new AuthSchemes(doc);
  assert.deepEqual(auth.credentials({}).headers, [["X-One", "${ENV.API_KEY}"]]);
  assert.deepEqual(auth.credentials({ security: [{ one: [], two: [] }] }).headers, [
    ["X-One", "${ENV.API_KEY}"],
    ["X-Two", "${ENV.TWO_API_KEY}"],
  ]);
  const oidc = auth.credentials({ security: [{ oidc: [] }] });
  assert.deepEqual(oidc.headers, [["Authorization", "Bearer ${ENV.API_TOKEN}"]]);
  assert.match(oidc.comments[0], /openIdConnect: API_TOKEN holds a token got beforehand/);
  assert.deepEqual(auth.credentials({ security: [] }).headers, []);
  assert.match(
    auth.credentials({ security: [{ nope: [] }] }).comments[0],
    /"nope" is not in components\.securitySchemes/,
  );
  assert.deepEqual([...auth.env.values()].map((e) => e.name), [
    "API_KEY",
    "TWO_API_KEY",
    "API_TOKEN",
  ]);
});

/** A document of `n` resources, each created, listed, read, updated and deleted. */
function generated(n: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const ok = {
      description: "ok",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
    };
    paths[`/r${i}`] = {
      get: { tags: [`t${i % 50}`], responses: { "200": ok } },
      post: {
        tags: [`t${i % 50}`],
        requestBody: {
          content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
        },
        responses: { "201": ok },
      },
    };
    paths[`/r${i}/{id}`] = {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
      get: { tags: [`t${i % 50}`], responses: { "200": ok } },
      put: { tags: [`t${i % 50}`], responses: { "200": ok } },
      delete: { tags: [`t${i % 50}`], responses: { "204": { description: "gone" } } },
    };
  }
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "big", version: "1" },
    paths,
    components: {
      schemas: {
        Thing: {
          type: "object",
          required: ["id", "name"],
          properties: { id: { type: "integer", readOnly: true }, name: { type: "string" } },
        },
      },
    },
  });
}

async function timeConvert(text: string): Promise<{ ms: number; out: string }> {
  const started = performance.now();
  const { document } = await bundleDocument(
    "/big/api.json",
    () => Promise.resolve(encode(text)),
    (d) => checkDocument(d, "api.json"),
    (f) => f,
  );
  const { files } = convertOpenApi({ document, source: "api.json", documentRef: "api.json" });
  return {
    ms: performance.now() - started,
    out: files.map((f) => f.path + "\n" + f.text).join("\n"),
  };
}

Deno.test("a large document converts in linear time, the same bytes each time", async () => {
  const small = generated(500);
  const large = generated(4_000);
  await timeConvert(small); // warm up
  const a = await timeConvert(small);
  const b = await timeConvert(large);
  const again = await timeConvert(large);
  assert.equal(b.out, again.out, "deterministic");
  assert.equal(b.out.split("\n  - name: ").length - 1, 20_000, "a step per operation");
  assert.match(b.out, /url: \$\{ENV\.BASE_URL\}\/r3999\/\$\{steps\.post_r3999\.capture\.id\}/);
  // 8 times the operations: well under 8 × 4 the time (quadratic would be 64 ×).
  assert.ok(
    b.ms < a.ms * 32 + 500,
    `500 resources: ${Math.round(a.ms)} ms; 4,000: ${Math.round(b.ms)} ms`,
  );
  assert.ok(b.ms < 10_000, `${Math.round(b.ms)} ms`);
});

Deno.test("a flow name a tag took gets a number; literal path text is encoded; a GET's body is left out", () => {
  const document = {
    openapi: "3.0.3",
    info: { title: "things" },
    paths: {
      "/a b/{id}": {
        get: {
          tags: ["things"],
          parameters: [{ name: "id", in: "path", required: true, example: "x/y" }],
          requestBody: { content: { "application/json": { schema: { type: "object" } } } },
          responses: { "200": { description: "ok" } },
        },
      },
      "/other": { get: { responses: { "200": { description: "ok" } } } },
    },
  };
  const { files } = convertOpenApi({ document, source: "api.yaml" });
  assert.deepEqual(files.map((f) => f.path), ["things.yaml", "things_2.yaml"]);
  assert.match(files[1].text, /^name: things \(2\)$/m);
  assert.match(files[0].text, /url: \$\{ENV\.BASE_URL\}\/a%20b\/x%2Fy\n/);
  assert.match(
    files[0].text,
    /# the document gives GET a request body: left out, flowrun sends none\n/,
  );
  assert.doesNotMatch(files[0].text, /^ +body:/m);
});

Deno.test("a property named example or $ref is a schema, its $refs followed; an example is data", async () => {
  const files: Record<string, string> = {
    "/d/api.yaml": "openapi: 3.1.0\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n" +
      "          description: ok\n          content:\n            application/json:\n" +
      "              schema:\n                type: object\n                properties:\n" +
      "                  example: {$ref: 'b.yaml'}\n                  $ref: {type: string}\n" +
      "                example: {$ref: 'not-a-file.yaml'}\n",
    "/d/b.yaml": "type: integer\n",
  };
  const read = (p: string) =>
    Promise.resolve(files[p] ? encode(files[p]) : { why: "no such file" });
  const got = await bundleDocument(
    "/d/api.yaml",
    read,
    (d) => checkDocument(d, "api.yaml"),
    (f) => f,
  );
  assert.deepEqual(got.files, ["/d/b.yaml"]);
  // deno-lint-ignore no-explicit-any
  const schema = (got.document as any).paths["/a"].get.responses["200"]
    .content["application/json"].schema;
  assert.deepEqual(schema.properties.example, { $ref: "#/x-bundled/b" });
  assert.deepEqual(schema.properties.$ref, { type: "string" });
  assert.deepEqual(schema.example, { $ref: "not-a-file.yaml" }, "an example is copied as it is");
});

Deno.test("an operation's own server is named; one that is no URL, or a path that is none, is a var to fill in", () => {
  const ok = { "200": { description: "ok" } };
  const document = {
    openapi: "3.0.3",
    info: { title: "files" },
    servers: [{ url: "https://api.example.test" }],
    paths: {
      // GitHub's release assets go to an upload host of their own: still under BASE_URL.
      "/assets": { post: { servers: [{ url: "https://uploads.example.test/" }], responses: ok } },
      // DigitalOcean's presigned upload: the URL another answer gives.
      "/<upload_url>": {
        put: {
          operationId: "upload_file",
          servers: [{ url: "https://", description: "Use the exact upload_url returned." }],
          responses: ok,
        },
      },
      "/items": { get: { responses: ok } },
    },
  };
  const { files, summary } = convertOpenApi({ document, source: "api.yaml" });
  const text = files[0].text;
  assert.match(
    text,
    /# the document serves it from https:\/\/uploads\.example\.test: point BASE_URL there\n/,
  );
  assert.match(text, /url: \$\{ENV\.BASE_URL\}\/assets\n/);
  assert.match(text, /url: \$\{vars\.upload_file_url\}\n/);
  assert.match(
    text,
    /# fill in: the whole URL of PUT \/<upload_url>: its path \/<upload_url> is no URL path \(the document: Use the exact upload_url returned\.\)\n {2}upload_file_url: https:\/\/example\.invalid\/%3Cupload_url%3E\n/,
  );
  assert.match(text, /url: \$\{ENV\.BASE_URL\}\/items\n/);
  assert.deepEqual(summary.placeholders.map((p) => p.what.split(" (")[0]), [
    "vars.upload_file_url",
  ]);
});
