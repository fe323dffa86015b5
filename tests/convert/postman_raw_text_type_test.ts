/**
 * A raw body with no language (`options.raw.language` absent) and no `Content-Type` header is
 * Postman's "Text": Newman sends it as `text/plain`, whatever it looks like. A public json-server
 * project's own suite sends its DELETE so (a JSON-looking body, no language, no header; Newman's
 * report shows `text/plain`), while the converted flow sent it as `application/json`. A server
 * that reads JSON only when told so then saw a body Newman never sent it.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCollection } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** One request sending `raw` with the `options` and headers given, checked for a 200. */
function item(name: string, options?: unknown, header: unknown[] = []) {
  return {
    name,
    event: [{ listen: "test", script: { exec: ["pm.response.to.have.status(200);"] } }],
    request: {
      method: "POST",
      header,
      url: `{{baseUrl}}/${name}`,
      body: { mode: "raw", raw: '{\r\n  "title": "java"\r\n}', ...(options ? { options } : {}) },
    },
  };
}

Deno.test("postman raw text: no language and no header is sent as text/plain, as Newman does", async () => {
  // What each request must arrive with to be answered 200, as Newman sends them.
  const expected: Record<string, string> = {
    "/text": "text/plain",
    "/json": "application/json",
    "/headed": "application/json",
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const type = req.headers.get("content-type") ?? "";
    const body = JSON.parse(await req.text());
    const ok = type.startsWith(expected[path]) && body.title === "java";
    return new Response(ok ? "ok" : `${path}: ${type}`, { status: ok ? 200 : 415 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const collection = {
      info: { name: "Raw text", schema: V21 },
      variable: [{ key: "baseUrl", value: `http://127.0.0.1:${server.addr.port}` }],
      item: [
        item("text"),
        item("json", { raw: { language: "json" } }),
        item("headed", undefined, [{ key: "Content-Type", value: "application/json" }]),
      ],
    };
    const flow = convertPostman(JSON.stringify(collection)).files[0].text;
    // The body stays readable as fields; only the type Newman sends is added.
    assert.match(flow, /title: java/);
    const report = await runCollection(collection, dir);
    const statuses = report.flows[0].steps.map((s: { status: string }) => s.status);
    assert.deepEqual(
      statuses,
      ["passed", "passed", "passed"],
      JSON.stringify(report.flows[0].steps),
    );
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
