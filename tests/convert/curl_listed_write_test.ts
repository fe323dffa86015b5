/**
 * `convertCurl`: a name a listing showed is not taken from it where a write
 * names it as its target. A package repository tool's files page lists the
 * upload folders (`$ curl …/api/files` and its pasted `["aptly-0.9"]`), then
 * uploads into `POST /api/files/aptly-0.9`, which makes that folder. The stage
 * shared with `convert har` took the name from the listing (a listing's member
 * opened under its collection), so on a fresh instance, whose listing is
 * empty, the capture failed and every later command of the page errored (0 of
 * 5; real curl 3). A POST or PUT whose path ends with the name makes or
 * replaces what it names: the name is the command's own, sent as written; a
 * read, a delete or a write under the member (`…/aptly-0.9/files`) still takes
 * it from the listing. Run against a server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const PAGE = [
  "List the folders:",
  "",
  "    $ curl http://HOST/api/dirs",
  '    ["inbox-7"]',
  "",
  "Make a folder (a new name makes it):",
  "",
  "    $ curl -X PUT -d 'note=first' http://HOST/api/dirs/inbox-7",
  '    {"dir":"inbox-7"}',
  "",
  "Read it:",
  "",
  "    $ curl http://HOST/api/dirs/inbox-7",
  '    {"dir":"inbox-7","notes":["first"]}',
  "",
].join("\n");

Deno.test("a write naming its target sends the name as written, not the listing's", () => {
  const { yaml } = convertCurl(PAGE.replaceAll("HOST", "localhost:8080"));
  assert.doesNotMatch(yaml, /capture:/, yaml);
  assert.match(yaml, /\/api\/dirs\/inbox-7\n/, yaml);
});

Deno.test("a read of a listed member still takes it from the listing", () => {
  const text = [
    "curl http://a.test/api/dirs",
    '# ["inbox-7"]',
    "curl http://a.test/api/dirs/inbox-7",
    "",
  ].join("\n");
  const { yaml } = convertCurl(text);
  assert.match(yaml, /capture:/, yaml);
  assert.match(yaml, /\/api\/dirs\/\$\{steps\.list_dirs\.capture\.\w+\}/, yaml);
});

Deno.test("run against a fresh server: the page's three commands pass", async () => {
  const dirs = new Map<string, string[]>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const name = /^\/api\/dirs\/([^/]+)$/.exec(new URL(req.url).pathname)?.[1];
    if (!name) return Response.json([...dirs.keys()]);
    if (req.method === "PUT") {
      const note = new URLSearchParams(await req.text()).get("note") ?? "";
      dirs.set(name, [...dirs.get(name) ?? [], note]);
      return Response.json({ dir: name });
    }
    const notes = dirs.get(name);
    return notes ? Response.json({ dir: name, notes }) : new Response(null, { status: 404 });
  });
  const page = PAGE.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(page, async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  }, { docs: "dirs.md" });
});
