/**
 * `convert har` on a Playwright recording of an admin that makes a product and then shows it on
 * its edit page. EverShop 2.2.1's edit page holds the product's typed SKU in a hidden input
 * (`<input type="hidden" name="sku" value="LANTERN-BRASS-01">`), and the edit's `PATCH` sends it
 * again (measured by hand, docs/real-servers-har.md). A hidden input's value shaped like a token
 * was taken for a secret the page handed out, so the create's and the edit's bodies asked for it as
 * `RECORDED_SECRET`: run as printed, nothing was sent. The create's request had sent that value
 * before any answer held it: the user typed it, so the page only shows it back. A page value a
 * request of the recording already sent is no secret, as a JSON answer's member already was not;
 * it is sent as recorded.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const SKU = "QUAY-ROPE-TARRED-7";

/** A stand-in: a create answers the new item's id; its edit page shows the SKU in a hidden input. */
function standIn() {
  const items = new Map<string, { sku: string; name: string }>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/api/items") {
      const body = await req.json();
      const id = crypto.randomUUID();
      items.set(id, body);
      return Response.json({ data: { uuid: id, sku: body.sku } });
    }
    const id = path.split("/").at(-1) ?? "";
    if (req.method === "PATCH" && items.has(id)) {
      const body = await req.json();
      if (body.sku !== items.get(id)!.sku) return Response.json({ error: "sku" }, { status: 400 });
      items.set(id, body);
      return Response.json({ data: { uuid: id, sku: body.sku, name: body.name } });
    }
    await req.body?.cancel();
    const item = items.get(id);
    if (item === undefined) return new Response("none", { status: 404 });
    return new Response(page(item.sku), { headers: { "content-type": "text/html" } });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, close: () => server.shutdown() };
}

function page(sku: string): string {
  return `<html><body><form><input type="hidden" name="sku" value="${sku}">` +
    `<input type="text" name="name" value="Rope"></form></body></html>`;
}

const AT = "http://127.0.0.1:18753";
const ID = "5b0e3c1a-7f2d-4c61-9a55-2f0d8e6b4a17";

function entry(method: string, path: string, mime: string, text: string, body?: string) {
  return {
    startedDateTime: "2026-12-01T01:40:00.000Z",
    request: {
      method,
      url: `${AT}${path}`,
      headers: [
        { name: "Accept", value: "*/*" },
        ...(body ? [{ name: "Content-Type", value: "application/json" }] : []),
      ],
      cookies: [],
      ...(body ? { postData: { mimeType: "application/json", text: body } } : {}),
    },
    response: { status: 200, headers: [], content: { mimeType: mime, text } },
  };
}

function recording(): string {
  return JSON.stringify({
    log: {
      creator: { name: "Playwright" },
      entries: [
        entry(
          "POST",
          "/api/items",
          "application/json",
          JSON.stringify({ data: { uuid: ID, sku: SKU } }),
          JSON.stringify({ name: "Rope", sku: SKU }),
        ),
        entry("GET", `/admin/items/edit/${ID}`, "text/html", page(SKU)),
        entry(
          "PATCH",
          `/api/items/${ID}`,
          "application/json",
          JSON.stringify({ data: { uuid: ID, sku: SKU, name: "Rope, tarred" } }),
          JSON.stringify({ name: "Rope, tarred", sku: SKU }),
        ),
      ],
    },
  });
}

Deno.test("convert har: a typed value a page shows back in a hidden input is no secret; nothing is asked and the run passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-page-echoed-" });
  const app = standIn();
  try {
    const { flow } = await convertHar(dir, recording());
    assert.doesNotMatch(flow, /RECORDED_SECRET/, flow);
    assert.ok(flow.includes(SKU), flow);
    const result = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
    assert.equal(result.code, 0, `${result.stdout}\n${flow}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
