/**
 * `convert har --verify` on a value that a listing held at one position
 * when recorded and at another live: Strapi 5's admin lists its
 * permissions (`data[26].subject` was `api::category.category`) in an
 * order that differs between instances. Verify read the live value at
 * the recorded position, called it changed, and sent another content
 * type's name (400, then every step after the article's create failed).
 * A value found by its position in a list is no longer proactively
 * replaced: the step is sent as converted first, and the listing's live
 * value is tried only when that fails.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:4242";
const TYPES = ["app::author", "app::category", "app::tag"];

function recording(): string {
  return harOf([
    { url: `${RECORDED}/admin/permissions`, json: { data: TYPES.map((subject) => ({ subject })) } },
    {
      url: `${RECORDED}/content-types/app::category/configuration`,
      json: { data: { settings: { pageSize: 10 } } },
    },
  ]);
}

/** A server whose listing comes in another order than recorded; only categories have settings. */
function serve() {
  const order = [TYPES[2], TYPES[0], TYPES[1]];
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    if (path === "/admin/permissions") {
      return Response.json({ data: order.map((subject) => ({ subject })) });
    }
    if (path === "/content-types/app::category/configuration") {
      return Response.json({ data: { settings: { pageSize: 10 } } });
    }
    return Response.json({ error: "contentType.notFound" }, { status: 400 });
  });
}

Deno.test("convert har --verify: a value a listing holds at another position live is sent as recorded, and the flow passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-verify-order-" });
  const server = serve();
  try {
    await Deno.writeTextFile(`${dir}/r.har`, recording());
    const base = `http://127.0.0.1:${server.addr.port}`;
    const converted = await runCli([
      "convert",
      "har",
      `${dir}/r.har`,
      "--verify",
      base,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.match(flow, /\/content-types\/app::category\/configuration/);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: base } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
