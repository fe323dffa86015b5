/**
 * `convert curl`: an answer the docs print through a pretty-printer. A
 * metrics server's events page pipes curl into `json_pp` and prints the
 * events under it; READMEs pipe into `jq`, `jq .` or `python3 -m json.tool`
 * (`-mjson.tool` too: an identity service's curl page joins the module to `-m`).
 * The printed JSON was read as the pretty-printer's output, no answer of
 * curl's, so an id it handed out that a later command sends was the docs'
 * own (404 on any other instance) and the count of answers said "no pasted
 * answer". A program that prints the same value again (layout options only,
 * at most the filter `.`) prints curl's answer; one that picks from it
 * (`jq .items`, `jq -s .`) does not. Run against a server started here that
 * makes a new id for each item.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const PRINTERS = [
  "json_pp",
  "jq",
  "jq .",
  "jq '.'",
  "jq -S .",
  "jq --indent 4 .",
  "jq -C",
  "python3 -m json.tool",
  "python -m json.tool --sort-keys",
  // Python's `-m` joined to its module, as an identity service's curl page writes it.
  "python -mjson.tool",
  "python3 -mjson.tool --sort-keys",
];

/** Creates an item through `printer`, its answer printed, then reads the item by its id. */
const docs = (host: string, printer: string) =>
  [
    "Create an item:",
    "",
    `    $ curl -s -X POST "http://${host}/items" -d 'name=lamp' | ${printer}`,
    "",
    "    {",
    '       "id" : "it-7f3a9c21",',
    '       "name" : "lamp"',
    "    }",
    "",
    "Read it back:",
    "",
    `    $ curl -s "http://${host}/items/it-7f3a9c21"`,
    "",
  ].join("\n");

Deno.test("an answer printed through a pretty-printer is curl's, every printer", () => {
  for (const printer of PRINTERS) {
    const { yaml } = convertCurl(docs("a.test", printer));
    assert.match(yaml, /capture:\n\s+item_id: \$\.json\.id/, `${printer}\n${yaml}`);
    assert.match(
      yaml,
      /url: \$\{vars\.base_url\}\/items\/\$\{steps\.\w+\.capture\.item_id\}/,
      yaml,
    );
  }
});

Deno.test("a program that picks from the answer prints no answer of curl's", () => {
  for (const picker of ["jq .items", "jq -s .", "jq -r .id", "grep id", "python3 -m json.tool x"]) {
    const { yaml } = convertCurl(docs("a.test", picker));
    assert.ok(!/capture:/.test(yaml), `${picker}\n${yaml}`);
  }
});

Deno.test("run against a server: the item read back is the one this run created", async () => {
  const items = new Map<string, string>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/items" && req.method === "POST") {
      const id = `it-${crypto.randomUUID().slice(0, 8)}`;
      items.set(id, new URLSearchParams(await req.text()).get("name") ?? "");
      return Response.json({ id, name: items.get(id) }, { status: 201 });
    }
    const id = /^\/items\/([^/]+)$/.exec(path)?.[1];
    if (id && items.has(id)) return Response.json({ id, name: items.get(id) });
    return new Response("no such item", { status: 404 });
  });
  await withCurlFlow(docs(`127.0.0.1:${s.addr.port}`, "json_pp"), async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
});
