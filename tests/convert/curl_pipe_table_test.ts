/**
 * `convertCurl`: a Markdown table is prose, with or without its outer pipes.
 * A package repository tool's API pages document each call's parameters and
 * errors in GitHub tables written without the leading `|`
 * (` 404      | repository with such name doesn't exist`): read as shell, the
 * apostrophe opened a quote that the next command's body closed, so words of
 * its JSON became URLs (13 commands read as 19 steps) or the page was refused
 * ("Unterminated single quote"); and an errors table's "400 | mirror creation
 * failed" made the example under it, whose pasted answer is the created
 * mirror, check a 400. A table (a header row, a delimiter row such as
 * `---|---` and the rows under it up to a blank line, outside code blocks) is
 * neither a command nor a sentence about one. Run against a server started
 * here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The steps' status checks, in order. */
function statuses(yaml: string): string[] {
  return [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);
}

const PAGE = [
  "### Create",
  "",
  "`POST /api/shelves`",
  "",
  "JSON body params:",
  "",
  " Name       | Type                | Description",
  "------------|---------------------|----------------",
  " `Name`     | *required*, string  | the shelf's name",
  "",
  "HTTP Errors:",
  "",
  " Code     | Description",
  "----------|-------------------------",
  " 400      | shelf creation failed: one with that name doesn't go twice",
  "",
  "Example:",
  "",
  `    $ curl -X POST -H 'Content-Type: application/json' --data '{"Name": "tall"}' http://HOST/api/shelves`,
  '    {"Name":"tall","Books":[]}',
  "",
  "### Add books",
  "",
  "| Name      | Description |",
  "| :-------- | ----------: |",
  "| `Books`   | the books' keys, as the shelf's listing shows them |",
  "",
  "Example:",
  "",
  `    $ curl -X POST -H 'Content-Type: application/json' --data '{"Books": ["Pbook one 1.0 4f2a","Pbook two 2.1 9c0e"]}' http://HOST/api/shelves/tall/books`,
  '    {"Name":"tall","Books":["Pbook one 1.0 4f2a","Pbook two 2.1 9c0e"]}',
  "",
  "### Show",
  "",
  " Code     | Description",
  "----------|-------------------------",
  " 404      | shelf doesn't exist",
  "",
  "    $ curl http://HOST/api/shelves/tall",
  "",
].join("\n");

Deno.test("a Markdown table, with or without outer pipes, is neither command nor sentence", () => {
  const { yaml, summary } = convertCurl(PAGE.replaceAll("HOST", "localhost:8080"));
  assert.equal(summary.steps, 3, yaml);
  assert.deepEqual(statuses(yaml), ["{ lt: 400 }", "{ lt: 400 }", "{ lt: 400 }"], yaml);
  assert.match(yaml, /Pbook one 1\.0 4f2a/, yaml);
  assert.doesNotMatch(summary.notes.join("\n"), /glob|not an http/, summary.notes.join("\n"));
});

Deno.test("a pipeline's | and psql's printed table are no Markdown table", () => {
  // A shell pipeline holds `|` and no delimiter row; psql's `----+----` has no `|`.
  const text = [
    "echo '{\"a\": 1}' | curl -d @- http://a.test/x",
    " id | name",
    "----+------",
    "  1 | it's",
    "curl http://a.test/y",
    "",
  ].join("\n");
  assert.throws(() => convertCurl(text), /Unterminated single quote/);
  const piped = "echo 'x' | curl -d @- http://a.test/x\ncurl http://a.test/y\n";
  assert.equal(convertCurl(piped).summary.steps, 2);
});

Deno.test("run against a server: the page's three commands pass", async () => {
  const shelves = new Map<string, string[]>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = req.method === "POST" ? await req.json() : undefined;
    if (path === "/api/shelves" && body) {
      if (shelves.has(body.Name)) return Response.json({ error: "exists" }, { status: 400 });
      shelves.set(body.Name, []);
      return Response.json({ Name: body.Name, Books: [] }, { status: 201 });
    }
    const name = /^\/api\/shelves\/([^/]+)/.exec(path)?.[1] ?? "";
    const books = shelves.get(name);
    if (!books) return Response.json({ error: "missing" }, { status: 404 });
    if (path.endsWith("/books") && body) books.push(...body.Books);
    return Response.json({ Name: name, Books: books });
  });
  const page = PAGE.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(page, async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  }, { docs: "shelves.md" });
  assert.deepEqual(shelves.get("tall"), ["Pbook one 1.0 4f2a", "Pbook two 2.1 9c0e"]);
});
