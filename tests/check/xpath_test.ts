/**
 * XPath over XML and HTML bodies, in both spellings' check lists and in
 * captures: HTML read the way browsers read it (unclosed tags, void
 * elements, unquoted attributes), XML as it is; one node is its text,
 * several are a list, functions give their value, nothing is "nothing
 * matched".
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlow } from "../../lib/run/flows.ts";
import "../support/engines.ts";

const HTML = `<!doctype html><html><head><title>Log in</title>
<meta name="csrf-token" content="tok-9"></head><body><form action=/login>
<input name=user><br><input name=password type=password></form>
<ul class=menu><li>Home<li>About &amp; more</ul><script>if (a < b && c) {}</script></body></html>`;

const XML = `<?xml version="1.0"?><feed><entry id="1"><title>A &amp; B</title></entry>
<entry id="2"><title>C</title></entry></feed>`;

function serve() {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/feed"
        ? new Response(XML, { headers: { "content-type": "application/atom+xml" } })
        : new Response(HTML, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("XPath checks and captures on an HTML page and an XML feed", async () => {
  const api = serve();
  try {
    const { flow, problems } = loadFlow(
      `name: x
steps:
  - name: page
    request: {url: "${api.url}/login"}
    capture: {csrf: {xpath: "string(//meta[@name='csrf-token']/@content)"}, items: {xpath: "//li"}}
    assert:
      json:
        - {xpath: "//title", equals: Log in}
        - {xpath: "count(//input)", equals: 2}
        - {xpath: "//input[@type='password']/@name", equals: password, name: a password field}
        - {xpath: "//ul[@class='menu']/li", equals: [Home, About & more]}
        - {xpath: "//script", matches: "a < b"}
        - {xpath: "//table", exists: false}
  - name: polled
    request: {url: "${api.url}/login"}
    loop: {max_attempts: 2, sleep_ms: 10, until: {json: [{xpath: "//title", equals: Log in}]}}
  - name: feed
    request: {url: "${api.url}/feed", headers: {x-csrf: "\${steps.page.csrf}"}}
    assert:
      jsonpath:
        - {xpath: "//entry/title", equals: ["A & B", C]}
        - {xpath: "string(//entry[@id='2']/title)", equals: C}
        - {xpath: "//missing", equals: x}
        - {xpath: "//entry[", exists: true}
`,
      "x.yaml",
    );
    assert.deepEqual(problems, []);
    const result = await runFlow(flow!, { runId: "r" });
    const [page, polled, feed] = result.steps;
    assert.equal(polled.status, "passed", polled.message);
    assert.equal(polled.attempts, 1);
    assert.equal(page.status, "passed", page.assertions.map((a) => a.message).join("\n"));
    assert.deepEqual(page.captures, ["csrf", "items"]);
    assert.equal(
      page.assertions[2].message,
      "a password field: xpath //input[@type='password']/@name: equals \"password\" holds",
    );
    assert.deepEqual(
      feed.assertions.map((a) => [a.passed, a.message]),
      [
        [true, 'xpath //entry/title: equals ["A & B","C"] holds'],
        [true, `xpath string(//entry[@id='2']/title): equals "C" holds`],
        [false, "xpath //missing: //missing matched nothing"],
        [false, feed.assertions[3].message],
      ],
    );
    assert.match(
      feed.assertions[3].message,
      /^xpath \/\/entry\[: the XPath "\/\/entry\[" is invalid/,
    );
  } finally {
    await api.close();
  }
});

Deno.test("an XPath check inside a group is a positioned problem", () => {
  const { problems } = loadFlow(
    `name: x\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    assert:\n      json:\n        - at: $.json.a\n          checks: [{xpath: //a, exists: true}]\n`,
    "x.yaml",
  );
  assert.deepEqual(problems.map((p) => `${p.line}:${p.column} ${p.code}`), ["8:20 wrong-type"]);
  assert.match(problems[0].message, /An XPath check in .* cannot be inside a group/);
});
