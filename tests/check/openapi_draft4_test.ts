/**
 * `openapi:` checks read an OpenAPI 3.0 document's draft-4 forms as 3.0 means
 * them: `exclusiveMinimum: true` / `exclusiveMaximum: true` beside `minimum` /
 * `maximum` (3.1 writes the bound itself; svix's 3.0 document writes the
 * boolean, and every check of it failed with "exclusiveMinimum value must be
 * number"), `nullable`, and `x-nullable` (Swagger 2.0's, which the 2.0
 * upgrade keeps). Run through the CLI against a server started here, a step
 * per body, so every rule is shown both admitting and refusing.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const SCHEMA = {
  type: "object",
  properties: {
    above: { type: "integer", minimum: 0, exclusiveMinimum: true },
    below: { type: "number", maximum: 10, exclusiveMaximum: true },
    inclusive: { type: "integer", minimum: 1, maximum: 3, exclusiveMinimum: false },
    maybe: { type: "string", nullable: true },
    legacy: { type: "string", "x-nullable": true },
    plain: { type: "string" },
  },
};

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "draft 4", version: "1" },
  paths: {
    "/thing/{n}": {
      get: {
        responses: {
          "200": { description: "one", content: { "application/json": { schema: SCHEMA } } },
        },
      },
    },
  },
};

/** Each body, and the violation the check must report (none: it passes). */
const CASES: [Record<string, unknown>, RegExp | undefined][] = [
  [{ above: 1, below: 9.5, inclusive: 1, maybe: null, legacy: null }, undefined],
  [{ above: 0 }, /\/above must be > 0/],
  [{ below: 10 }, /\/below must be < 10/],
  [{ inclusive: 4 }, /\/inclusive must be <= 3/],
  [{ inclusive: 0 }, /\/inclusive must be >= 1/],
  [{ plain: null }, /\/plain must be string/],
  [{ legacy: 7 }, /\/legacy must be string,null/],
];

/** A step per case, `s<n>` asking for `/thing/<n>`. */
const FLOW = `name: draft4\nsteps:\n${
  CASES.map((_, n) =>
    `  - name: s${n}\n    request: {url: "\${ENV.BASE_URL}/thing/${n}"}\n` +
    `    assert: {status: 200, openapi: api.json}\n    always: true\n`
  ).join("")
}`;

Deno.test("3.0's boolean exclusive bounds, nullable and x-nullable are read as 3.0 means them", async () => {
  const dir = await Deno.makeTempDir();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => Response.json(CASES[Number(new URL(req.url).pathname.split("/")[2])][0]),
  );
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(DOCUMENT));
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    const env = { BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}` };
    const run = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`], { env });
    const said = run.stdout + run.stderr;
    assert.doesNotMatch(said, /value must be/, said);
    assert.equal(run.code, 1, said);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps: { name: string; status: string; assertions: { message: string }[] }[] =
      report.flows[0].steps;
    assert.equal(steps.length, CASES.length);
    for (const [n, [body, violation]] of CASES.entries()) {
      const step = steps.find((s) => s.name === `s${n}`)!;
      const messages = step.assertions.map((a) => a.message).join("\n");
      assert.equal(
        step.status,
        violation ? "failed" : "passed",
        `${JSON.stringify(body)}: ${messages}`,
      );
      if (violation) assert.match(messages, violation, JSON.stringify(body));
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
