/**
 * `convertCurl`: sentences a page's prose starts with a lower-case word or an
 * HTML tag. A service-virtualisation tool's getting-started page, served by
 * the tool itself, names the tool in lower case at a paragraph's start
 * ("toolname can stub binary tcp too … we're telling the imposter …:"): read
 * as shell, its `we're` opened a quote that swallowed the next command, which
 * was dropped without a word (5 of 6 commands). Saved as HTML, its paragraphs
 * start with `<p>` ("<p>Let's test it out:</p>") and wrap over lines that
 * start lower case: three of six commands were lost. A line outside any
 * command whose first three words are lower case, or that starts with an HTML
 * tag, and that holds an apostrophe inside a word, no option, no URL and no
 * curl run, is a sentence, as a capitalised one was. Run against a server
 * started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The rendered page as a reader copies it: a paragraph starting with a lower-case name. */
const RENDERED = [
  "stubber answers on port 2525, but that's not where your doubles listen.",
  "",
  "curl -i -X POST -H 'Content-Type: application/json' http://HOST/doubles --data '{",
  '  "port": 4545',
  "}'",
  "",
  "stubber can fake binary protocols too, which helps when your app talks to one. Here we're telling the double what to send back:",
  "",
  "curl -i -X POST -H 'Content-Type: application/json' http://HOST/doubles --data '{",
  '  "port": 5555',
  "}'",
  "",
  "We'll use nc to send it a request.",
  "",
  "curl -X DELETE http://HOST/doubles/4545",
  "curl -X DELETE http://HOST/doubles/5555",
  "",
].join("\n");

/** The same page saved as HTML: paragraphs start with tags and wrap lower case. */
const SAVED = [
  "<!DOCTYPE html>",
  "<html><body>",
  "<p>By default stubber answers on port 2525, but that's not where your doubles",
  "listen.  Let's make one:</p>",
  "",
  "<pre><code>curl -i -X POST -H 'Content-Type: application/json' http://HOST/doubles --data '{",
  '  "port": 4545',
  "}'</code></pre>",
  "",
  "<p>Let's test it out:</p>",
  "",
  "<pre><code>curl -i http://HOST/doubles/4545</code></pre>",
  "",
  "<p>Had we not matched the predicates, we would have received",
  "the default answer.  For instance, let's leave off the header:</p>",
  "",
  "<pre><code>curl -i http://HOST/doubles</code></pre>",
  "",
  "<p>stubber can fake binary protocols too.  That string is what you",
  "send.  In the example below, we're telling the double what to answer:</p>",
  "",
  "<pre><code>curl -i -X POST -H 'Content-Type: application/json' http://HOST/doubles --data '{",
  '  "port": 5555',
  "}'</code></pre>",
  "",
  "<pre><code>curl -X DELETE http://HOST/doubles/4545",
  "curl -X DELETE http://HOST/doubles/5555</code></pre>",
  "<p>Don't hesitate to ask.</p>",
  "</body></html>",
  "",
].join("\n");

/** What a command a sentence wrote in lower case still is: shell, its quote closed on its line. */
const COMMANDS = [
  "sudo systemctl restart stubber",
  "curl -X POST http://HOST/doubles -d 'name=it'",
  `echo "it's up" && curl http://HOST/doubles/4545`,
  "",
].join("\n");

/** The request lines of each step's comment, in order. */
function requests(yaml: string): string[] {
  return [...yaml.matchAll(/\n {2}# ([A-Z]+ \S+)\n/g)].map((m) => m[1]);
}

Deno.test("a sentence starting lower case or with a tag swallows no command", () => {
  const host = "127.0.0.1:2525";
  const rendered = convertCurl(RENDERED.replaceAll("HOST", host));
  assert.deepEqual(requests(rendered.yaml), [
    "POST http://127.0.0.1:2525/doubles",
    "POST http://127.0.0.1:2525/doubles",
    "DELETE http://127.0.0.1:2525/doubles/4545",
    "DELETE http://127.0.0.1:2525/doubles/5555",
  ]);
  const saved = convertCurl(SAVED.replaceAll("HOST", host));
  assert.equal(saved.summary.steps, 6, saved.yaml);
});

Deno.test("a command whose words are lower case is still shell", () => {
  // `echo "it's up" && curl …` runs curl: the line stays shell, and its curl is a step.
  const { yaml } = convertCurl(COMMANDS.replaceAll("HOST", "a.test"));
  assert.deepEqual(requests(yaml), [
    "POST http://a.test/doubles",
    "GET http://a.test/doubles/4545",
  ]);
});

Deno.test("run against a server: every command of both copies is sent", async () => {
  for (const [docs, expected] of [[RENDERED, 4], [SAVED, 6]] as const) {
    const sent: string[] = [];
    await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      await req.arrayBuffer();
      sent.push(`${req.method} ${new URL(req.url).pathname}`);
      return Response.json({ ok: true });
    });
    const text = docs.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
    await withCurlFlow(text, async ({ runFlow }) => {
      const run = await runFlow();
      assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
    });
    assert.equal(sent.length, expected, sent.join("\n"));
  }
});
