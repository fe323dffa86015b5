/**
 * `convertCurl`: an answer's empty string is no Windows quote. A package
 * repository tool's API pages paste each answer under its command, and most
 * hold an empty string (`{"Name":"local1","Comment":"",…}`). Windows cmd
 * doubles a quote inside a quoted word (`"{""a"":1}"`), so `""` between two
 * characters marked the whole text as written for cmd: single quotes were
 * read as letters, `-H 'Content-Type: application/json'` split into two words
 * and a URL `http://application/json'`, and one command became seven steps.
 * Only the lines of a curl command are evidence of the shell it is typed for:
 * a pasted answer's `:""` says nothing; WebKit's copy for cmd is still read as
 * cmd. Run against a server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const PAGE = [
  "Example:",
  "",
  `    $ curl -X POST -H 'Content-Type: application/json' --data '{"Name": "shelf one", "Tags": ["a", "b"]}' http://HOST/api/shelves`,
  '    {"Name":"shelf one","Comment":"","Tags":["a","b"]}',
  "",
  "    $ curl http://HOST/api/shelves",
  '    [{"Name":"shelf one","Comment":"","Tags":["a","b"]}]',
  "",
  '# {"Owner":""}',
  "curl -H 'X-Who: me' http://HOST/api/shelves",
  "",
].join("\n");

Deno.test("a pasted answer's empty string leaves the commands a POSIX shell's", () => {
  const { yaml, summary } = convertCurl(PAGE.replaceAll("HOST", "localhost:8080"));
  assert.equal(summary.steps, 3, yaml);
  assert.match(yaml, /content-type: application\/json/, yaml);
  assert.match(yaml, /\n {8}Name: shelf one\n/, yaml);
  assert.match(yaml, /x-who: me/, yaml);
  assert.doesNotMatch(yaml, /http:\/\/application/, yaml);
});

Deno.test("a doubled quote inside a curl command's word is still cmd's", () => {
  const webkit = `curl "https://a.test/notes" -X POST --data-binary "{""title"":""done""}"\n`;
  const { yaml } = convertCurl(webkit);
  assert.match(yaml, /\n {8}title: done\n/, yaml);
});

Deno.test("run against a server: the page's three commands pass", async () => {
  const shelves: { Name: string; Comment: string; Tags: string[] }[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "POST") {
      const type = req.headers.get("content-type") ?? "";
      if (type !== "application/json") return new Response("json only", { status: 415 });
      const { Name, Tags } = await req.json();
      shelves.push({ Name, Comment: "", Tags });
      return Response.json(shelves.at(-1), { status: 201 });
    }
    return Response.json(shelves);
  });
  const page = PAGE.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(page, async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  }, { docs: "shelves.md" });
  assert.deepEqual(shelves.map((x) => x.Name), ["shelf one"]);
});
