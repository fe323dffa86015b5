/**
 * `convert curl`: a small row number a create answered, printed with no status line. A DNS
 * resolver's firewall page adds a rule with `curl -s -X POST … /daf | jq .`, prints the JSON it
 * answered (`"id": 1`, no `HTTP/1.1 201` above it) and then suspends, reads and deletes
 * `/daf/1`. A number that small is taken only where a later command sends it right under the
 * collection the create was sent to (created_ids.ts), and only from a create whose status was a
 * 2xx: with no status pasted, the rule was never noted, `/daf/1` was sent as typed, and the
 * real server, which numbers from 0, answered 404 to the three commands after the create. The
 * docs printing an answer under the create, no error object and no condition's ("If …:"), is
 * that create's success: its number is handed out as a 201's would be. Pages written here in
 * our own words.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** A rule API's page: list, add (its answer printed bare), switch off, read, remove. */
const page = (origin: string) =>
  [
    "Filters can be managed over HTTP:",
    "",
    "```bash",
    "# List the filters",
    `$ curl -s ${origin}/filters | jq .`,
    "{}",
    "",
    "# Add a filter",
    `$ curl -s -X POST -d "drop from 10.1.2.3" ${origin}/filters | jq .`,
    "{",
    '  "hits": 0,',
    '  "on": true,',
    '  "rule": "drop from 10.1.2.3",',
    '  "id": 1',
    "}",
    "",
    "# Switch it off",
    `$ curl -s -X PATCH ${origin}/filters/1/on/false | jq .`,
    "true",
    "",
    "# Read it",
    `$ curl -s ${origin}/filters/1 | jq .`,
    "",
    "# Remove it",
    `$ curl -s -X DELETE ${origin}/filters/1 | jq .`,
    "true",
    "```",
    "",
  ].join("\n");

Deno.test("a row number a create printed without a status is captured where sent under it", () => {
  const { yaml } = convertCurl(page("http://localhost:8400"));
  assert.match(yaml, /capture:\n {6}\w+: \$\.json\.id\n/, yaml);
  const captured = /url: \$\{vars\.base_url\}\/filters\/(\$\{steps\.\w+\.capture\.\w+\})/g;
  assert.equal([...yaml.matchAll(captured)].length, 3, yaml);
  assert.doesNotMatch(yaml, /url: .*\/filters\/1\b/, yaml);
});

Deno.test("an answer a condition introduces, or an error, hands out no row number", () => {
  // As a page writes it outside code blocks: the sentence between the command and the JSON.
  const introduced = page("http://localhost:8400").replace(/```(?:bash)?\n/g, "").replace(
    /(\$ curl -s -X POST[^\n]*\n)/,
    "$1\nIf the filter is refused, the answer is:\n\n",
  );
  const refused = page("http://localhost:8400").replace(
    /\{\n {2}"hits"[\s\S]*?\n\}/,
    '{\n  "error": "a rule like it exists",\n  "id": 1\n}',
  );
  for (const text of [introduced, refused]) {
    const { yaml } = convertCurl(text);
    assert.doesNotMatch(yaml, /capture:/, yaml);
    assert.match(yaml, /url: \$\{vars\.base_url\}\/filters\/1\/on\/false\n/, yaml);
  }
});

Deno.test("the flow addresses the rule the server made, twice on one server", async () => {
  const rules = new Map<number, boolean>();
  let next = 0;
  const seen: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      seen.push(`${req.method} ${path}`);
      if (path === "/filters" && req.method === "POST") {
        const rule = await req.text();
        rules.set(next, true);
        return Response.json({ hits: 0, on: true, rule, id: next++ });
      }
      if (path === "/filters") return Response.json(Object.fromEntries(rules));
      const id = Number(/^\/filters\/(\d+)/.exec(path)?.[1]);
      if (!rules.has(id)) return Response.json("No such rule", { status: 404 });
      if (req.method === "DELETE") rules.delete(id);
      if (req.method === "PATCH") rules.set(id, false);
      return Response.json(req.method === "GET" ? { id, on: rules.get(id) } : true);
    },
  );
  await withCurlFlow(page(`http://127.0.0.1:${server.addr.port}`), async ({ runFlow }) => {
    for (const round of [1, 2]) {
      const run = await runFlow();
      assert.equal(run.code, 0, `run ${round}: ${run.stdout}${run.stderr}`);
    }
  }, { docs: "filters.md" });
  assert.equal(seen.length, 10, seen.join("\n"));
  // The server numbers from 0: the page's 1 is no rule on it.
  assert.deepEqual(seen.slice(2, 5), [
    "PATCH /filters/0/on/false",
    "GET /filters/0",
    "DELETE /filters/0",
  ]);
});
