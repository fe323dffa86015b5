/**
 * convert openapi's parts, in process: values generated from schemas
 * (formats, bounds, required properties only, read-only ones left out of
 * requests, recursive and exploding schemas bounded), step order, a
 * `$ref` cycle across files bundled without looping, credentials per
 * scheme as `auth:` blocks (each kind, OAuth2's flows preferred, relative
 * endpoints, a flow-level block and `auth: none`, per-step blocks, several
 * schemes at once in the request), and linear time with deterministic output on a large generated
 * document.
 */
import assert from "node:assert/strict";
import { assertLinearAsync } from "../support/timing.ts";
import { bundleDocument, checkDocument, convertOpenApi } from "../../lib/convert/openapi/mod.ts";
import { ExampleMaker } from "../../lib/convert/openapi/examples.ts";
import { AuthSchemes, type StepAuth } from "../../lib/convert/openapi/auth.ts";
import { endpoint } from "../../lib/convert/openapi/auth_oauth2.ts";
import type { YMap } from "../../lib/convert/yaml_out.ts";
import { loadFlow } from "../../lib/load/mod.ts";
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
  // Bounded by what it made, not by a clock: unbounded, twelve branches a level are 12^depth.
  const wide = JSON.stringify(new ExampleMaker(doc).make({ $ref: "#/components/schemas/Wide" }));
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

Deno.test("credentials: one environment variable per scheme, security [] is none, several at once in the request", () => {
  const doc = {
    security: [{ one: [] }],
    components: {
      securitySchemes: {
        one: { type: "apiKey", in: "header", name: "X-One" },
        two: { type: "apiKey", in: "header", name: "X-Two" },
        oidc: { type: "openIdConnect", openIdConnectUrl: "https://x.test/.well-known" },
        tls: { type: "mutualTLS" },
      },
    },
  };
  const auth = new AuthSchemes(doc);
  assert.deepEqual(blockOf(auth.forOperation({})), {
    api_key: { name: "X-One", value: "${ENV.API_KEY}", in: "header" },
  });
  const both = auth.forOperation({ security: [{ one: [], two: [] }] });
  assert.equal(both.block, undefined, "two schemes at once are no one block");
  assert.deepEqual(both.credentials.headers, [
    ["X-One", "${ENV.API_KEY}"],
    ["X-Two", "${ENV.TWO_API_KEY}"],
  ]);
  assert.match(both.credentials.comments[0], /"one" and "two" are required together/);
  const oidc = auth.forOperation({ security: [{ oidc: [] }] });
  assert.deepEqual(blockOf(oidc), { bearer: { token: "${ENV.API_TOKEN}" } });
  assert.match(oidc.notes[0], /openIdConnect: API_TOKEN holds a token got beforehand/);
  assert.equal(auth.forOperation({ security: [] }).none, true);
  assert.equal(auth.forOperation({ security: [{}, { one: [] }] }).none, true, "{} first: none");
  assert.match(
    auth.forOperation({ security: [{ nope: [] }] }).credentials.comments[0],
    /"nope" is not in components\.securitySchemes/,
  );
  const tls = auth.forOperation({ security: [{ tls: [] }] });
  assert.equal(tls.block, undefined);
  assert.match(tls.credentials.comments[0], /"tls" \(mutualTLS\) is not converted/);
  assert.deepEqual([...auth.env.values()].map((e) => e.name), [
    "API_KEY",
    "TWO_API_KEY",
    "API_TOKEN",
  ]);
});

/** The block of a step's auth as plain data. */
function blockOf(auth: StepAuth): unknown {
  const plain = (n: unknown): unknown =>
    n !== null && typeof n === "object" && (n as YMap).kind === "map"
      ? Object.fromEntries((n as YMap).entries.map(([k, v]) => [k, plain(v)]))
      : n;
  return plain(auth.block);
}

