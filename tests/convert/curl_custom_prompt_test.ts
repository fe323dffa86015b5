/**
 * `convertCurl`: prompts no theme list names. Docs paste sessions typed at
 * Python's `>>> ` (a notebook's `!curl` aside), a tool's own
 * `[tool_cmd]>>:  `, a virtualenv's `(venv) $ `, `bash-5.1$ `, a container's
 * `sh-4.2# `, macOS zsh's `me@mac ~ % `, `redis 127.0.0.1:6379> `. Each
 * command was dropped (the line read as a program named `>>>`, or as prose),
 * and the answer printed under it was read as shell: its apostrophe opened a
 * quote that swallowed the next command. A line's first words ending in a
 * prompt's mark (`>`, `$`, `#`, `%`, `:`), with no quote, pipe, `;`, `&`,
 * `=` or `\` among them, right before `curl` and what starts curl's words (an
 * option, a URL, a host and port, `localhost`, a `$VARIABLE`), are a prompt
 * now, read as `$ ` is; a sentence's label ("Note: curl -X POST is needed"), a
 * heading's `## curl …`, PowerShell's `PS> ` and cmd.exe's `C:\> ` keep their
 * own readings. Run against a server started
 * here that counts what it is sent.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Each prompt, as docs paste it before a command. */
const PROMPTS = [
  ">>>",
  "[tool_cmd]>>:",
  "(venv) $",
  "bash-5.1$",
  "sh-4.2#",
  "me@mac ~ %",
  "redis 127.0.0.1:6379>",
  "mongo>",
];

/** A session per prompt: the command, then what it printed, an apostrophe in it. */
const session = (host: string) =>
  PROMPTS.map((prompt, i) =>
    [
      `${prompt} curl -s http://${host}/items/${i}`,
      `item ${i}: it's here`,
      "",
    ].join("\n")
  ).join("\n");

Deno.test("each prompt's command is a step, what it printed no shell", () => {
  const { yaml, summary } = convertCurl(session("a.test"));
  assert.equal(summary.steps, PROMPTS.length, yaml);
  for (let i = 0; i < PROMPTS.length; i++) assert.match(yaml, new RegExp(`/items/${i}\\n`));
});

Deno.test("a heading, a sentence's label and a comment keep their readings", () => {
  const docs = [
    "## curl http://a.test/heading",
    "Note: curl -X POST is needed here.",
    "curl http://a.test/kept",
    "# curl http://a.test/commented-out",
    "echo done > out.txt",
  ].join("\n");
  const { yaml, summary } = convertCurl(docs);
  assert.equal(summary.steps, 1, yaml);
  assert.match(yaml, /\/kept\n/);
});

Deno.test("run against a server: every prompted command is sent once", async () => {
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(new URL(req.url).pathname);
    return new Response("it's here\n");
  });
  await withCurlFlow(session(`127.0.0.1:${s.addr.port}`), async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
  assert.deepEqual(seen, PROMPTS.map((_, i) => `/items/${i}`));
});
