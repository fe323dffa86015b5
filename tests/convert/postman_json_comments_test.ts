/**
 * A raw JSON body with comments (a public project's own collection for Restful Booker, measured
 * by hand: `"username": "admin"\r\n    // Missing password`, `"checkout": "15-02-2026"    // Wrong
 * format`) went out with them, so the server refused what it took from Newman (400 where Newman's
 * requests had 200 and 500): Postman's runtime takes comments out of a body it reads as JSON (its
 * language `json`, or none and a JSON Content-Type), leaving no whitespace in their place. The flow
 * now sends what Newman sends: every comment form (a line one ending in `\n` or `\r\n`, a block
 * one), each way Postman tells JSON, text inside strings kept, and a body in another language sent
 * as written. The server is the judge: it keeps each body as it came.
 */
import assert from "node:assert/strict";
import { newmanThenFlow } from "../support/newman_then_flow.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const status201 = ['pm.test("created", () => pm.response.to.have.status(201));'];

/** One raw body; `language` as Postman's editor writes it, `type` a Content-Type header. */
function item(name: string, raw: string, language?: string, type?: string) {
  return {
    name,
    event: [{ listen: "test", script: { exec: status201 } }],
    request: {
      method: "POST",
      url: `{{baseUrl}}/${name}`,
      header: type ? [{ key: "Content-Type", value: type }] : [],
      body: { mode: "raw", raw, ...(language ? { options: { raw: { language } } } : {}) },
    },
  };
}

const ITEMS = [
  item(
    "crlf",
    '{\r\n    "username": "admin"\r\n    // Missing password\r\n, "site": "http://a//b",\r\n' +
      '    "note": "/* kept */" // after a string\n}',
    "json",
  ),
  item("block", '{ /* the id\r\n spans lines */ "id": 1, "n": 2 /* last */ }', "json"),
  item("typed", '{"price": -5 // Negative price\n}', undefined, "application/json"),
  item("vendor", '{"a": "b" /* x */}', undefined, "application/vnd.api+json"),
  item("text", "a // kept as written\n/* and this */", "text"),
];

/** Keeps each body's text; 400 for a JSON one that does not parse, as a JSON API answers. */
function bodyKeeper() {
  const seen: { path: string; text: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = await req.text();
    const path = new URL(req.url).pathname;
    seen.push({ path, text });
    if (/json/.test(req.headers.get("content-type") ?? "")) {
      try {
        JSON.parse(text);
      } catch {
        return Response.json({ error: "bad json" }, { status: 400 });
      }
    }
    return Response.json({}, { status: 201 });
  });
  return { seen, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman json comments: a raw JSON body goes out without its comments, as Newman sends it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-json-comments-" });
  const server = bodyKeeper();
  try {
    const collection = {
      info: { name: "Commented bodies", schema: V21 },
      variable: [{ key: "baseUrl", value: server.url }],
      item: ITEMS,
    };
    const { counts } = await newmanThenFlow(dir, collection, server.url);
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    assert.equal(server.seen.length, ITEMS.length * 2, JSON.stringify(server.seen));
    const newman = server.seen.slice(0, ITEMS.length);
    const flow = server.seen.slice(ITEMS.length);
    for (const [i, sent] of flow.entries()) {
      assert.equal(sent.path, newman[i].path);
      if (sent.path === "/text") {
        assert.equal(sent.text, newman[i].text);
        assert.match(sent.text, /\/\/ kept as written/);
      } else {
        assert.deepEqual(JSON.parse(sent.text), JSON.parse(newman[i].text), sent.path);
      }
    }
    assert.equal(JSON.parse(flow[0].text).note, "/* kept */");
    assert.equal(JSON.parse(flow[0].text).site, "http://a//b");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
