/**
 * `pm.expect(pm.response).to.have.status(400)`: chai-postman's words on the response given to
 * `pm.expect`, as a course's own collection writes every status check. It was left a comment,
 * so no step checked its status. Now it is `pm.response.to.have.status(400)`; a small server
 * answers 400, and the translated check passes there and fails on a 201.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman expect(pm.response): its status words are checks on the response, as Newman makes them", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => Response.json({ status: "fail" }, { status: req.url.endsWith("/bad") ? 400 : 201 }),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir();
  const item = (name: string, path: string) => ({
    name,
    event: [{
      listen: "test",
      script: {
        exec: [
          "pm.test('it should response 400 status code', () => {",
          "    pm.expect(pm.response).to.have.status(400);",
          "});",
        ],
      },
    }],
    request: { method: "POST", url: `${base}/${path}`, header: [] },
  });
  try {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Expect", schema: V21 },
      item: [item("Bad", "bad"), item("Good", "good")],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps as { status: string }[];
    assert.deepEqual(steps.map((s) => s.status), ["passed", "failed"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
