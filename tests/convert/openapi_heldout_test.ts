/**
 * What real documents convert openapi was not built from showed, each as
 * the smallest case (the documents themselves run in
 * tests/cli/convert_openapi_heldout_test.ts):
 *
 * - Discord's ids are `{type: string, pattern: "^(0|[1-9][0-9]*)$"}`: a
 *   generated value must match the schema's `pattern` (it was "string",
 *   which the API refuses and the `openapi:` check of a mock's answer
 *   failed);
 * - Adyen Checkout's examples hold Adyen's own placeholders
 *   (`Basic {{credentials}}`, sent for Adyen to fill in): flowrun reads
 *   `{{x}}` as another tool's expression and refused the flow, so the
 *   converter writes the `{` through a var and the text is sent as the
 *   document gives it;
 * - Redocly's Museum API (3.1) has `webhooks` beside its paths: the summary
 *   says they are not converted rather than leaving them out silently;
 * - Discord's 242 operations have no tags: in one flow, its first failed
 *   step skipped all the others, so more than 50 untagged operations are
 *   split by their first path segment;
 * - Adyen's Management API (tried, not kept) has `oneOf` branches requiring
 *   nothing: a branch's value keeps the properties that tell it apart.
 */
import assert from "node:assert/strict";
import { convertOpenApi, formatOpenApiSummary } from "../../lib/convert/openapi/mod.ts";
import { ExampleMaker } from "../../lib/convert/openapi/examples.ts";
import { loadFlow } from "../../lib/load/mod.ts";

Deno.test("a generated string matches its schema's pattern", () => {
  const make = (schema: Record<string, unknown>) => new ExampleMaker({}).make(schema);
  const cases: Record<string, unknown>[] = [
    { type: "string", pattern: "^(0|[1-9][0-9]*)$", format: "snowflake" },
    { type: "string", pattern: "^[A-Z]{3}$" },
    { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
    { type: "string", pattern: "^[a-z][a-z0-9_]{2,31}$" },
    { type: "string", pattern: "^(?:https?)://[^\\s/]+\\.example$" },
    { type: "string", pattern: "^\\+?[1-9]\\d{1,14}$" },
    { type: "string", pattern: "^[^@\\s]+@[^@\\s]+$" },
    { type: "string", pattern: "^#[0-9a-fA-F]{6}$", minLength: 7, maxLength: 7 },
    { type: "string", pattern: "^v\\d+(\\.\\d+)*$" },
    { type: "string", pattern: "^[A-Za-z0-9]+\\:[0-9]+$" },
  ];
  for (const schema of cases) {
    const value = make(schema);
    assert.equal(typeof value, "string", JSON.stringify(schema));
    const pattern = String(schema.pattern);
    let re: RegExp;
    try {
      re = new RegExp(pattern, "u");
    } catch {
      re = new RegExp(pattern);
    }
    assert.match(value as string, re, JSON.stringify(schema));
  }
  assert.equal(make({ type: "string", pattern: "[a-z]+" }), "string", "already matches: kept");
  assert.equal(
    make({ type: "string", format: "date", pattern: "^\\d{4}-\\d{2}-\\d{2}$" }),
    "2024-01-01",
    "the format's value when it matches",
  );
  assert.equal(make({ type: "string", pattern: "(a)\\1(" }), "string", "no regular expression");
});

Deno.test("a path parameter with a pattern gets a placeholder that matches it", () => {
  const id = { type: "string", pattern: "^(0|[1-9][0-9]*)$" };
  const document = {
    openapi: "3.1.0",
    info: { title: "ids" },
    servers: [{ url: "https://api.test" }],
    paths: {
      "/guilds/{guild_id}": {
        get: {
          parameters: [{ name: "guild_id", in: "path", required: true, schema: id }],
          responses: { "200": { description: "ok" } },
        },
      },
    },
  };
  const { files } = convertOpenApi({ document, source: "api.json" });
  assert.match(files[0].text, /^ {2}guild_id: "0"$/m);
});

/** A document whose request example holds `{{…}}` and `{vars.x}` text meant for the server. */
const PLACEHOLDERS = {
  openapi: "3.1.0",
  info: { title: "forward" },
  servers: [{ url: "https://api.test" }],
  paths: {
    "/forward": {
      post: {
        parameters: [{
          name: "X-Template",
          in: "header",
          required: true,
          schema: { type: "string" },
          example: "{{token}}",
        }],
        requestBody: {
          content: {
            "application/json": {
              example: {
                headers: { Authorization: "Basic {{credentials}}" },
                body: '{"name":"{{holderName}}","at":"{vars.when}","cost":"${price}"}',
              },
            },
          },
        },
        responses: { "200": { description: "ok" } },
      },
    },
  },
};

Deno.test("another tool's placeholders in an example are sent as the document writes them", () => {
  const { files } = convertOpenApi({ document: PLACEHOLDERS, source: "api.json" });
  const text = files[0].text;
  const env = (name: string) => name === "BASE_URL" ? "http://127.0.0.1:9" : `${name}-value`;
  const loaded = loadFlow(text, files[0].path, { env });
  assert.deepEqual(loaded.problems, [], text);
  assert.match(text, /^vars:\n {2}# .*\{\{.*\n {2}lbrace: "\{"\n/m, "the var first, explained");
  assert.match(text, /Authorization: Basic \$\{vars\.lbrace\}\{credentials\}\}/);
  assert.match(text, /X-Template: \$\{vars\.lbrace\}\{token\}\}/);
  assert.ok(text.includes("$${price}"), "a ${ is still written $${");
  assert.ok(text.includes("${vars.lbrace}vars.when}"), text);
});

