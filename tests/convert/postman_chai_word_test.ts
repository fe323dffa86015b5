/**
 * A chai chain with a word chai does not have (`.or`, `.positive`: chai throws "Invalid Chai
 * property", so Newman 6.2.1 fails the test) or a chai word flowrun has no check for
 * (`.satisfy`) stays a comment beside its step. The summary counted it as untranslated and said
 * no more; now it names the word, the request and the line of the script it is on, and which of
 * the two it is. The translated checks beside it still pass when run as printed.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman chai word: an untranslated chai word is named with its request and line", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ id: 7, name: "n" }),
  );
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Words", schema: V21 },
      item: [{
        name: "Get item",
        event: [{
          listen: "test",
          script: {
            exec: [
              "const json = pm.response.json();",
              "pm.test('status', () => pm.response.to.have.status(200));",
              "pm.test('name', function () {",
              "    pm.expect(json.name).to.be.oneOf([null, '']).or.to.be.a('string');",
              "});",
              "pm.test('id', () => pm.expect(json.id).to.be.positive);",
              "pm.test('odd', () => pm.expect(json.id).to.satisfy((n) => n % 2 === 1));",
            ],
          },
        }],
        request: { method: "GET", url: `http://127.0.0.1:${server.addr.port}/items/7` },
      }],
    }));
    const text = formatPostmanSummary(summary, dir);
    const line = text.split("\n").find((l) => l.includes("Get item:")) ?? "";
    assert.match(line, /1 translated, 3 untranslated/, text);
    assert.match(
      line,
      /`\.or` \(line 4 of the test script of Get item\): chai has no such word, so Newman fails this test too/,
    );
    assert.match(line, /`\.positive` \(line 6 of the test script of Get item\): chai has no such/);
    assert.match(
      line,
      /`\.satisfy` \(line 7 of the test script of Get item\): a chai word flowrun does not translate/,
    );
    // Words flowrun translates are not named.
    assert.doesNotMatch(line, /`\.(to|be|oneOf|a|have|status)`/, line);
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