const SCHEMES = {
  basic: { type: "http", scheme: "Basic" },
  digest: { type: "http", scheme: "digest" },
  jwt: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
  hoba: { type: "http", scheme: "HOBA" },
  query: { type: "apiKey", in: "query", name: "api_key" },
  cookie: { type: "apiKey", in: "cookie", name: "sid" },
  machine: {
    type: "oauth2",
    flows: {
      authorizationCode: { authorizationUrl: "/authorize", tokenUrl: "/never", scopes: {} },
      password: { tokenUrl: "https://idp.test/password", scopes: {} },
      clientCredentials: { tokenUrl: "/oauth/token", scopes: { read: "r", write: "w" } },
    },
  },
  owner: {
    type: "oauth2",
    flows: {
      implicit: { authorizationUrl: "https://idp.test/authorize", scopes: {} },
      deviceAuthorization: {
        deviceAuthorizationUrl: "https://idp.test/device",
        tokenUrl: "https://idp.test/token",
        scopes: {},
      },
      password: { tokenUrl: "https://api.test/v1/token", scopes: {} },
    },
  },
  device: {
    type: "oauth2",
    flows: {
      deviceAuthorization: {
        deviceAuthorizationUrl: "https://idp.test/device",
        tokenUrl: "https://idp.test/token",
        scopes: {},
      },
    },
  },
  browser: {
    type: "oauth2",
    flows: {
      authorizationCode: { authorizationUrl: "/a", tokenUrl: "/t", scopes: {} },
      implicit: { authorizationUrl: "/a", scopes: {} },
    },
  },
};

Deno.test("each scheme kind is its auth: block, credentials from named environment variables", () => {
  const auth = new AuthSchemes({ components: { securitySchemes: SCHEMES } }, "https://api.test/v1");
  const of = (name: string, scopes: string[] = []) =>
    auth.forOperation({ security: [{ [name]: scopes }] });
  assert.deepEqual(blockOf(of("basic")), {
    basic: { username: "${ENV.API_USERNAME}", password: "${ENV.API_PASSWORD}" },
  });
  assert.deepEqual(blockOf(of("digest")), {
    digest: { username: "${ENV.DIGEST_API_USERNAME}", password: "${ENV.DIGEST_API_PASSWORD}" },
  }, "a second scheme wanting a taken name gets it prefixed");
  const jwt = of("jwt", ["read:users"]);
  assert.deepEqual(blockOf(jwt), { bearer: { token: "${ENV.API_TOKEN}" } });
  assert.match(
    jwt.notes[0],
    /names read:users for "jwt": roles its credentials must carry, not sent/,
  );
  const hoba = of("hoba");
  assert.deepEqual(blockOf(hoba), { bearer: { token: "${ENV.HOBA_API_TOKEN}" } });
  assert.match(hoba.notes[0], /"hoba" is http hoba: sent as a bearer token; check it/);
  assert.deepEqual(blockOf(of("query")), {
    api_key: { name: "api_key", value: "${ENV.API_KEY}", in: "query" },
  });
  assert.deepEqual(blockOf(of("cookie")), {
    api_key: { name: "sid", value: "${ENV.COOKIE_API_KEY}", in: "cookie" },
  });
  // clientCredentials before password before a browser's; the relative tokenUrl under BASE_URL.
  assert.deepEqual(blockOf(of("machine", ["read", "write"])), {
    oauth2: {
      grant_type: "client_credentials",
      token_url: "${ENV.BASE_URL}/oauth/token",
      client_id: "${ENV.CLIENT_ID}",
      client_secret: "${ENV.CLIENT_SECRET}",
      scope: "read write",
    },
  });
  // password before device; an absolute tokenUrl on the first server's origin under BASE_URL too.
  assert.deepEqual(blockOf(of("owner")), {
    oauth2: {
      grant_type: "password",
      token_url: "${ENV.BASE_URL}/v1/token",
      client_id: "${ENV.OWNER_CLIENT_ID}",
      client_secret: "${ENV.OWNER_CLIENT_SECRET}",
      username: "${ENV.OAUTH2_USERNAME}",
      password: "${ENV.OAUTH2_PASSWORD}",
    },
  });
  const device = of("device", ["profile"]);
  assert.deepEqual(blockOf(device), {
    oauth2: {
      grant_type: "device_code",
      token_url: "https://idp.test/token",
      device_authorization_url: "https://idp.test/device",
      client_id: "${ENV.DEVICE_CLIENT_ID}",
      scope: "profile",
    },
  }, "another origin's endpoints as written; a device's client sends no secret");
  assert.match(device.notes[0], /a person approves the device once per run/);
  const browser = of("browser", ["read"]);
  assert.deepEqual(blockOf(browser), { bearer: { token: "${ENV.BROWSER_API_TOKEN}" } });
  assert.match(
    browser.notes[0],
    /"browser" is oauth2 \(authorizationCode, implicit: a person signs in at a browser, which a run cannot do\): BROWSER_API_TOKEN holds a token got beforehand \(OAuth2 authorizationCode flow: sign in at https:\/\/api\.test\/a, then exchange the code at https:\/\/api\.test\/t, scopes read\)$/,
  );
  assert.deepEqual(
    [...auth.env.values()].map((e) => `${e.name}: ${e.what}`),
    [
      'API_USERNAME: the user name of "basic" (http basic)',
      'API_PASSWORD: the password of "basic" (http basic)',
      'DIGEST_API_USERNAME: the user name of "digest" (http digest)',
      'DIGEST_API_PASSWORD: the password of "digest" (http digest)',
      'API_TOKEN: the bearer token of "jwt"',
      'HOBA_API_TOKEN: the bearer token of "hoba"',
      'API_KEY: the API key of "query" (query api_key)',
      'COOKIE_API_KEY: the API key of "cookie" (cookie sid)',
      'CLIENT_ID: the OAuth2 client id of "machine" (client_credentials grant)',
      'CLIENT_SECRET: the OAuth2 client secret of "machine" (client_credentials grant)',
      'OWNER_CLIENT_ID: the OAuth2 client id of "owner" (password grant)',
      'OWNER_CLIENT_SECRET: the OAuth2 client secret of "owner" (password grant)',
      'OAUTH2_USERNAME: the resource owner\'s user name for "owner" (password grant)',
      'OAUTH2_PASSWORD: the resource owner\'s password for "owner" (password grant)',
      'DEVICE_CLIENT_ID: the OAuth2 client id of "device" (device_code grant)',
      // Where a browser's token comes from: its URLs resolved against the first server (issue 52).
      'BROWSER_API_TOKEN: an access token of "browser" (OAuth2 authorizationCode flow: sign in at https://api.test/a, then exchange the code at https://api.test/t, scopes read)',
    ],
  );
});

