/**
 * `convertCurl`: pasted into a terminal, every command of a docs page is sent,
 * whatever the one before it answered: curl does not stop a session at a 404.
 * The converted flow stopped at its first failed step, and the rest were
 * reported skipped: Parse Server's REST guide reads a user without a session
 * (answered 404 by a server that keeps users private), and the update, the
 * creates and the deletes after it were never sent. Every step after the
 * first is `always: true` now: each command is sent and reported in its
 * place; the flow still fails, naming the refused one. Run against a server
 * started here that refuses one command of five.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const DOCS = [
  "curl -X POST -H 'Content-Type: application/json' -d '{\"name\":\"ann\"}' http://HOST/items",
  "",
  '{"id": "it1"}',
  "",
  "curl http://HOST/users/ann",
  "curl -X PUT -H 'Content-Type: application/json' -d '{\"name\":\"bea\"}' http://HOST/items/it1",
  "curl -X DELETE http://HOST/items/it1",
  "curl http://HOST/items",
  "",
].join("\n");

Deno.test("every command after the first is sent whatever the ones before it answered", () => {
  const { yaml } = convertCurl(DOCS);
  const steps = yaml.split("\n  - name: ").slice(1);
  assert.equal(steps.length, 5, yaml);
  assert.doesNotMatch(steps[0], /always/, yaml);
  for (const step of steps.slice(1)) assert.match(step, /\n {4}always: true\n/, yaml);
});

Deno.test("run against a server: a refused command fails the flow, the rest are still sent", async () => {
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (path.startsWith("/users/")) return Response.json({ error: "not found" }, { status: 404 });
    if (req.method === "POST") return Response.json({ id: "it1" }, { status: 201 });
    return Response.json({ ok: true });
  });
  const docs = DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    const run = await runFlow();
    const why = `${run.stdout}${run.stderr}\n${seen.join("\n")}`;
    assert.equal(run.code, 1, why);
    assert.match(run.stdout, /404/, why);
    assert.deepEqual(seen, [
      "POST /items",
      "GET /users/ann",
      "PUT /items/it1",
      "DELETE /items/it1",
      "GET /items",
    ], why);
  });
});
