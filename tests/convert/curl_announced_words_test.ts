/**
 * `convertCurl`: what a command printed is no sentence, and a failure the
 * docs announce in words alone. A database's HTTP page pastes each command's
 * output in the command's own code block, its error text among it
 * (`Code: 457. DB::Exception: … cannot be parsed`): read as prose about the
 * command, "code" beside 457 made the step check an HTTP status 457, which no
 * server answers. A configuration block's `<status>402</status>` in the
 * section was read the same way. Lines in a code block are what a command
 * printed or a file holds, never a sentence, but a `#` comment. The same page
 * shows counterexamples in words ("For example, this won't work:", "The
 * command above results in an error:") and the steps checked below 400, so
 * the documented failure failed the run: a sentence right above the command
 * (ending in a colon), its comment or a sentence after it that says it does
 * not work, and names no status, makes the step check a status of 400 or
 * more; a condition or a hedge counts for nothing, as before. Run against a
 * server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The steps' status checks, in order. */
function statuses(yaml: string): string[] {
  return [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);
}

const PAGE = [
  "## Queries",
  "",
  "Send a query in the body:",
  "",
  "```bash",
  "$ echo 'SELECT 1' | curl 'http://HOST/' --data-binary @-",
  "1",
  "```",
  "",
  "A query cut in two gets a line break between its parts.",
  "For example, this won't work:",
  "",
  "```bash",
  "$ echo 'ECT 1' | curl 'http://HOST/?query=SEL' --data-binary @-",
  "Code: 62. Exception: Syntax error: failed at position 1: SEL",
  "```",
  "",
  "Two statements in one request are not allowed:",
  "",
  "```bash",
  'curl -sS "http://HOST/" --data-binary "SET ROLE r;SELECT 1;"',
  "```",
  "",
  "The command above results in an error:",
  "",
  "```sql",
  "Code: 62. Exception: Syntax error (Multi-statements are not allowed)",
  "```",
  "",
  "A parameter's tab must be escaped:",
  "",
  "```bash",
  'curl -sS "http://HOST/?param_a=x%5C%09y" -d "SELECT {a:String}"',
  "Code: 457. Exception: Value x cannot be parsed as String for query parameter 'a'",
  "```",
  "",
  "### A handler",
  "",
  "```xml",
  "<handler>",
  "    <status>402</status>",
  "    <response_content>Pay first</response_content>",
  "</handler>",
  "```",
  "",
  "```bash",
  "curl 'http://HOST/ping'",
  "```",
  "",
].join("\n");

Deno.test("printed lines and a configuration's status announce nothing; words announce failure", () => {
  const { yaml, summary } = convertCurl(PAGE.replaceAll("HOST", "127.0.0.1:8123"));
  assert.deepEqual(
    statuses(yaml),
    ["{ lt: 400 }", "{ gte: 400 }", "{ gte: 400 }", "{ lt: 400 }", "{ lt: 400 }"],
    yaml,
  );
  const said = summary.notes.filter((n) => /the docs say it fails/.test(n));
  assert.equal(said.length, 2, summary.notes.join("\n"));
  assert.ok(said.some((n) => /\(line 14\).*\(line 11\)/.test(n)), said.join("\n"));
  assert.ok(said.some((n) => /\(line 21\).*\(line 24\)/.test(n)), said.join("\n"));
});

Deno.test("a condition, a hedge or a status named keep their own readings", () => {
  const cases: [string, string][] = [
    ["If the table is missing, this won't work:\n", "{ lt: 400 }"],
    ["This may not work:\n", "{ lt: 400 }"],
    ["For example, this won't work and returns 409:\n", "409"],
    ["# this does not work", "{ gte: 400 }"],
  ];
  for (const [sentence, status] of cases) {
    const text = `curl http://a.test/keys\n\n${sentence}\ncurl http://a.test/keys/a\n`;
    assert.deepEqual(statuses(convertCurl(text).yaml), ["{ lt: 400 }", status], sentence);
  }
  // A comment line in the command's block is still a sentence: `# expect a 409` counts.
  const fenced = "```bash\ncurl -X POST http://a.test/keys\n# expect a 409 here\n```\n";
  assert.deepEqual(statuses(convertCurl(fenced).yaml), ["409"]);
});

Deno.test("run against a server: the documented failures pass, as documented", async () => {
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    // As the database does, a line break joins the URL's part of the query and the body's.
    const parts = [url.searchParams.get("query"), req.method === "POST" ? await req.text() : null];
    const sql = parts.filter((p) => p).join("\n");
    if (url.pathname === "/ping") return new Response("Ok.\n");
    if (/;\s*\S/.test(sql) || /SEL\nECT/.test(sql)) {
      return new Response("Code: 62. Exception: Syntax error\n", { status: 400 });
    }
    return new Response("1\n");
  });
  const page = PAGE.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(page, async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  }, { docs: "http.md" });
});
