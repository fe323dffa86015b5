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

Deno.test(`many checks naming one large document load it once, examples holding $id included ${TIMING}`, async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(bigDocument(3_000)));
    for (let i = 0; i < 80; i++) await Deno.writeTextFile(`${dir}/f${i}.yaml`, flow(i));
    const started = performance.now();
    const valid = await runCli(["validate", dir, "--no-env"]);
    const took = performance.now() - started;
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    assert.match(valid.stdout, /80 flow files checked: no problems\./);
    // Once per check (240 here) took over 20 s; once per document well under 2 s.
    assert.ok(took < 8_000, `validate took ${Math.round(took)} ms`);
  } finally {
    await Deno.remove(dir, { recursive: true });
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
