/**
 * `convert postman` on a query value holding `#`, `&` or a line break, as
 * Postman's importer writes them for Unleash's search operations (values
 * generated from a `pattern`, tests/real/unleash_postman_test.ts): Newman
 * sends the URL from the collection's parts, each query value
 * percent-encoded (`%23`, `%26`, `%0A`); flowrun read the `raw` text, where
 * `#` began a fragment (the rest of the query was never sent), `&` split
 * the value in two and a URL drops a line break. A `#` in the raw text of a URL whose parts hold no such
 * value stays a fragment.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** One request with its URL's `raw` text and its `query` parts (`raw: null`: the parts alone, as Postman's importer writes it). */
function collection(query: { key: string; value: string }[], raw?: string | null) {
  const text = query.map((q) => `${q.key}=${q.value}`).join("&");
  return {
    info: { name: "Search", schema: "https://schema.getpostman.com/json/collection/v2.1.0/" },
    item: [{
      name: "search events",
      request: {
        method: "GET",
        url: {
          ...(raw === null ? {} : { raw: raw ?? `{{baseUrl}}/api/admin/search/events?${text}` }),
          host: ["{{baseUrl}}"],
          path: ["api", "admin", "search", "events"],
          query,
        },
      },
    }],
    variable: [{ key: "baseUrl", value: "http://localhost" }, { key: "suffix", value: "" }],
  };
}

/** Converts `c`, runs it as printed against a server on 127.0.0.1, and gives the query it got. */
async function sentQuery(c: unknown): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-postman-query-" });
  const got: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    got.push(new URL(req.url).search);
    return Response.json({ events: [] });
  });
  try {
    await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(c));
    const converted = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const { port } = server.addr as Deno.NetAddr;
    const run = await runCli(line.split(" "), {
      env: { BASE_URL: `http://127.0.0.1:${port}`, baseUrl: `http://127.0.0.1:${port}` },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(got.length, 1);
    return got[0];
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert postman: a query value holding #, & or a line break is sent whole, percent-encoded, as Newman sends it", async () => {
  const query = await sentQuery(collection([
    { key: "query", value: "<string>" },
    { key: "id", value: "IS:_ #mTBuH,8671280" },
    { key: "feature", value: "IS:a\nb\r\tc" },
    { key: "tag", value: "a|68&:YZ{{suffix}}" },
    { key: "limit", value: "50" },
  ]));
  assert.equal(
    query,
    "?query=%3Cstring%3E&id=IS:_%20%23mTBuH,8671280&feature=IS:a%0Ab%0D%09c&tag=a|68%26:YZ&limit=50",
  );
});

Deno.test("convert postman: a # in a URL whose query parts hold none stays a fragment", async () => {
  const query = await sentQuery(
    collection([{ key: "limit", value: "50" }], "{{baseUrl}}/api/admin/search/events?limit=50#top"),
  );
  assert.equal(query, "?limit=50");
});

Deno.test("convert postman: a URL of parts alone (Postman's importer writes no raw text) sends its query values whole too", async () => {
  const query = await sentQuery(collection([
    { key: "id", value: "IS:_ #mTBuH" },
    { key: "tag", value: "a&b\rc" },
  ], null));
  assert.equal(query, "?id=IS:_%20%23mTBuH&tag=a%26b%0Dc");
});
