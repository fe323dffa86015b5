/**
 * `convert curl`: commands a Markdown page writes inside HTML code blocks
 * (`<pre><code class="cmd bash">curl localhost:2019/config/</code></pre>`),
 * as a web server's API pages do to style them. The tags stood on each
 * command's line, so no line started with `curl`: of a tutorial's twelve
 * commands none was converted, and the one step written came from prose
 * (`` **`curl ... | jq`** ``, sent to a host named `...`). Inside `<pre>`
 * the text is read as a reader copies it: tags left out, `&lt;`, `&amp;`,
 * `&quot;` and numeric references read, line numbers kept. A URL whose host
 * is dots alone is an elision, skipped with a note. Run here against a
 * server that checks what each command sends.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** A page in the style of such docs: front matter, HTML blocks, an answer printed under a command. */
const page = (origin: string) =>
  `---
title: "Shelf API"
---

# Shelf API

<aside class="tip">

You can pipe answers to the [\`jq\` tool](https://jq.test/) to pretty-print them: **\`curl ... | jq\`**

</aside>

Add a book:

<pre><code class="cmd bash">curl ${origin}/books \\
	-H "Content-Type: application/json" \\
	-d '{"title": "Tom &amp; Jerry", "note": "&lt;b&gt; &#169;"}'</code></pre>

Find it again:

<pre><code class="cmd"><span class="bash">curl "${origin}/search?q=tom&amp;limit=2"</span>
[{"title": "Tom & Jerry", "note": "<b> ©"}]</code></pre>

Remove it:

<PRE><code class="cmd bash">curl -X DELETE ${origin}/books/1</code></PRE>
`;

Deno.test("commands inside <pre> blocks are converted as a reader copies them", () => {
  const { yaml, summary } = convertCurl(page("http://a.test"));
  assert.equal(summary.steps, 3, yaml);
  assert.match(yaml, /body:\n\s+title: Tom & Jerry\n\s+note: <b> ©\n/, yaml);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/search\?q=tom&limit=2\n/, yaml);
  assert.ok(!yaml.includes("..."), yaml);
  assert.ok(
    summary.notes.some((n) => n.includes('"..." is not an http(s) URL')),
    summary.notes.join(),
  );
});

Deno.test("text with no <pre> is read as before, and a lone tag is kept", () => {
  const { yaml } = convertCurl("curl 'http://a.test/x?a=1&amp;b=2'\n");
  assert.match(yaml, /amp;b/, yaml);
});

Deno.test("run: each command sends what the page shows", async () => {
  const got: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const url = new URL(req.url);
      got.push(`${req.method} ${url.pathname}${url.search} ${await req.text()}`);
      return Response.json({ ok: true });
    },
  );
  const docs = page(`http://127.0.0.1:${server.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    const out = await runFlow();
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.deepEqual(got, [
      `POST /books {"title":"Tom & Jerry","note":"<b> ©"}`,
      "GET /search?q=tom&limit=2 ",
      "DELETE /books/1 ",
    ]);
  }, { docs: "api.md" });
});
