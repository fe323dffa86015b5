/**
 * `convertCurl`: a terminal transcript, commands after a `$ ` prompt with
 * what they printed pasted under them, is converted even where the printed
 * answer holds a quote the shell would read as opening one (httpbin's
 * `HTTP/1.0 418 I'M A TEAPOT`, `don't`, a lone `"` or backtick): the whole
 * text was refused as "Unterminated single quote". In a text with a `$ `
 * prompt, a line after a command that has ended (its quotes closed, no `\`,
 * its here-documents read) and before the next `$ ` line is what the command
 * printed, not a command (one starting with `curl` is one, written without
 * its prompt); an apostrophe there no longer swallows a later command. A
 * quote a prompted command leaves open, or one in a text with no
 * prompt, is still refused at its line and column.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const TEAPOT = "$ curl -I http://localhost:8000/status/418\nHTTP/1.0 418 I'M A TEAPOT\n";

Deno.test("an answer pasted under a prompted command may hold any quote", () => {
  const answers = [
    "HTTP/1.0 418 I'M A TEAPOT",
    '{\n  "message": "don\'t\n}',
    'say "hi',
    "`date",
    "HTTP/1.1 200 OK\nset-cookie: SID=x; path=/\ncurl: (7) couldn't connect",
  ];
  for (const answer of answers) {
    const text =
      `$ curl http://localhost:8000/get\n${answer}\n$ curl -X POST http://localhost:8000/post\n`;
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 2, `${text}\n${yaml}`);
    assert.match(yaml, /method: POST\n {6}url: \$\{vars\.base_url\}\/post/, yaml);
  }
});

Deno.test("a prompted command's own lines are its own: quotes, \\ lines, here-documents", () => {
  const texts = [
    `$ curl -d '{\n  "note": "ok"\n}' http://localhost:8000/post\nthat's the answer\n`,
    `$ curl -d "a=1" \\\n  http://localhost:8000/post\nit's done\n`,
    `$ curl -d @- http://localhost:8000/post <<'EOF'\n{"note": "it's mine"}\nEOF\nit's the answer\n`,
    `$ curl -d @- http://localhost:8000/post <<-EOF\n\t{"note": "it's mine"}\n\tEOF\nit's the answer\n`,
  ];
  for (const text of texts) {
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 1, `${text}\n${yaml}`);
    assert.match(yaml, /method: POST/, yaml);
  }
  const { yaml } = convertCurl(texts[2]);
  assert.match(yaml, /note: it's mine/, yaml);
});

Deno.test("an answer's quote never swallows a later command", () => {
  const text =
    `${TEAPOT}$ curl -H 'X-Trace: 1' http://localhost:8000/get\nit's ok\n$ curl -X DELETE 'http://localhost:8000/delete'\n`;
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 3, yaml);
  assert.match(yaml, /x-trace: "?1"?\n/, yaml);
  assert.match(yaml, /method: DELETE/, yaml);
  // What the commands printed is their answer, not a command to name as skipped.
  assert.deepEqual(summary.skipped, [], JSON.stringify(summary.skipped));
});

Deno.test("among prompted commands, one written without its prompt is a command", () => {
  const text =
    `$ curl http://localhost:8000/ip\n{"origin": "it's me"}\ncurl -X POST http://localhost:8000/post \\\n  -d 'a=1'\nthat's all\n# a comment\nTOKEN=x\n`;
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 2, yaml);
  assert.match(yaml, /form:\n {8}a: "?1"?/, yaml);
});

Deno.test("a text with no prompt, and a prompted one after a blank line, is shell", () => {
  const text = `export BASE=http://localhost:8000\ncurl "$BASE/ip"\n{"origin": "1"}\n`;
  const { summary } = convertCurl(text);
  // The JSON under the command is what it printed (curl_bare_answer_test.ts), no command.
  assert.deepEqual(summary.skipped, ["line 1: export"]);
  // Docs mix a prompted command with plain ones: after a blank line, a pipe into curl is sent.
  const mixed =
    `$ curl http://localhost:8000/health\n\n# a body piped from echo\necho '{"qty": 4}' | curl -X PATCH -H 'Content-Type: application/json' -d @- http://localhost:8000/items/9\n`;
  const { yaml } = convertCurl(mixed);
  assert.match(yaml, /method: PATCH[\s\S]*qty: 4/, yaml);
});

Deno.test("a quote left open is still refused at its line and column", () => {
  const texts = [
    ["$ curl -d 'a=1 http://localhost:8000/post\n", 1],
    // A bare `HTTP/1.0 418 I'M A TEAPOT` is an answer's head now (curl_header_token_test.ts).
    ["curl http://localhost:8000/get\necho I'M HERE\n", 2],
    [`${TEAPOT}$ curl -H 'X: 1 http://localhost:8000/get\n`, 3],
  ] as const;
  for (const [text, line] of texts) {
    assert.throws(() => convertCurl(text), (e: Error) => {
      assert.match(e.message, new RegExp(`Unterminated single quote at line ${line}, column`));
      return true;
    });
  }
});

Deno.test("a transcript's commands are sent, run against a server", async () => {
  const seen: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      seen.push(`${req.method} ${path} ${await req.text()}`);
      return path === "/status/418" ? new Response(null, { status: 418 }) : Response.json({});
    },
  );
  const text =
    `$ curl -d 'name=tea' http://localhost:8000/post\n{"form": {"name": "tea"}}\n${TEAPOT}`;
  await withCurlFlow(text, async ({ runFlow }) => {
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    const run = await runFlow(env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen, ["POST /post name=tea", "HEAD /status/418 "]);
  }, { docs: "session.sh" });
});
