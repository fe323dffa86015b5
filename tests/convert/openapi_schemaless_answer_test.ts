/**
 * A documented response the document gives no schema (examples only, no
 * content, a `$ref`'d response without one, a media type range) constrains
 * nothing: an `openapi:` check of a JSON answer with its status passes, where
 * it failed with "can't resolve reference …/schema". A schema that is there
 * still fails a wrong answer. The converted suite, then hand-written flows,
 * run through the CLI against a server started here.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const EXAMPLES = {
  description: "OK",
  content: {
    "application/json": { example: { a: 1 }, examples: { one: { value: { a: 1 } } } },
  },
};

const ok = (response: unknown) => ({ get: { responses: { "200": response } } });

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Shapes", version: "1" },
  servers: [{ url: "http://shapes.test" }],
  paths: {
    "/examples": ok(EXAMPLES),
    "/bare": ok({ description: "OK" }),
    "/empty": ok({ description: "OK", content: { "application/json": {} } }),
    "/shared": ok({ $ref: "#/components/responses/Shared" }),
    "/application": ok({ description: "OK", content: { "application/*": {} } }),
    "/anything": ok({ description: "OK", content: { "*/*": {} } }),
    "/ranged": ok({
      description: "OK",
      content: { "*/*": { schema: { type: "object", required: ["id"] } } },
    }),
    "/typed": ok({
      description: "OK",
      content: { "application/json": { schema: { type: "object", required: ["id"] } } },
    }),
  },
  components: { responses: { Shared: EXAMPLES } },
};

const SCHEMALESS = ["examples", "bare", "empty", "shared", "application", "anything"];

/** Answers `{"a": 1}` to every request: right for a schema-less response, wrong for a typed one. */
function startServer() {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ a: 1 }),
  );
  const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return { base, close: () => server.shutdown() };
}

function flow(paths: string[]): string {
  const steps = paths.map((p) =>
    `  - name: ${p}\n    request:\n      method: GET\n      url: \${ENV.BASE_URL}/${p}\n` +
    `    assert:\n      status: 200\n      openapi: api.json\n`
  );
  return `name: hand\nsteps:\n${steps.join("")}`;
}

Deno.test("a response with no schema takes any JSON answer with its status; a schema still refuses a wrong one", async () => {
  const dir = await Deno.makeTempDir();
  const server = startServer();
  const env = { BASE_URL: server.base };
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(DOCUMENT));
    const only = { ...DOCUMENT, paths: { "/examples": DOCUMENT.paths["/examples"] } };
    await Deno.writeTextFile(`${dir}/one.json`, JSON.stringify(only));
    const converted = await runCli(["convert", "openapi", `${dir}/one.json`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    const suite = await runCli(["run", `${dir}/out`, "--openapi", `${dir}/one.json`], { env });
    assert.equal(suite.code, 0, suite.stdout + suite.stderr);

    await Deno.writeTextFile(`${dir}/hand.yaml`, flow(SCHEMALESS));
    const hand = await runCli(["run", `${dir}/hand.yaml`], { env });
    assert.equal(hand.code, 0, hand.stdout + hand.stderr);
    assert.doesNotMatch(hand.stdout, /resolve reference/);

    for (const typed of ["typed", "ranged"]) {
      await Deno.writeTextFile(`${dir}/${typed}.yaml`, flow([typed]));
      const wrong = await runCli(["run", `${dir}/${typed}.yaml`], { env });
      assert.equal(wrong.code, 1, wrong.stdout + wrong.stderr);
      assert.match(wrong.stdout, /must have required property 'id'/, wrong.stdout);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