Deno.test("a document without such text gets no lbrace var", () => {
  const document = structuredClone(PLACEHOLDERS);
  const post = document.paths["/forward"].post;
  post.parameters[0].example = "{token}";
  post.requestBody.content["application/json"].example = {
    headers: { Authorization: "Basic {}" },
    body: "{}",
  };
  const { files } = convertOpenApi({ document, source: "api.json" });
  assert.doesNotMatch(files[0].text, /lbrace/);
});

Deno.test("webhooks beside paths are named in the summary, not converted", () => {
  const document = {
    openapi: "3.1.0",
    info: { title: "museum" },
    paths: { "/a": { get: { responses: { "200": { description: "ok" } } } } },
    webhooks: {
      newEvent: { post: { responses: { "200": { description: "ok" } } } },
      gone: { delete: {}, put: {} },
    },
  };
  const { summary } = convertOpenApi({ document, source: "api.json" });
  const text = formatOpenApiSummary(summary, { dir: "out", document: "api.json" });
  assert.match(
    text,
    /^3 webhook operations not converted \(newEvent, gone\): the API sends them; a suite does not\.$/m,
  );
});

Deno.test("past the depth bound a required property that may be null is null, not left out", () => {
  const doc = {
    components: {
      schemas: {
        Message: {
          type: "object",
          required: ["id", "referenced", "tags", "guild"],
          properties: {
            id: { type: "string" },
            referenced: { oneOf: [{ type: "null" }, { $ref: "#/components/schemas/Message" }] },
            tags: { type: "array", items: { $ref: "#/components/schemas/Message" } },
            guild: { type: ["object", "null"], required: ["id"], properties: { id: {} } },
          },
        },
      },
    },
  };
  let message = new ExampleMaker(doc).make({ $ref: "#/components/schemas/Message" });
  let depth = 0;
  while (message !== null) {
    const m = message as Record<string, unknown>;
    assert.deepEqual(Object.keys(m), ["id", "referenced", "tags", "guild"], `depth ${depth}`);
    message = m.referenced;
    depth++;
  }
  assert.ok(depth > 1);
});

Deno.test("a oneOf branch keeps the properties that tell it from the others", () => {
  // Adyen's Management API: six action types, none requiring a property; `{}` matched all six.
  const branch = (name: string, extra: Record<string, unknown> = {}) => ({
    type: "object",
    additionalProperties: false,
    properties: { type: { type: "string", enum: [name], default: name }, ...extra },
  });
  const doc = {
    components: {
      schemas: {
        Reboot: branch("ForceReboot"),
        Install: branch("InstallAndroidApp", { appId: { type: "string" } }),
        Cat: {
          type: "object",
          required: ["kind"],
          properties: { kind: { type: "string" }, meow: { type: "boolean" } },
        },
        Dog: { type: "object", required: ["kind"], properties: { kind: { type: "string" } } },
      },
    },
  };
  const action = {
    oneOf: [
      { $ref: "#/components/schemas/Reboot" },
      { $ref: "#/components/schemas/Install" },
    ],
  };
  assert.deepEqual(new ExampleMaker(doc).make(action), { type: "ForceReboot" });
  assert.deepEqual(new ExampleMaker(doc, "response").make(action), { type: "ForceReboot" });
  const pet = {
    oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
    discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat" } },
  };
  assert.deepEqual(new ExampleMaker(doc).make(pet), { kind: "cat" }, "the mapping's name");
  const unmapped = { ...pet, discriminator: { propertyName: "kind" } };
  assert.deepEqual(new ExampleMaker(doc).make(unmapped), { kind: "Cat" }, "the schema's name");
});

