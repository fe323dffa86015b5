/**
 * `convert openapi` on stored documents (and a Swagger 2.0 one written
 * here, upgraded first as the CLI does) mutated as real documents are
 * broken (a key missing, null, a wrong type, an empty array or object, a
 * duplicated entry, a `$ref` to nothing, to itself or to a missing file, a
 * huge, unicode or control-character string, a number where a string was,
 * a truncated file): it either writes flows `flowrun validate` passes, or
 * throws the usage error that names what is wrong. Anything else (a
 * TypeError, a RangeError) fails with the seed and the mutations. Seeded and
 * bounded: work is counted, never timed.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import {
  bundleDocument,
  checkDocument,
  convertOpenApi,
  upgradeSwagger2,
} from "../../lib/convert/openapi/mod.ts";
import { prepareGuard } from "../../lib/_util/time_guard.ts";
import { root } from "../support/cli.ts";
import { convertSeeds } from "../support/fuzz_seeds.ts";
import { validateSuites } from "../support/validate_suites.ts";
import {
  type JsonPath,
  mutateJson,
  type Mutation,
  places,
  shown,
  truncated,
} from "../support/mutate.ts";

const DOCUMENTS = [
  "tests/fixtures/openapi/written/bearer-roles.yaml",
  "tests/fixtures/openapi/inferred/blog.yaml",
  "tests/fixtures/openapi/inferred/blog-3.0.yaml",
  "tests/fixtures/openapi/inferred/shelter.yaml",
  "tests/fixtures/schema/api/openapi.yaml",
];
/** A Swagger 2.0 document written here: the upgrade to OpenAPI 3 runs first. */
const SWAGGER2 = {
  swagger: "2.0",
  info: { title: "Shelf", version: "1" },
  host: "shelf.test",
  basePath: "/v1",
  paths: {
    "/books": {
      get: {
        responses: {
          "200": {
            description: "ok",
            schema: { type: "array", items: { $ref: "#/definitions/Book" } },
          },
        },
      },
      post: {
        parameters: [{
          in: "body",
          name: "book",
          required: true,
          schema: { $ref: "#/definitions/Book" },
        }],
        responses: { "201": { description: "made", schema: { $ref: "#/definitions/Book" } } },
      },
    },
    "/books/{id}": {
      parameters: [{ name: "id", in: "path", required: true, type: "string" }],
      get: { responses: { "200": { description: "ok" } } },
      delete: { responses: { "204": { description: "gone" } } },
    },
    "/upload": {
      post: {
        consumes: ["multipart/form-data"],
        parameters: [{ in: "formData", name: "file", type: "file" }],
        responses: { "200": { description: "ok" } },
      },
    },
  },
  definitions: {
    Book: {
      type: "object",
      required: ["title"],
      properties: { id: { type: "string" }, title: { type: "string" } },
    },
  },
  securityDefinitions: { key: { type: "apiKey", in: "header", name: "X-Key" } },
  security: [{ key: [] }],
};
const SEEDS = Number(Deno.env.get("FUZZ_SEEDS") ?? 100);
const encode = (text: string) => new TextEncoder().encode(text);

/** A `$ref`'s breakages: to nothing, to the place itself, to a file that is not there. */
function refMutation(root: unknown, next: () => number) {
  return (parent: Record<string | number, unknown>, key: string | number) => {
    if (parent[key] === null || typeof parent[key] !== "object") return undefined;
    const self = places(root).find((p: JsonPath) =>
      p.at(-1) === key && walk(root, p) === parent[key]
    );
    const targets = [
      "#/components/schemas/Nowhere",
      `#/${self ? shown(self).replace(/[.[\]]+/g, "/").replace(/\/$/, "") : ""}`,
      "missing.yaml#/Thing",
      "#/paths",
      "#",
    ];
    const target = targets[Math.floor(next() * targets.length)];
    parent[key] = { $ref: target };
    return `a $ref to ${JSON.stringify(target)}`;
  };
}

function walk(root: unknown, path: JsonPath): unknown {
  let node = root as Record<string | number, unknown>;
  for (const k of path) node = node[k] as Record<string | number, unknown>;
  return node;
}

/** The document as text, mutated 1 to 3 times, sometimes cut short. */
function mutant(text: string, next: () => number): { text: string; did: Mutation[] } {
  const doc = parse(text);
  const did: Mutation[] = [];
  for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
    did.push(mutateJson(doc, next, refMutation(doc, next)));
  }
  const out = JSON.stringify(doc, null, 1);
  if (next() < 0.1) {
    const [cut, what] = truncated(out, next);
    return { text: cut, did: [...did, what] };
  }
  return { text: out, did };
}

/** The CLI's steps, in process: bundle, check, upgrade a Swagger 2.0 document, convert. */
async function convert(text: string) {
  const read = (path: string) =>
    Promise.resolve(path === "/doc/api.json" ? encode(text) : { why: "no such file" });
  const bundled = await bundleDocument(
    "/doc/api.json",
    read,
    (d) => checkDocument(d, "api.json"),
    (f) => f,
  );
  const document = bundled.document.swagger === "2.0"
    ? upgradeSwagger2(bundled.document)
    : bundled.document;
  return { document, ...convertOpenApi({ document, source: "api.json", documentRef: "api.json" }) };
}

Deno.test("openapi fuzz: mutated documents convert into flows that load, or end with a usage error", async () => {
  await prepareGuard();
  const texts = await Promise.all(DOCUMENTS.map((f) => Deno.readTextFile(`${root}${f}`)));
  texts.push(JSON.stringify(SWAGGER2));
  const names = [...DOCUMENTS, "a Swagger 2.0 document"];
  const { dir, written, refused, failures, named } = await convertSeeds(SEEDS, (seed, next) => {
    const source = Math.floor(next() * texts.length);
    const { text, did } = mutant(texts[source], next);
    return {
      name: `seed ${seed} (${names[source]}: ${did.map((d) => d.what).join("; ")})`,
      convert: async () => {
        const result = await convert(text);
        // The CLI writes the document beside the flows when it is bundled or outside their root.
        return [{ path: "api.json", text: JSON.stringify(result.document) }, ...result.files];
      },
    };
  });
  try {
    assert.deepEqual(failures, [], failures.join("\n\n"));
    assert.ok(written > SEEDS / 3, `${written} flows written, ${refused} refused`);
    // Each suite as its summary's command runs it (with its one sign-in's setup flow).
    const seedDirs = [...Deno.readDirSync(dir)].map((e) => `${dir}/${e.name}`);
    const checks = await validateSuites(seedDirs, ["--no-env"]);
    const check = {
      code: Math.max(0, ...checks.map((c) => c.code)),
      stdout: checks.map((c) => c.stdout).join(""),
      stderr: checks.map((c) => c.stderr).join(""),
    };
    const seeds = [...`${check.stdout}${check.stderr}`.matchAll(/\/(\d+)\/[^/\s]+\.yaml/g)];
    const which = [...new Set(seeds.map((m) => named.get(Number(m[1]))))].join("\n");
    assert.equal(check.code, 0, `${check.stdout}${check.stderr}\n${which}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
