/**
 * `convert curl`: a page's code blocks in other languages between its
 * commands. A spam filter's architecture page (Markdown, measured by hand)
 * shows Lua between its two `curl` examples, and a Lua comment says
 * "-- Cap group's contribution": read as shell, the apostrophe opened a
 * quote never closed, and the whole page was refused ("The input holds no
 * curl command"). A block whose fence (or reStructuredText `code-block`
 * directive) names a programming or configuration language is that
 * language's code, never shell and never what a command printed: its lines
 * are left out. A shell's block, an unnamed one and a data format's (an
 * answer's `json`, `text`, `http`) are read as before. Run against a server
 * started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Code in other languages whose comments or strings leave a shell quote open. */
const BLOCKS: Record<string, string[]> = {
  lua: ["```lua", 'group "spf" {', "    max_score = 5.0;  -- Cap group's contribution", "}", "```"],
  python: ["```python", "# the server's answer", "print(r.json()['symbols'])", "```"],
  javascript: ["``` js", "// don't forget the key", "fetch(url);", "```"],
  go: ['```go title="main.go"', "// it's the client", "resp, _ := http.Get(url)", "```"],
  c: ["~~~c", "/* isn't freed here */", "free(buf);", "~~~"],
  sql: ["```sql", "SELECT 'a FROM t; -- it's left open", "```"],
  nginx: [
    "```nginx",
    "location /kea { # the agent's path",
    "    proxy_pass http://127.0.0.1:8000/;",
    "}",
    "```",
  ],
  ruby: ["````ruby", "puts 'it", "```", "````"],
  rstLua: [
    ".. code-block:: lua",
    "   :linenos:",
    "",
    "   local mod_name = 'my_module'",
    "   -- the module's own options",
    "",
  ],
  rstPython: [".. code:: python", "", "    print('it')  # it's printed", ""],
};

function page(host: string, block: string[]): string {
  return [
    "## Monitoring",
    "",
    "```bash",
    `curl http://${host}/metrics`,
    "```",
    "",
    "Symbols are organized into groups:",
    "",
    ...block,
    "",
    "```bash",
    "# Via HTTP API",
    `curl http://${host}/history`,
    "```",
    "",
  ].join("\n");
}

for (const [language, block] of Object.entries(BLOCKS)) {
  Deno.test(`a ${language} block's quote is no shell quote`, () => {
    const { yaml, summary } = convertCurl(page("localhost:11334", block));
    assert.equal(summary.steps, 2, yaml);
    assert.match(yaml, /\/history/, yaml);
  });
}

Deno.test("a curl command in a shell's or an unnamed block is still a step", () => {
  for (const fence of ["```bash", "```console", "```sh", "```", "```shell-session", "~~~"]) {
    const close = fence.startsWith("~") ? "~~~" : "```";
    const text = [fence, "$ curl http://localhost:11334/stat", close, ""].join("\n");
    assert.equal(convertCurl(text).summary.steps, 1, fence);
  }
});

Deno.test("a json block under a command is still its printed answer", () => {
  const text = [
    "```bash",
    "curl -X POST http://localhost:9999/login -d 'user=a'",
    "```",
    "",
    "```json",
    '{"token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJlLXZhbHVl"}',
    "```",
    "",
    "```bash",
    'curl http://localhost:9999/me -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJlLXZhbHVl"',
    "```",
    "",
  ].join("\n");
  const { yaml } = convertCurl(text);
  assert.match(yaml, /capture:/, yaml);
});

Deno.test("a fence inside a here-document is the body's", () => {
  const text = [
    "curl -X POST http://localhost:9999/notes --data-binary @- <<'EOF'",
    "```lua",
    "x = 'it's'",
    "```",
    "EOF",
    "curl http://localhost:9999/b",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 2, yaml);
  assert.match(yaml, /```lua/, yaml);
});

Deno.test("run against a server: both commands of each page are sent", async () => {
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(new URL(req.url).pathname);
    return Response.json({ ok: true });
  });
  for (const block of Object.values(BLOCKS)) {
    await withCurlFlow(page(`127.0.0.1:${s.addr.port}`, block), async ({ runFlow, converted }) => {
      const run = await runFlow();
      assert.equal(run.code, 0, `${converted.stderr}\n${run.stdout}${run.stderr}`);
    }, { docs: "page.md" });
  }
  assert.deepEqual(seen, Array(Object.keys(BLOCKS).length).fill(["/metrics", "/history"]).flat());
});
