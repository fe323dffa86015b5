/**
 * `convertCurl`: curl's own error line pasted under a command. A remote
 * control page runs `curl -f` and pastes `curl: (22) The requested URL
 * returned error: 400 Bad Request`; the step checked below 400 and the
 * documented refusal failed the run. `(22)`'s status is the step's check
 * now, however the line is pasted (bare under the command in a fence, in a
 * `#` comment, under a `$` prompt). A line saying the command got no answer
 * at all (`(7) Failed to connect`, `(6) Could not resolve host`, `(28)`,
 * `(52)`, `(56)`, `(35)`, `(60)`) shows the docs' server gone or never
 * reached: no step can check that, so the command is left out with a note
 * naming its line (unless an answer is pasted beside it); any other code
 * changes nothing. `curl: (7) Couldn't connect to server` bare under a
 * command refused the whole text before ("Unterminated single quote"): the
 * line is printed, never shell. Run against a server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The steps' status checks, in order. */
function statuses(yaml: string): string[] {
  return [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);
}

const DOCS = [
  "```",
  "curl -f -X POST http://HOST/rc/noop -d 'a=1'",
  "```",
  "",
  "```",
  "curl -f -X POST http://HOST/rc/error",
  "curl: (22) The requested URL returned error: 400 Bad Request",
  "```",
  "",
  "curl --fail http://HOST/missing",
  "# curl: (22) The requested URL returned error: 404",
  "",
  "$ curl -sf http://HOST/missing",
  "curl: (22) The requested URL returned error: 404 Not Found",
  "",
  "Stop it, then it answers nothing:",
  "",
  "```",
  "curl -X POST http://HOST/core/quit",
  "curl -X POST http://HOST/rc/noop",
  "curl: (7) Failed to connect to HOST port 80 after 0 ms: Connection refused",
  "```",
  "",
].join("\n");

Deno.test("curl's (22) line is the status the step checks", () => {
  const { yaml, summary } = convertCurl(DOCS.replaceAll("HOST", "127.0.0.1:5572"));
  assert.deepEqual(statuses(yaml), ["{ lt: 400 }", "400", "404", "404", "{ lt: 400 }"], yaml);
  assert.equal(summary.steps, 5, yaml);
  const left = summary.notes.filter((n) => /left out/.test(n));
  assert.equal(left.length, 1, summary.notes.join("\n"));
  assert.match(left[0], /\(line 20\).*curl: \(7\) Failed to connect.*\(line 21\)/);
});

Deno.test("every no-answer code leaves its command out; other codes change nothing", () => {
  const lines = [
    "curl: (6) Could not resolve host: api.example",
    "curl: (28) Operation timed out after 5001 milliseconds with 0 bytes received",
    "curl: (52) Empty reply from server",
    "curl: (56) Recv failure: Connection reset by peer",
    "curl: (35) OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to a.test:443",
    "curl: (60) SSL certificate problem: self-signed certificate",
    "curl: (7) Couldn't connect to server",
  ];
  for (const line of lines) {
    const text = `curl http://a.test/a\ncurl http://a.test/b\n${line}\n`;
    const { summary } = convertCurl(text);
    assert.equal(summary.steps, 1, line);
  }
  const read = "curl -d @body.json http://a.test/a\ncurl: (26) Failed to open/read local data\n";
  assert.deepEqual(statuses(convertCurl(read).yaml), ["{ lt: 400 }"]);
  // An answer pasted beside the line shows one came back: the command stays.
  const answered = "curl http://a.test/a\nHTTP/1.1 200 OK\ncurl: (7) Couldn't connect to server\n";
  assert.equal(convertCurl(answered).summary.steps, 1);
  // A pasted head is the command's own status, before curl's line.
  const head =
    "curl -i -f http://a.test/a\nHTTP/1.1 409 Conflict\ncurl: (22) The requested URL returned error: 409\n";
  assert.deepEqual(statuses(convertCurl(head).yaml), ["409"]);
});

Deno.test("run against a server: the refusals pass as documented, the unreached is not sent", async () => {
  const sent: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    const path = new URL(req.url).pathname;
    sent.push(path);
    if (path === "/rc/noop") return Response.json({ a: "1" });
    if (path === "/rc/error") return Response.json({ error: "arbitrary" }, { status: 400 });
    if (path === "/core/quit") return Response.json({});
    return new Response("404 page not found", { status: 404 });
  });
  const docs = DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
  assert.deepEqual(sent, ["/rc/noop", "/rc/error", "/missing", "/missing", "/core/quit"]);
});
