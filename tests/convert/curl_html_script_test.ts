/**
 * `convert curl`: a saved or installed HTML page's `<script>` and `<style>` elements. A
 * documentation theme ends every page of an identity service's HTML docs with a script whose
 * comments and strings say "Can't derive source file URL", "the project's launchpad bug tag":
 * read as shell, the apostrophe opened a quote never closed and the page's 19 commands were
 * refused ("Unterminated single quote"). An element opened at a line's start (blanks first) is
 * code of its own language, left out line for line, as a code block in another language is;
 * a command whose body holds `<script>` (a page about escaping) is still the command, and a tag
 * never closed (an embedding snippet) hides its own line only.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** A page with a command in `<pre>` between a style and two scripts. */
const page = (origin: string) =>
  `<!DOCTYPE html>
<html><head>
  <style>
    /* the theme's colours: don't change them */
    pre { color: #333 }
  </style>
  <script type="text/javascript" src="_static/doctools.js"></script>
</head><body>
<p>List the domains:</p>
<div class="highlight-bash notranslate"><div class="highlight"><pre><span></span>curl<span class="w"> </span>-s<span class="w"> </span><span class="s2">&quot;${origin}/v3/domains&quot;</span>
</pre></div>
</div>
<p>Echo a tag back:</p>
<pre>curl -s -d '&lt;script&gt;x&lt;/script&gt;' ${origin}/echo</pre>
<script language="JavaScript">
    var gitURL = "Source: Can't derive source file URL";
    /* the project's bug tag */
</script>
</body></html>
`;

Deno.test("a page's <script> and <style> elements are no shell", () => {
  const { yaml, summary } = convertCurl(page("http://a.test"));
  assert.equal(summary.steps, 2, yaml);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/v3\/domains\n/, yaml);
});

Deno.test("a <script> never closed hides only its own line", () => {
  // A Markdown page showing how to embed a widget: the tag alone, no end tag in the text.
  const text = 'Embed it:\n\n```html\n<script src="widget.js">\n```\n\n' +
    "curl -s http://a.test/widgets\n\ncurl -s http://a.test/widgets/1\n";
  const { summary } = convertCurl(text);
  assert.equal(summary.steps, 2);
});

Deno.test("run: both commands send what the page shows", async () => {
  const got: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      got.push(`${req.method} ${new URL(req.url).pathname} ${await req.text()}`);
      return Response.json({ domains: [] });
    },
  );
  await withCurlFlow(page(`http://127.0.0.1:${server.addr.port}`), async ({ runFlow }) => {
    const out = await runFlow();
    assert.equal(out.code, 0, out.stdout + out.stderr);
  }, { docs: "domains.html" });
  assert.deepEqual(got, ["GET /v3/domains ", "POST /echo <script>x</script>"]);
});
