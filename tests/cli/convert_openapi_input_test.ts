/**
 * `flowrun convert openapi` on bad input: each is one clear sentence with
 * its code and a hint, exit 2, no stack trace, nothing written — a file
 * that is not JSON or YAML, a Swagger 1.2 document (2.0 is upgraded), one that is not
 * OpenAPI 3, one without paths; and `$ref`s to a URL, out of the
 * document's folder, to a missing file or pointer, through too many files.
 * A document using every body, parameter and credential kind converts into
 * flows `flowrun validate` passes, placeholders written and named.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

type Files = Record<string, string>;

async function convertIn(files: Files, main = "api.yaml") {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/doc/schemas`, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  const run = await runCli(["convert", "openapi", `doc/${main}`, "-o", "out"], { cwd: dir });
  const wrote = await Deno.stat(`${dir}/out`).then(() => true, () => false);
  return { ...run, dir, wrote };
}

const OK_HEAD = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n";
const withSchema = (ref: string) =>
  `${OK_HEAD}paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n` +
  `          content:\n            application/json:\n              schema: {$ref: '${ref}'}\n`;

const CASES: [string, Files, RegExp][] = [
  [
    "not JSON",
    { "doc/api.json": "{nope" },
    /error\[bad-openapi\]: Cannot read "doc\/api\.json" as an OpenAPI document: it is not JSON \(/,
  ],
  [
    "not YAML",
    { "doc/api.yaml": "a: [1\n" },
    /error\[bad-openapi\]: Cannot read "doc\/api\.yaml" as an OpenAPI document: it is not YAML or JSON \(/,
  ],
  [
    "a list",
    { "doc/api.yaml": "- 1\n" },
    /error\[bad-openapi\]: "doc\/api\.yaml" is not an OpenAPI document: it holds a list, not an object\./,
  ],
  [
    "Swagger 1.2",
    { "doc/api.yaml": "swagger: '1.2'\ninfo: {title: t}\npaths: {/a: {get: {}}}\n" },
    /error\[bad-openapi\]: "doc\/api\.yaml" is a Swagger 1\.2 document; convert openapi reads Swagger 2\.0, OpenAPI 3\.0, 3\.1 and 3\.2\.\n {2}hint: Convert it to OpenAPI 3 first \(npx swagger2openapi/,
  ],
  [
    "not OpenAPI 3",
    { "doc/api.yaml": "openapi: 4.0.0\npaths: {}\n" },
    /error\[bad-openapi\]: "doc\/api\.yaml" is not an OpenAPI 3\.0, 3\.1 or 3\.2 document: its "openapi" field is "4\.0\.0"\./,
  ],
  [
    "no paths",
    { "doc/api.yaml": `${OK_HEAD}webhooks: {}\n` },
    /error\[bad-openapi\]: "doc\/api\.yaml" has no "paths": there is nothing to convert\./,
  ],
  [
    "no operations",
    { "doc/api.yaml": `${OK_HEAD}paths: {/a: {summary: x}}\n` },
    /error\[bad-openapi\]: "doc\/api\.yaml" has no operations under "paths"/,
  ],
  [
    "a URL",
    { "doc/api.yaml": withSchema("https://example.com/pet.yaml") },
    /error\[bad-openapi-ref\]: The \$ref "https:\/\/example\.com\/pet\.yaml" at doc\/api\.yaml#\/paths\/~1a\/get\/responses\/200\/content\/application~1json\/schema is a URL; convert openapi reads no network\./,
  ],
  [
    "outside the folder",
    { "doc/api.yaml": withSchema("../secret.yaml"), "secret.yaml": "type: string\n" },
    /error\[bad-openapi-ref\]: The \$ref "\.\.\/secret\.yaml" at doc\/api\.yaml#\/paths\/.* names a file outside the document's folder /,
  ],
  [
    "a missing file",
    { "doc/api.yaml": withSchema("schemas/pet.yaml") },
    /error\[bad-openapi-ref\]: Cannot read "doc\/schemas\/pet\.yaml", which the \$ref "schemas\/pet\.yaml" at doc\/api\.yaml#\/paths\/~1a\/get\/responses\/200\/content\/application~1json\/schema names: no such file\./,
  ],
  [
    "a missing pointer",
    {
      "doc/api.yaml": withSchema("schemas/pet.yaml#/Pet"),
      "doc/schemas/pet.yaml": "Dog: {type: object}\n",
    },
    /error\[bad-openapi-ref\]: The \$ref "schemas\/pet\.yaml#\/Pet" at doc\/api\.yaml#\/paths\/.* points to nothing: doc\/schemas\/pet\.yaml has no "\/Pet"\./,
  ],
  [
    "a missing local pointer",
    { "doc/api.yaml": withSchema("#/components/schemas/Pet") },
    /error\[bad-openapi-ref\]: The \$ref "#\/components\/schemas\/Pet" at doc\/api\.yaml#\/paths\/.* points to nothing: doc\/api\.yaml has no "\/components\/schemas\/Pet"\./,
  ],
  [
    "a bad referenced file",
    { "doc/api.yaml": withSchema("schemas/pet.yaml"), "doc/schemas/pet.yaml": "a: [1\n" },
    /error\[bad-openapi-ref\]: Cannot read "doc\/schemas\/pet\.yaml", which the \$ref .* names: it is not YAML or JSON/,
  ],
];

for (const [what, files, expected] of CASES) {
  Deno.test(`convert openapi refuses ${what} in one sentence, exit 2`, async () => {
    const run = await convertIn(files, Object.keys(files)[0].slice(4));
    try {
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, expected);
      assert.equal(run.stderr.match(/error\[/g)?.length, 1, run.stderr);
      assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
      assert.equal(run.wrote, false, "nothing written");
    } finally {
      await Deno.remove(run.dir, { recursive: true });
    }
  });
}

Deno.test("convert openapi follows no link out of the document's folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/doc`);
    await Deno.writeTextFile(`${dir}/secret.yaml`, "type: string\n");
    await Deno.symlink(`${dir}/secret.yaml`, `${dir}/doc/pet.yaml`);
    await Deno.writeTextFile(`${dir}/doc/api.yaml`, withSchema("pet.yaml"));
    const run = await runCli(["convert", "openapi", "doc/api.yaml", "-o", "out"], { cwd: dir });
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /error\[bad-openapi-ref\]: Cannot read "doc\/pet\.yaml", which the \$ref "pet\.yaml" at doc\/api\.yaml#\/paths\/.* names: it is a link to a file outside the document's folder\./,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert openapi bounds the chain of files a document's $refs read", async () => {
  const chain: Files = { "doc/api.yaml": withSchema("schemas/f1.yaml") };
  for (let i = 1; i <= 20; i++) {
    chain[`doc/schemas/f${i}.yaml`] = `properties: {next: {$ref: 'f${i + 1}.yaml'}}\n`;
  }
  const long = await convertIn(chain);
  try {
    assert.equal(long.code, 2, long.stderr);
    assert.match(
      long.stderr,
      /error\[bad-openapi-ref\]: The \$ref "f16\.yaml" at doc\/schemas\/f15\.yaml#\/properties\/next would read more than a chain of 16 files, the limit of convert openapi\./,
    );
  } finally {
    await Deno.remove(long.dir, { recursive: true });
  }
});

Deno.test("a document kept as a file per operation (DigitalOcean's layout) converts whole", async () => {
  // Hundreds of files, each operation one of them and written as a $ref (which OpenAPI has
  // not, but real documents and bundlers do), each naming a shared response file.
  const files: Files = {
    "doc/api.yaml": `${OK_HEAD}paths:\n` +
      Array.from({ length: 300 }, (_, i) => `  /r${i}:\n    get: {$ref: 'ops/r${i}.yaml'}\n`).join(
        "",
      ),
    "doc/schemas/ok.yaml":
      "description: ok\ncontent: {application/json: {schema: {type: object}}}\n",
  };
  for (let i = 0; i < 300; i++) {
    files[`doc/ops/r${i}.yaml`] = `operationId: get_r${i}\ntags: [${i % 2 ? "Odd" : "Even"}]\n` +
      `responses: {'200': {$ref: '../schemas/ok.yaml'}}\n`;
  }
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/doc/ops`, { recursive: true });
  await Deno.mkdir(`${dir}/doc/schemas`, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  try {
    const run = await runCli(["convert", "openapi", "doc/api.yaml", "-o", "out"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /300 operations into 2 flows/);
    assert.match(run.stderr, /even\.yaml: 150 steps \(tag "Even"\)/);
    const even = await Deno.readTextFile(`${dir}/out/even.yaml`);
    assert.match(even, /- name: get_r0\n/);
    assert.match(even, /openapi: openapi\.bundled\.json/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const KITCHEN = `openapi: 3.1.0
info: {title: Kitchen Sink, version: '1'}
servers: [{url: 'https://{host}/base/', variables: {host: {default: api.example}}}]
security: [{key: []}, {}]
paths:
  /items/{itemId}/photo:
    post:
      tags: [items]
      parameters:
        - {name: itemId, in: path, required: true, schema: {type: integer, minimum: 10}}
        - {name: tags, in: query, required: true, schema: {type: array, items: {type: string, enum: [a, b]}}}
        - {name: filter, in: query, required: true, style: deepObject, schema: {type: object, required: [size], properties: {size: {type: integer}}}}
        - {name: session, in: cookie, required: true, example: abc}
        - {name: X-Trace, in: header, required: true, schema: {type: string, format: uuid}}
        - {name: Accept, in: header, required: true, schema: {type: string}}
        - {name: page, in: query, schema: {type: integer}}
      requestBody:
        content:
          multipart/form-data:
            schema:
              type: object
              required: [photo, caption]
              properties: {photo: {type: string, format: binary}, caption: {type: string, maxLength: 3}}
      responses: {'201': {description: ok}}
  /notes:
    put:
      tags: [items]
      security: [{basic: []}]
      requestBody: {content: {text/plain: {schema: {type: string}, example: 'a note with \${braces}'}}}
      responses: {'204': {description: ok}}
    post:
      tags: [files]
      security: [{oauth: [write]}, {query: []}]
      requestBody: {content: {application/octet-stream: {schema: {type: string, format: binary}}}}
      responses: {'2XX': {description: ok}}
  /search:
    get:
      security: [{query: [], cookie: []}]
      parameters: [{name: q, in: query, required: true, schema: {type: string, minLength: 8}}]
      responses: {default: {description: whatever}}
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
    basic: {type: http, scheme: basic}
    oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: /token, scopes: {write: w}}}}
    query: {type: apiKey, in: query, name: api_key}
    cookie: {type: apiKey, in: cookie, name: sid}
`;

Deno.test("every body, parameter and credential kind converts into flows validate passes", async () => {
  const run = await convertIn({ "doc/api.yaml": KITCHEN });
  try {
    assert.equal(run.code, 0, run.stderr);
    const items = await Deno.readTextFile(`${run.dir}/out/items.yaml`);
    assert.match(items, /url: \$\{ENV\.BASE_URL\}\/base\/items\/\$\{vars\.itemId\}\/photo/);
    assert.match(
      items,
      /vars:\n {2}# fill in: path parameter itemId of POST \/items\/\{itemId\}\/photo: the itemId of one that exists\n {2}itemId: 10\n/,
    );
    assert.match(items, /tags: \[a\]\n {8}"filter\[size\]": 1\n/);
    assert.match(
      items,
      /- name: post_items_item_id_photo\n {4}auth:\n {6}api_key:\n {8}name: X-Key\n {8}value: \$\{ENV\.API_KEY\}\n {8}in: header\n/,
    );
    assert.doesNotMatch(items, /Accept:/, "the spec ignores Accept parameters");
    assert.match(items, /cookies:\n {8}session: abc\n/);
    assert.match(
      items,
      /multipart:\n {8}photo:\n {10}file: files\/post_items_item_id_photo_photo\.bin\n {8}caption: str\n/,
    );
    assert.match(items, /# credentials are optional for this operation\n/);
    assert.match(items, /# optional, left out: query page\n/);
    assert.match(
      items,
      /- name: put_notes\n {4}auth:\n {6}basic:\n {8}username: \$\{ENV\.API_USERNAME\}\n {8}password: \$\{ENV\.API_PASSWORD\}\n/,
      "two blocks in one flow: each step its own",
    );
    assert.match(items, /body: a note with \$\$\{braces\}\n/);
    const files = await Deno.readTextFile(`${run.dir}/out/files.yaml`);
    assert.match(
      files,
      /^auth:\n {2}oauth2:\n {4}grant_type: client_credentials\n {4}token_url: \$\{ENV\.BASE_URL\}\/token\n {4}client_id: \$\{ENV\.CLIENT_ID\}\n {4}client_secret: \$\{ENV\.CLIENT_SECRET\}\n {4}scope: write\n/m,
      "the relative tokenUrl resolved against https://api.example/base/, under BASE_URL",
    );
    assert.match(files, /body_file: files\/post_notes\.bin\n/);
    assert.match(
      files,
      /status:\n {8}gte: 200\n {8}lt: 300\n/,
      "2XX is any 2xx: bounds, not four codes",
    );
    const untagged = await Deno.readTextFile(`${run.dir}/out/kitchen_sink.yaml`);
    assert.match(
      untagged,
      /query:\n {8}q: stringxx\n {8}api_key: \$\{ENV\.QUERY_API_KEY\}\n {6}cookies:\n {8}sid: \$\{ENV\.COOKIE_API_KEY\}\n/,
    );
    assert.match(untagged, /# "query" and "cookie" are required together, which one auth: block/);
    assert.match(untagged, /# the document names no 2xx response: the status is not checked/);
    for (
      const name of [
        "BASE_URL",
        "API_KEY",
        "API_USERNAME",
        "API_PASSWORD",
        "CLIENT_ID",
        "CLIENT_SECRET",
        "QUERY_API_KEY",
        "COOKIE_API_KEY",
      ]
    ) {
      assert.match(run.stderr, new RegExp(`\\n {2}${name}: `));
    }
    assert.match(
      run.stderr,
      /Fill in 3 placeholders:\n {2}items\.yaml: vars\.itemId .*\n {2}files\/post_items_item_id_photo_photo\.bin: the file step post_items_item_id_photo uploads as "photo"\n {2}files\/post_notes\.bin: the application\/octet-stream body of step post_notes\n/,
    );
    assert.match(
      await Deno.readTextFile(`${run.dir}/out/files/post_notes.bin`),
      /^placeholder: replace with/,
    );
    const valid = await runCli(["validate", "out", "--no-env"], { cwd: run.dir });
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
  } finally {
    await Deno.remove(run.dir, { recursive: true });
  }
});

Deno.test("convert openapi --help, and a missing document or -o are usage errors", async () => {
  const help = await runCli(["convert", "openapi", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: flowrun convert openapi DOC -o DIR\n/);
  assert.match(help.stdout, /-o, --output DIR {6}the folder the flows are written to \(required\)/);
  const none = await runCli(["convert", "openapi", "-o", "x"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /error\[no-paths\]: Expected an OpenAPI document\./);
  const noOut = await runCli(["convert", "openapi", "api.yaml"]);
  assert.equal(noOut.code, 2);
  assert.match(noOut.stderr, /Missing the output folder \(-o DIR\)\./);
});
