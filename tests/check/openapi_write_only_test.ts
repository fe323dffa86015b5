/**
 * `openapi:` checks read a `writeOnly` property's `required` as OpenAPI 3.0
 * says ("the required will take effect on the request only"; JSON Schema's
 * `writeOnly` means the value is never present when retrieved): Django REST
 * framework's generator writes a sign-up's serializer, its `password`
 * `write_only`, as one schema for the request and the answer, `password`
 * required, and every sign-up's answer failed the check with "must have
 * required property 'password'". A property not `writeOnly` stays
 * required. Run through the CLI against a server started here.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const USER = {
  type: "object",
  properties: {
    id: { type: "integer", readOnly: true },
    username: { type: "string" },
    password: { type: "string", writeOnly: true },
  },
  required: ["username", "password"],
};

const DOCUMENT = {
  openapi: "3.0.2",
  info: { title: "", version: "" },
  paths: {
    "/users/{n}/": {
      get: {
        responses: {
          "200": { description: "", content: { "application/json": { schema: USER } } },
        },
      },
    },
  },
};

/** What the server answers for `/users/<n>/`. */
const BODIES = [{ id: 1, username: "ann" }, { id: 2 }];

const FLOW = `name: write-only\nsteps:\n${
  BODIES.map((_, n) =>
    `  - name: s${n}\n    request: {url: "\${ENV.BASE_URL}/users/${n}/"}\n` +
    `    assert: {status: 200, openapi: api.json}\n    always: true\n`
  ).join("")
}`;

Deno.test("a writeOnly property's required is the request's: an answer without it passes, one without another fails", async () => {
  const dir = await Deno.makeTempDir();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => Response.json(BODIES[Number(new URL(req.url).pathname.split("/")[2])]),
  );
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(DOCUMENT));
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    const env = { BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}` };
    const run = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`], { env });
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps: { name: string; status: string; assertions: { message: string }[] }[] =
      report.flows[0].steps;
    const said = (name: string) =>
      steps.find((s) => s.name === name)!.assertions.map((a) => a.message).join("\n");
    assert.doesNotMatch(said("s0"), /password/, run.stdout);
    assert.equal(steps.find((s) => s.name === "s0")!.status, "passed", said("s0"));
    assert.match(said("s1"), /must have required property 'username'/);
    assert.doesNotMatch(said("s1"), /password/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
