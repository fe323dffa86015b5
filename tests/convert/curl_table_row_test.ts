/**
 * `convert curl`: a page's tables between its commands. A mail server's
 * admin API page (Sphinx, measured by hand) documents each command's
 * parameters in a grid table under its curl example, and a cell says
 * "delete also mailbox if it's empty": the row starts with `|`, not a
 * capitalised word, so it was read as shell, its apostrophe opened a quote,
 * and the whole page (48 commands) was refused ("Unterminated single quote
 * at line 5475"). No shell line starts with `|` (a pipe needs a command
 * before it, and a pipeline carried on a new line ends the line above with
 * `|`): a row of a grid table, a Markdown pipe table or an rST line block
 * outside any command, holding an apostrophe inside a word, is prose. Run
 * against a server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Tables as pages write them, each with a cell's apostrophe. */
const TABLES = {
  grid: [
    "+------------+---------+--------------------------------+",
    "| Parameter  | Type    | Description                    |",
    "+============+=========+================================+",
    "| deleteEmpty| Boolean | delete it if it's empty        |",
    "+------------+---------+--------------------------------+",
  ],
  gridWrapped: [
    "| userdbOnly | Boolean | only fetch from userdb and don't |",
    "|            |         | ask the passdb                   |",
  ],
  markdown: [
    "| Field | Meaning                |",
    "| ----- | ---------------------- |",
    "| text  | c'est la vie, the word |",
  ],
  indented: ["    | lineBlock | the server's own |"],
};

function page(host: string, table: string[]): string {
  return [
    ".. code::",
    "",
    `    curl -X POST -u admin:s3cret-pw -H "Content-Type: application/json" -d '[["reload",{},"tag1"]]' http://${host}/api/v1`,
    "",
    ...table,
    "",
    ".. code::",
    "",
    `    curl -X POST -u admin:s3cret-pw -H "Content-Type: application/json" -d '[["who",{},"tag2"]]' http://${host}/api/v1`,
    "",
  ].join("\n");
}

for (const [kind, table] of Object.entries(TABLES)) {
  Deno.test(`a ${kind} table's apostrophe is prose, not a quote`, () => {
    const { yaml, summary } = convertCurl(page("127.0.0.1:8080", table));
    assert.equal(summary.steps, 2, yaml);
    assert.match(yaml, /"tag2"|tag2/, yaml);
  });
}

Deno.test("a pipe carried on the next line is still the command's", () => {
  const text =
    "curl -s http://127.0.0.1:8080/api/v1 |\n  jq -r '.[0]'\ncurl http://127.0.0.1:8080/b\n";
  const { summary } = convertCurl(text);
  assert.equal(summary.steps, 2);
});

Deno.test("run against a server: both commands of each page are sent", async () => {
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    seen.push(body[0][2]);
    const ok = req.headers.get("authorization") === `Basic ${btoa("admin:s3cret-pw")}`;
    return ok
      ? Response.json([["doveadmResponse", [], body[0][2]]])
      : new Response(null, { status: 401 });
  });
  for (const table of Object.values(TABLES)) {
    await withCurlFlow(page(`127.0.0.1:${s.addr.port}`, table), async ({ runFlow, converted }) => {
      const run = await runFlow({ BASIC_PASSWORD: "s3cret-pw" });
      assert.equal(run.code, 0, `${converted.stderr}\n${run.stdout}${run.stderr}`);
    }, { docs: "page.rst" });
  }
  assert.deepEqual(seen, Array(Object.keys(TABLES).length).fill(["tag1", "tag2"]).flat());
});
