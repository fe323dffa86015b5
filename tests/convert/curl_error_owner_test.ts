/**
 * `convertCurl`: whose run curl's own error line shows. Real troubleshooting
 * pages paste `curl: (7) Failed to connect … Connection refused` in two ways
 * the rule that leaves such a command out did not tell apart. Under the
 * command, or in the block of its own run ("Result:", a `$` prompt), it is
 * what the docs' run of it printed: the command is left out, as before. Under
 * a sentence that sets a condition or hedges ("If it is NOT working:", "If
 * your node is not running, it will return something like:", "You may
 * see:"), after the command's own answer, it is another case's: the page's
 * command answers on a running server, and leaving it out converted a page
 * whose one command works into "no curl command". A line in another section
 * (after a `##` heading or a rule: a page explaining "Connection refused"
 * after its examples) is no command's either; it left out the last example
 * above it, however far. `(22)`'s status follows the same rule. Run against
 * a server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";
import { assertLinear } from "../support/timing.ts";

/** The steps' status checks, in order. */
function statuses(yaml: string): string[] {
  return [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);
}

const REFUSED = "curl: (7) Failed to connect to HOST port 80: Connection refused";

/** A page whose commands each run, with (7) lines that are other cases' or no command's. */
const WORKING = [
  "## Check the app answers",
  "",
  "```bash",
  "curl http://HOST/health",
  "```",
  "",
  "What you should see:",
  "- If it is working: some HTML",
  "  ```html",
  "  <!DOCTYPE html>",
  "  ```",
  "- **If it is NOT working:**",
  "  ```",
  `  ${REFUSED}`,
  "  ```",
  "",
  "```",
  `curl -d '{"id":1,"method":"rotate"}' http://HOST/rpc`,
  "```",
  "If your node is running, this should return:",
  "```",
  '{"result":"0xa0","id":1}',
  "```",
  "If your node is not running, it will return something like:",
  "```",
  REFUSED,
  "```",
  "",
  "```",
  "curl -f http://HOST/items",
  "```",
  "",
  "You may see this when the server is still starting:",
  "",
  "    curl: (22) The requested URL returned error: 503",
  "",
  "## Connection refused and timeouts",
  "",
  "Connection refused means nothing listens on the port.",
  "",
  "```text",
  REFUSED,
  "curl: (28) Failed to connect to 10.0.0.10 port 80 after 10000 ms: Timeout was reached",
  "```",
  "",
].join("\n");

/** The docs' own run of each command printed the line: each is left out, as before. */
const UNREACHED = [
  "Check it from the host:",
  "",
  "```bash",
  "curl -I http://HOST/wiki",
  "```",
  "",
  "Result:",
  "",
  "```text",
  REFUSED,
  "```",
  "",
  "If you see something like this:",
  "",
  "```",
  "➜ curl -v http://HOST/other",
  "*   Trying 10.0.0.1:80...",
  REFUSED,
  "```",
  "",
  "$ curl http://HOST/third",
  REFUSED,
  "",
  "```",
  "curl http://HOST/health",
  "```",
].join("\n");

Deno.test("a (7) line a condition, a hedge or another section brings is no command's run", () => {
  const { yaml, summary } = convertCurl(WORKING.replaceAll("HOST", "127.0.0.1:9933"));
  assert.equal(summary.steps, 3, yaml);
  assert.deepEqual(statuses(yaml), ["{ lt: 400 }", "{ lt: 400 }", "{ lt: 400 }"], yaml);
  assert.deepEqual(summary.notes.filter((n) => /left out|as documented/.test(n)), []);
});

Deno.test("a (7) line under the command, or in the block of its own run, still leaves it out", () => {
  const { yaml, summary } = convertCurl(UNREACHED.replaceAll("HOST", "127.0.0.1:9933"));
  assert.equal(summary.steps, 1, yaml);
  assert.match(yaml, /\/health/);
  assert.equal(summary.notes.filter((n) => /left out/.test(n)).length, 3, summary.notes.join("\n"));
  // A (22) under a sentence with no condition is the docs' run: its status is the check.
  const shown =
    "```\ncurl -f http://a.test/k\n```\n\nOutput:\n\n```\ncurl: (22) The requested URL returned error: 404\n```\n";
  assert.deepEqual(statuses(convertCurl(shown).yaml), ["404"]);
});

Deno.test("run against a server: every command of the working page is sent and passes", async () => {
  const sent: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    const path = new URL(req.url).pathname;
    sent.push(path);
    if (path === "/rpc") return Response.json({ result: "0xb1", id: 1 });
    return Response.json({ ok: true });
  });
  const docs = WORKING.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
  assert.deepEqual(sent, ["/health", "/rpc", "/items"]);
});

Deno.test("error lines are owned in linear time", () => {
  const texts = new Map<number, string>();
  const text = (n: number) =>
    "curl http://a.test/a\n" + "If it is down:\n".repeat(n) + `${REFUSED}\n`.repeat(n);
  for (const n of [1000, 2000, 4000, 8000]) texts.set(n, text(n));
  assertLinear("curl error owners", (n) => convertCurl(texts.get(n)!), 1000, 8);
});