Deno.test("endpoints: relative ones resolved against the first server, kept under BASE_URL on its origin", () => {
  assert.equal(endpoint("token", "https://api.test/v1/"), "${ENV.BASE_URL}/v1/token");
  assert.equal(endpoint("token", "https://api.test/v1"), "${ENV.BASE_URL}/token", "RFC 3986");
  assert.equal(endpoint("/oauth/token?x=1", "/api"), "${ENV.BASE_URL}/oauth/token?x=1");
  assert.equal(endpoint("https://api.test/t", "https://api.test:8443/v1"), "https://api.test/t");
  assert.equal(endpoint("//idp.test/token", "https://api.test/v1"), "//idp.test/token");
  assert.equal(endpoint("https://idp.test/${x}", undefined), "https://idp.test/$${x}");
  assert.equal(endpoint("/token", "https://{host}/v1"), "${ENV.BASE_URL}/token");
  assert.equal(endpoint("ftp://idp.test/token", undefined), undefined);
  assert.equal(endpoint(42, undefined), undefined);
  // A scheme whose only runnable flow has no usable tokenUrl falls back to a bearer variable.
  const auth = new AuthSchemes({
    components: {
      securitySchemes: {
        o: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "ftp://x/t", scopes: {} } } },
      },
    },
  });
  assert.deepEqual(blockOf(auth.forOperation({ security: [{ o: [] }] })), {
    bearer: { token: "${ENV.API_TOKEN}" },
  });
});

/** A document of `ops` on `/r{i}` with these security requirements, untagged: one flow. */
function securedDoc(security: (unknown[] | undefined)[], top?: unknown[]) {
  const paths: Record<string, unknown> = {};
  security.forEach((s, i) => {
    paths[`/r${i}`] = {
      get: { operationId: `r${i}`, ...(s ? { security: s } : {}), responses: { "200": {} } },
    };
  });
  return {
    openapi: "3.1.0",
    info: { title: "placed" },
    servers: [{ url: "https://api.test" }],
    ...(top ? { security: top } : {}),
    paths,
    components: { securitySchemes: SCHEMES },
  };
}

