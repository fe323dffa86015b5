/**
 * `convert curl`: a Sphinx page that documents each endpoint in a domain directive. A DNS
 * recursor's metrics page writes `.. http:get:: /metrics` (sphinxcontrib-httpdomain) and, indented
 * under it, "**Example request**:" with the curl command in a `.. sourcecode:: bash` block. A
 * directive's name may hold a colon (`http:get`, `py:function`, `c:macro`: a domain and its
 * directive; rST's directive names are reference names, words joined by single `-`, `_`, `.`,
 * `:` or `+`), but only `[\w-]+::` was read as a directive: the line was taken for a comment
 * (`..` before text that is no directive), and the comment's indented lines, the example
 * command among them, were left out as hidden: "The input holds no curl command". The
 * rendered page shows them. Pages written here in our own words.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** An endpoint documented in `directive`, its example request and answer indented under it. */
const page = (directive: string, origin = "http://127.0.0.1:8090") =>
  [
    "Counters",
    "========",
    "",
    `.. ${directive}`,
    "",
    "   Returns the counters as text. Uses the viewer's password.",
    "",
    "   **Example request**:",
    "",
    "   .. sourcecode:: bash",
    "",
    `      curl -i -u viewer:s3cret-view ${origin}/counters`,
    "",
    "   **Example response**:",
    "",
    "   .. sourcecode:: http",
    "",
    "      HTTP/1.1 200 OK",
    "      Content-Type: text/plain",
    "",
    "      hits 3",
    "",
  ].join("\n");

const DOMAINS = [
  "http:get:: /counters",
  "http:post:: /counters/(int:id)",
  "py:function:: counters()",
  "js:function:: counters()",
  "c:macro:: COUNTERS",
  "std:option:: --counters",
  "rst:directive:: counters",
];

Deno.test("a command under a domain directive (`.. http:get::`) is shown, not a comment's", () => {
  for (const directive of DOMAINS) {
    const { yaml, summary } = convertCurl(page(directive));
    assert.equal(summary.steps, 1, `${directive}\n${yaml}`);
    assert.match(yaml, /url: \$\{vars\.base_url\}\/counters\n/, directive);
    assert.deepEqual(summary.notes.filter((n) => /inside a comment/.test(n)), [], directive);
  }
});

Deno.test("a comment whose first word ends with a colon is still a comment", () => {
  const text = [
    "$ curl http://127.0.0.1:8090/counters",
    "",
    ".. TODO: document this later:",
    "",
    "   $ curl http://127.0.0.1:8090/counters/reset",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 1, yaml);
  assert.equal(summary.notes.filter((n) => /inside a comment/.test(n)).length, 1, yaml);
});

Deno.test("the example under the directive runs, its pasted status checked", async () => {
  const seen: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => {
      const auth = req.headers.get("authorization") ?? "";
      seen.push(`${req.method} ${new URL(req.url).pathname}`);
      return auth === `Basic ${btoa("viewer:s3cret-view")}`
        ? new Response("hits 3\n", { headers: { "content-type": "text/plain" } })
        : new Response("no", { status: 401 });
    },
  );
  const docs = page("http:get:: /counters", `http://127.0.0.1:${server.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow, converted }) => {
    const asked = /Set before running: (\w+)/.exec(converted.stderr)?.[1];
    assert.ok(asked, converted.stderr);
    const run = await runFlow({ [asked]: "s3cret-view" });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  }, { docs: "counters.rst" });
  assert.deepEqual(seen, ["GET /counters"]);
});
