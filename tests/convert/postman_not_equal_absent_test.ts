/**
 * `pm.expect(pm.response.headers.get("X-Data-Source")).to.not.equal("cache")`: in JavaScript a
 * header that is not there is `undefined`, which is not "cache", so Newman passes it. The
 * translation `notEquals` failed on a value the path does not select ("nothing matched"), as a
 * course's own collection found on its first, uncached read. Now a negated equality holds when
 * the value is not there, and still fails when it is there and equal. A small server answers
 * without the header, then with it.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman not.equal: a value that is not there is not equal, as chai says", async () => {
  let reads = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    reads++;
    const headers: Record<string, string> = reads > 1 ? { "x-data-source": "cache" } : {};
    return Response.json({ likes: 1 }, { headers });
  });
  const item = (name: string) => ({
    name,
    event: [{
      listen: "test",
      script: {
        exec: [
          "pm.test('not from the cache', () => {",
          "  pm.expect(pm.response.headers.get('X-Data-Source')).to.not.equal('cache');",
          "  pm.expect(pm.response.json().missing).to.not.equal(2);",
          "});",
        ],
      },
    }],
    request: { method: "GET", url: `http://127.0.0.1:${server.addr.port}/likes`, header: [] },
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Absent", schema: V21 },
      item: [item("First read"), item("Cached read")],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps as { status: string }[];
    assert.deepEqual(steps.map((s) => s.status), ["passed", "failed"], flow.text);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
