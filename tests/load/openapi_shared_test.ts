/**
 * An OpenAPI document named by many `openapi:` checks (a suite `convert
 * openapi` wrote: one check per step) is parsed, checked and added to the
 * validator once, not once per check; and a document whose examples hold
 * `"$id"` values (real ones do: Box's) is usable, examples being no schema,
 * while a property named `example` is still validated.
 */
import assert from "node:assert/strict";
import { TIMING } from "../support/timing.ts";
import { runCli } from "../support/cli.ts";

/** A document whose responses name `count` schemas, each example holding the same `$id`. */
function bigDocument(count: number) {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    schemas[`Thing${i}`] = {
      type: "object",
      required: ["id", "example"],
      properties: {
        id: { type: "integer" },
        example: { type: "string" },
        next: { $ref: `#/components/schemas/Thing${(i + 1) % count}` },
        notes: { type: "array", items: { type: "string", maxLength: 200 } },
      },
      example: { id: i, example: "x", meta: { $id: "same-for-all" } },
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: "things", version: "1" },
    paths: {
      "/things/{n}": {
        get: {
          responses: {
            "200": {
              description: "one",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Thing0" } } },
              examples: { a: { value: { $id: "same-for-all" } } },
            },
          },
        },
      },
    },
    components: { schemas },
  };
}

function flow(i: number): string {
  const steps = [0, 1, 2].map((s) =>
    `  - name: s${s}\n    request: {url: "\${ENV.BASE_URL:-http://127.0.0.1:9}/things/${s}"}\n` +
    `    assert: {status: 200, openapi: api.json}\n`
  );
  return `name: flow ${i}\nsteps:\n${steps.join("")}`;
}

/** How long `validate` takes on `dir`, the faster of two tries (the one other work disturbed least). */
async function validateMs(dir: string, files: number): Promise<number> {
  let best = Infinity;
  for (let round = 0; round < 2; round++) {
    const started = performance.now();
    const valid = await runCli(["validate", dir, "--no-env"]);
    best = Math.min(best, performance.now() - started);
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    const checked = files === 1 ? "1 flow file checked" : `${files} flow files checked`;
    assert.match(valid.stdout, new RegExp(`${checked}: no problems\\.`));
  }
  return best;
}

Deno.test(`many checks naming one large document load it once, examples holding $id included ${TIMING}`, async () => {
  const one = await Deno.makeTempDir();
  const many = await Deno.makeTempDir();
  try {
    const document = JSON.stringify(bigDocument(3_000));
    await Deno.writeTextFile(`${one}/api.json`, document);
    await Deno.writeTextFile(`${one}/f0.yaml`, flow(0));
    await Deno.writeTextFile(`${many}/api.json`, document);
    for (let i = 0; i < 80; i++) await Deno.writeTextFile(`${many}/f${i}.yaml`, flow(i));
    // A ratio of two runs moments apart, so a busy machine slows both: loading the document once
    // per check (240 here against 3) made 80 files cost some 40 times one file; once per
    // document, 80 files cost under twice one file (start-up and the document dominate).
    const oneMs = await validateMs(one, 1);
    const manyMs = await validateMs(many, 80);
    assert.ok(
      manyMs < oneMs * 6,
      `80 files took ${Math.round(manyMs)} ms, one file ${Math.round(oneMs)} ms`,
    );
  } finally {
    await Deno.remove(one, { recursive: true });
    await Deno.remove(many, { recursive: true });
  }
});

Deno.test("a property named example is still validated once examples are left out", async () => {
  const dir = await Deno.makeTempDir();
  let body: unknown = { id: 1, example: "x" };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json(body),
  );
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(bigDocument(2)));
    await Deno.writeTextFile(`${dir}/f.yaml`, flow(0));
    const env = { BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}` };
    const passed = await runCli(["run", `${dir}/f.yaml`], { env });
    assert.equal(passed.code, 0, passed.stdout + passed.stderr);
    body = { id: 1 };
    const failed = await runCli(["run", `${dir}/f.yaml`], { env });
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.match(failed.stdout, /must have required property 'example'/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