Deno.test("more than 50 untagged operations are split by their first path segment", () => {
  // Discord's 242 untagged operations were one flow: its first failed step skipped all the others.
  const paths: Record<string, unknown> = {};
  const ok = { "200": { description: "ok" } };
  for (let i = 0; i < 30; i++) {
    paths[`/guilds/g${i}`] = { get: { responses: ok } };
    paths[`/users/u${i}`] = { get: { responses: ok } };
  }
  const made = { type: "object", properties: { id: { type: "string" } } };
  paths["/guilds"] = {
    post: {
      responses: {
        "201": { description: "made", content: { "application/json": { schema: made } } },
      },
    },
  };
  paths["/guilds/{guild_id}"] = {
    get: {
      parameters: [{ name: "guild_id", in: "path", required: true, schema: { type: "string" } }],
      responses: ok,
    },
  };
  paths["/"] = { get: { responses: ok } };
  // A tag only declared by an operation comes after the untagged ones that appear first.
  paths["/tagged"] = { get: { tags: ["t"], responses: ok } };
  const document = { openapi: "3.1.0", info: { title: "Chat" }, paths };
  const { files, summary } = convertOpenApi({ document, source: "api.json" });
  assert.deepEqual(
    summary.flows.map((f) => `${f.file} ${f.steps} ${f.tag ?? f.under}`),
    ["guilds.yaml 32 /guilds", "users.yaml 30 /users", "chat.yaml 1 /", "t.yaml 1 t"],
  );
  const text = formatOpenApiSummary(summary, { dir: "out", document: "api.json" });
  assert.match(text, /into 4 flows in out\/ \(one per tag; untagged operations one per first path/);
  assert.match(text, /^ {2}guilds\.yaml: 32 steps \(untagged operations under \/guilds\)$/m);
  const guilds = files.find((f) => f.path === "guilds.yaml")!.text;
  assert.match(guilds, /^name: Chat \/guilds$/m);
  assert.match(guilds, /\$\{steps\.post_guilds\.capture\.guild_id\}/, "the create's capture kept");

  const few = { ...document, paths: { "/a": paths["/"], "/b": paths["/"] } };
  const one = convertOpenApi({ document: few, source: "api.json" });
  assert.deepEqual(one.files.map((f) => f.path), ["chat.yaml"], "50 or fewer: one flow");
});

Deno.test("a document's pattern that backtracks for ever is tried under a time limit, not hung on", async () => {
  const { prepareGuard } = await import("../../lib/_util/time_guard.ts");
  await prepareGuard();
  const make = (schema: Record<string, unknown>) => new ExampleMaker({}).make(schema);
  // `^(\w+)+!$` on the padded value: exponential on V8's backtracking engine, so that an
  // answer at all is the proof the limit stopped it (2^1000 steps otherwise).
  const value = make({ type: "string", pattern: "^(\\w+)+!$", minLength: 1000 });
  assert.equal(typeof value, "string");
  // A quantified group that is quick is still tried (on the helper thread) and matched.
  const phone = make({ type: "string", pattern: "^(\\d{3}-)?\\d{4}$" });
  assert.match(phone as string, /^(\d{3}-)?\d{4}$/);
});

Deno.test("a discriminator mapping that names files is bundled, so a branch keeps its own value", async () => {
  // Redocly's openapi-starter (tests/fixtures/openapi/README.md): MenuItem is a oneOf of files
  // whose discriminator mapping names the files (`beverage: ./Beverage.yaml`); the bundle kept
  // that text, and the generated item said `category: components_schemas_Beverage`, which
  // neither branch's `const` allows. A mapping that points nowhere is kept, as before.
  const { bundleDocument } = await import("../../lib/convert/openapi/bundle.ts");
  const files: Record<string, string> = {
    "/api/openapi.yaml": "openapi: 3.1.0\ninfo: {title: cafe, version: '1'}\npaths:\n" +
      "  /menu: {post: {requestBody: {content: {application/json: {schema: {$ref: 'MenuItem.yaml'}}}}," +
      " responses: {'201': {description: ok}}}}\n",
    "/api/MenuItem.yaml": "discriminator:\n  propertyName: category\n  mapping:\n" +
      "    beverage: ./Beverage.yaml\n    dessert: '#/components/schemas/Dessert'\n" +
      "oneOf: [{$ref: ./Beverage.yaml}, {$ref: ./Dessert.yaml}]\nrequired: [category]\n",
    "/api/Beverage.yaml":
      "allOf: [{type: object, properties: {category: {type: string, const: beverage}}, required: [category]}]\n",
    "/api/Dessert.yaml": "type: object\nproperties: {category: {type: string, const: dessert}}\n",
  };
  const read = (p: string) => Promise.resolve(new TextEncoder().encode(files[p]));
  const { document } = await bundleDocument("/api/openapi.yaml", read, () => {}, (f) => f);
  const bundled = document["x-bundled"] as Record<string, { discriminator?: { mapping: unknown } }>;
  assert.deepEqual(bundled.MenuItem.discriminator?.mapping, {
    beverage: "#/x-bundled/Beverage",
    dessert: "#/components/schemas/Dessert",
  });
  const { files: flows } = convertOpenApi({ document, source: "openapi.yaml" });
  assert.match(flows[0].text, /body:\n\s+category: beverage\n/);
});
