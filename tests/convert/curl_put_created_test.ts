/**
 * `convertCurl`: a message broker's API page (measured by hand) creates a
 * virtual host with `curl -i -u guest:guest -XPUT …/api/vhosts/foo` and
 * pastes its head, `HTTP/1.1 201 Created`. Run 2 on the same instance was
 * refused by the flow, though the server accepted: a PUT creates or
 * replaces what its URL names, and the broker answers 204 once it exists.
 * A PUT whose pasted answer is a 201 checks for a 2xx; a POST's pasted 201,
 * and any other pasted status, stays the step's own. Run twice against a
 * server started here that answers a PUT 201, then 204.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const PAGE = [
  '$ curl -i -u guest:guest -H "content-type:application/json" \\',
  "   -XPUT http://HOST/api/vhosts/foo",
  "",
  "HTTP/1.1 201 Created",
  "content-length: 0",
  "",
  "$ curl -i -u guest:guest -XPOST http://HOST/api/notes -d '{\"a\":1}'",
  "",
  "HTTP/1.1 201 Created",
  "",
].join("\n");

/** The steps' `status:` lines, in order. */
const statuses = (yaml: string) => [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);

Deno.test("a PUT's pasted 201 checks for a 2xx, a POST's stays 201", () => {
  const { yaml } = convertCurl(PAGE.replaceAll("HOST", "127.0.0.1:15672"));
  assert.deepEqual(statuses(yaml), ["{ gte: 200, lt: 300 }", "201"], yaml);
});

Deno.test("run twice against a server: the second PUT's 204 passes", async () => {
  const made = new Set<string>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    const path = new URL(req.url).pathname;
    if (req.method === "POST") return new Response(null, { status: 201 });
    const status = made.has(path) ? 204 : 201;
    made.add(path);
    return new Response(null, { status });
  });
  const page = PAGE.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(page, async ({ runFlow }) => {
    for (const round of [1, 2]) {
      const run = await runFlow({ BASIC_PASSWORD: "guest" });
      assert.equal(run.code, 0, `run ${round}: ${run.stdout}${run.stderr}`);
    }
  }, { docs: "page.sh" });
});
