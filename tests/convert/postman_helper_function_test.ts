/**
 * `function idFor(code) { var c = coupons.find(function (x) { return x.code === code; }); return
 * c ? c.id : null; }`, then `pm.environment.set('save10Id', idFor('SAVE10'))`: a helper function a
 * test script declares and calls to pick ids out of a list, as a course's coupon suite does for six
 * coupons. A call to a function the script declares was not evaluated, so every id stayed unset
 * and the requests sent `{{save10Id}}` as written. A function whose body declares values and
 * returns one is now evaluated with its arguments (a missing element's `null` aside, which a flow
 * reports as a capture that finds nothing); a server the test starts checks the ids sent.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman helper function: an id a declared function picks from the answer is sent", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(`${req.method} ${new URL(req.url).pathname}`);
    return Response.json([{ id: 7, code: "BIGBUY" }, { id: 3, code: "SAVE10" }]);
  });
  const dir = await Deno.makeTempDir();
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Coupons", schema: V21 },
      item: [
        {
          name: "Fetch Coupon IDs",
          event: [{
            listen: "test",
            script: {
              exec: [
                "var coupons = pm.response.json();",
                "function idFor(code) { var c = coupons.find(function (x) { return x.code === code; }); return c ? c.id : null; }",
                "pm.environment.set('save10Id', idFor('SAVE10'));",
                "pm.environment.set('bigbuyId', idFor('BIGBUY'));",
              ],
            },
          }],
          request: { method: "GET", url: `${base}/coupons` },
        },
        {
          name: "Delete SAVE10",
          request: { method: "DELETE", url: `${base}/coupons/{{save10Id}}` },
        },
        {
          name: "Delete BIGBUY",
          request: { method: "DELETE", url: `${base}/coupons/{{bigbuyId}}` },
        },
      ],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /untranslated[,:]/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(seen, ["GET /coupons", "DELETE /coupons/3", "DELETE /coupons/7"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
