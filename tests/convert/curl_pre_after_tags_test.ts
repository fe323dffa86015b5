/**
 * `convert curl`: a page built by a documentation generator opens each code block's `<pre>`
 * after other tags on the same line: Sphinx writes `<div class="highlight-bash notranslate"><div
 * class="highlight"><pre><span></span>$<span class="w"> </span>curl…`, MkDocs
 * `<div class="highlight"><pre><span></span><code>curl…`. The tags inside `<pre>` were left out,
 * but the `<div>`s before it stayed at the head of the command's line, so no line started with
 * a prompt or `curl` and a cluster manager's whole REST API page (eleven commands, the HTML its
 * Debian package installs) was refused: "The input holds no curl command". Tags alone before
 * `<pre>` on its line are left out too; a line's words before it are kept as written. Run here
 * against a server that checks what each command sends.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** A page in the shape such a generator writes, in our words: a prompt, an answer, a body. */
const page = (origin: string) =>
  `<!DOCTYPE html>
<html><body>
<section id="settings">
<h2>Settings<a class="headerlink" href="#settings" title="Permalink to this heading">¶</a></h2>
<p><code class="docutils literal notranslate"><span class="pre">GET</span> <span class="pre">/settings</span></code>: read them. It&#39;s cheap:</p>
<div class="highlight-bash notranslate"><div class="highlight"><pre><span></span>$<span class="w"> </span>curl<span class="w"> </span>-s<span class="w"> </span>${origin}/settings<span class="w"> </span><span class="p">|</span><span class="w"> </span>jq<span class="w"> </span>.
<span class="o">{</span>
<span class="w">  </span><span class="s2">&quot;size&quot;</span>:<span class="w"> </span><span class="m">2</span>
<span class="o">}</span>
</pre></div>
</div>
<p>Change one:</p>
<div class="highlight-bash notranslate"><div class="highlight"><pre><span></span>$<span class="w"> </span>curl<span class="w"> </span>-s<span class="w"> </span>-XPATCH<span class="w"> </span>-d<span class="w"> </span><span class="se">\\</span>
<span class="w">    </span><span class="s1">&#39;{&quot;size&quot;:3}&#39;</span><span class="w"> </span><span class="se">\\</span>
<span class="w">    </span>${origin}/settings
</pre></div>
</div>
<div class="highlight"><pre><span></span><code>curl -X DELETE ${origin}/settings/size
</code></pre></div>
</section>
</body></html>
`;

Deno.test("commands in <pre> opened after a generator's <div>s on its line are converted", () => {
  const { yaml, summary } = convertCurl(page("http://a.test"));
  assert.equal(summary.steps, 3, yaml);
  assert.match(yaml, /method: PATCH/, yaml);
  assert.match(yaml, /method: DELETE/, yaml);
});

Deno.test("words before <pre> on its line are kept as written", async () => {
  const { htmlCodeText } = await import("../../lib/convert/curl_html_code.ts");
  assert.equal(htmlCodeText("See this: <pre>curl a.test</pre>\n"), "See this: curl a.test\n");
  assert.equal(
    htmlCodeText('<div class="x">\n<div><pre>curl a.test</pre>\n'),
    '<div class="x">\ncurl a.test\n',
  );
});

Deno.test("run: each command sends what the page shows", async () => {
  const got: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const url = new URL(req.url);
      got.push(`${req.method} ${url.pathname} ${await req.text()}`);
      return Response.json({ size: 2 });
    },
  );
  const docs = page(`http://127.0.0.1:${server.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    const out = await runFlow();
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.deepEqual(got, [
      "GET /settings ",
      'PATCH /settings {"size":3}',
      "DELETE /settings/size ",
    ]);
  }, { docs: "settings.html" });
});
