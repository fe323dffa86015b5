/**
 * `convertCurl`: a refusal the docs announce in words. Docs show a failing
 * example by saying so ("Reading it again returns 404 because the key is
 * gone:", `# expect a 409 here`, an error page's "**Returned Status Code:
 * `405`**" over its example) and paste no answer: the step checked below 400,
 * and the documented refusal failed the run (an API mock server's error page:
 * every example). A sentence that speaks of the command (a comment on or right
 * above it, a sentence ending in a colon right above it, its section from the
 * heading its part starts with, or a sentence after it before the next one)
 * and names one status from 400 to 599 beside a word of answering is the
 * status the step checks now, with a note; a condition ("if", "when") or a
 * hedge ("may", "can") is another case's, and two statuses keep below 400.
 * Run against a key-value server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";
import { assertLinear } from "../support/timing.ts";

/** The steps' status checks, in order. */
function statuses(yaml: string): string[] {
  return [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);
}

const DOCS = [
  "## Keys",
  "",
  "Store a key:",
  "",
  "```bash",
  "curl -X POST http://HOST/keys -d 'name=a&value=1'",
  "```",
  "",
  "Storing it again is refused:",
  "",
  "```bash",
  "# expect a 409 here",
  "curl -X POST http://HOST/keys -d 'name=a&value=2'",
  "```",
  "",
  "```bash",
  "curl -X DELETE http://HOST/keys/a",
  "```",
  "",
  "Reading it again returns 404 because the key is gone:",
  "",
  "```bash",
  "curl http://HOST/keys/a",
  "```",
  "",
  "```bash",
  "curl -X PATCH http://HOST/keys  # fails with 405: keys are never patched",
  "```",
  "",
  "### METHOD_NOT_ALLOWED",
  "",
  "**Returned Status Code: `405`**",
  "",
  "##### Example",
  "",
  "`curl -X PUT http://HOST/keys`",
  "",
  "---",
  "",
  "### UNKNOWN_ROUTE",
  "",
  "**Returned Status Code: `404`**",
  "",
  "`curl http://HOST/nothing`",
  "",
  "The answer lists what it has:",
  "",
  "```bash",
  "curl http://HOST/keys",
  "```",
  "",
].join("\n");

Deno.test("a refusal the docs announce is the status the step checks", () => {
  const { yaml, summary } = convertCurl(DOCS.replaceAll("HOST", "127.0.0.1:8080"));
  assert.deepEqual(
    statuses(yaml),
    ["{ lt: 400 }", "409", "{ lt: 400 }", "404", "405", "405", "404", "{ lt: 400 }"],
    yaml,
  );
  const said = summary.notes.filter((n) => /the docs say it is refused with/.test(n));
  assert.equal(said.length, 5, summary.notes.join("\n"));
  assert.ok(said.some((n) => /\(line 23\).*refused with 404 \(line 20\)/.test(n)), said.join("\n"));
});

Deno.test("a condition, a hedge, two statuses or a port announce nothing", () => {
  const sentences = [
    "If the key is missing, it returns 404.",
    "It returns 404 when the key is gone.",
    "The server may answer 409.",
    "You can get a 401 without a token.",
    "It returns 400 or 404.",
    "The server on port 4040 returns the list.",
    "It fails on /keys/404 paths.",
  ];
  for (const sentence of sentences) {
    const text = `curl http://a.test/keys/a\n\n${sentence}\n\ncurl http://a.test/keys\n`;
    assert.deepEqual(statuses(convertCurl(text).yaml), ["{ lt: 400 }", "{ lt: 400 }"], sentence);
  }
  // The answer or head a comment pasted under the command above speaks of that one, not this.
  for (const pasted of ['# {"status": 404, "error": "gone"}', "# HTTP/1.1 404 Not Found"]) {
    const text = `curl http://a.test/keys/a\n${pasted}\ncurl http://a.test/keys\n`;
    assert.equal(statuses(convertCurl(text).yaml)[1], "{ lt: 400 }", pasted);
  }
  // A pasted status line is the command's own, whatever a sentence says.
  const pasted = "curl -i http://a.test/keys/a\nHTTP/1.1 200 OK\n\nThis returns 404 elsewhere.\n";
  assert.deepEqual(statuses(convertCurl(pasted).yaml), ["200"]);
  // A section's status with no example of its own stays in its section.
  const sections =
    "### GONE\n\nReturned Status Code: 410\n\n---\n\n### LIST\n\ncurl http://a.test/k\n";
  assert.deepEqual(statuses(convertCurl(sections).yaml), ["{ lt: 400 }"]);
});

Deno.test("run against a server: the announced refusals pass, as documented", async () => {
  const keys = new Map<string, string>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    const path = new URL(req.url).pathname;
    const key = /^\/keys\/([^/]+)$/.exec(path)?.[1];
    if (path === "/keys" && req.method === "POST") {
      const form = new URLSearchParams(body);
      const name = form.get("name") ?? "";
      if (keys.has(name)) return Response.json({ error: "exists" }, { status: 409 });
      keys.set(name, form.get("value") ?? "");
      return Response.json({ name }, { status: 201 });
    }
    if (path === "/keys") {
      if (req.method !== "GET") return new Response(null, { status: 405 });
      return Response.json([...keys.keys()]);
    }
    if (!key) return new Response("no route", { status: 404 });
    if (!keys.has(key)) return new Response("gone", { status: 404 });
    if (req.method === "DELETE") {
      return new Response(null, { status: keys.delete(key) ? 204 : 404 });
    }
    return Response.json({ name: key, value: keys.get(key) });
  });
  const docs = DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow, converted }) => {
    assert.match(converted.stderr, /the docs say it is refused with 409/);
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
});

Deno.test("reading sentences and curl's error lines grows in proportion to the commands", () => {
  const text = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      [
        `### Case ${i}`,
        "",
        "It is refused with `409`:",
        "",
        `curl -f -X POST http://a.test/items/${i}`,
        i % 2 ? "curl: (22) The requested URL returned error: 409" : "This returns 409.",
        "",
      ].join("\n")).join("\n");
  const texts = new Map([200, 800].map((n) => [n, text(n)]));
  assert.equal(statuses(convertCurl(texts.get(200)!).yaml).filter((s) => s === "409").length, 200);
  // A ratio within this process, not a time: a busy machine slows both runs alike.
  assertLinear("curl refusals", (n) => convertCurl(texts.get(n)!), 200, 4);
});