/** The flow's text, and what the loader makes of it. */
function converted(document: Record<string, unknown>) {
  const { files, summary } = convertOpenApi({ document, source: "api.yaml" });
  const env = (name: string) => name === "BASE_URL" ? "http://127.0.0.1:9" : `${name}-value`;
  const loaded = loadFlow(files[0].text, files[0].path, { env });
  assert.deepEqual(loaded.problems, [], files[0].text);
  return { text: files[0].text, flow: loaded.flow!, summary };
}

Deno.test("one block shared by the steps is written once at flow level; security [] says auth: none", () => {
  const { text, flow, summary } = converted(
    securedDoc([undefined, undefined, [], [{ browser: [] }, {}]], [{ browser: [] }]),
  );
  assert.match(
    text,
    /^name: placed\n# "browser" is oauth2 \(authorizationCode, implicit: .*\): API_TOKEN holds a token got beforehand \(OAuth2 authorizationCode flow: sign in at https:\/\/api\.test\/a, then exchange the code at https:\/\/api\.test\/t\)\nauth:\n {2}bearer:\n {4}token: \$\{ENV\.API_TOKEN\}\nsteps:\n/m,
  );
  assert.equal(flow.auth?.kind, "bearer");
  // The loader gives each step its effective auth: the flow's, or its own none.
  assert.deepEqual(flow.steps.map((s) => s.auth?.kind), ["bearer", "bearer", "none", "bearer"]);
  assert.match(text, /- name: r2\n {4}auth: none\n {4}request:/);
  assert.match(text, /# credentials are optional for this operation\n {2}- name: r3\n {4}request:/);
  assert.equal(text.match(/holds a token got beforehand/g)?.length, 1, "said once, above it");
  assert.deepEqual(summary.env.map((e) => e.name), ["BASE_URL", "API_TOKEN"]);
});

Deno.test("different blocks, or more steps without one, are written per step", () => {
  const mixed = converted(
    securedDoc([[{ machine: ["read"] }], [{ machine: ["write"] }], [{ basic: [] }]]),
  );
  assert.equal(mixed.flow.auth, undefined);
  assert.deepEqual(mixed.flow.steps.map((s) => s.auth?.kind), ["oauth2", "oauth2", "basic"]);
  assert.match(
    mixed.text,
    /- name: r0\n {4}auth:\n {6}oauth2:\n {8}grant_type: client_credentials\n {8}token_url: \$\{ENV\.BASE_URL\}\/oauth\/token\n {8}client_id: \$\{ENV\.CLIENT_ID\}\n {8}client_secret: \$\{ENV\.CLIENT_SECRET\}\n {8}scope: read\n {4}request:/,
  );
  const fewer = converted(securedDoc([[{ jwt: [] }], [], undefined]));
  assert.equal(fewer.flow.auth, undefined);
  assert.deepEqual(fewer.flow.steps.map((s) => s.auth?.kind), ["bearer", undefined, undefined]);
  // Two schemes at once: the request holds both; beside a flow-level block it says auth: none.
  const and = converted(securedDoc([[{ jwt: [] }], [{ jwt: [] }], [{ jwt: [], query: [] }]]));
  assert.equal(and.flow.auth?.kind, "bearer");
  assert.equal(and.flow.steps[2].auth?.kind, "none");
  assert.match(
    and.text,
    /# "jwt" and "query" are required together, which one auth: block cannot send: their credentials are written into the request\n {2}- name: r2\n {4}auth: none\n {4}request:\n {6}method: GET\n {6}url: \$\{ENV\.BASE_URL\}\/r2\n {6}query:\n {8}api_key: \$\{ENV\.API_KEY\}\n {6}headers:\n {8}Authorization: Bearer \$\{ENV\.API_TOKEN\}\n/,
  );
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
  const docs = new Map([500, 4_000].map((n) => [n, generated(n)]));
  const b = await timeConvert(docs.get(4_000)!);
  const again = await timeConvert(docs.get(4_000)!);
  assert.equal(b.out, again.out, "deterministic");
  assert.equal(b.out.split("\n  - name: ").length - 1, 20_000, "a step per operation");
  assert.match(b.out, /url: \$\{ENV\.BASE_URL\}\/r3999\/\$\{steps\.post_r3999\.capture\.id\}/);
  // 8 times the operations: well under 8 × 4 the time (quadratic would be 64 ×).
  await assertLinearAsync("openapi convert", (n) => timeConvert(docs.get(n)!), 500, 8, 4);
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
