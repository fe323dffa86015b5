/**
 * `convertCurl`: answers docs write after an arrow or annotate. READMEs print
 * a command's result as `# => {…}` (Ruby's habit) or `// => {…}`, on the
 * command's own line or the lines under it; API pages print the answer under
 * `// Result` with `// 2` notes on its values, trailing commas and `...` for
 * what they leave out (an Ethereum node's JSON-RPC page prints
 * `"result": "0x2" // 2`). None of them was read: a value such an answer
 * handed out and a later command sends (a created id, an account) was sent
 * as the docs' own, which no other instance knows, and `// =>` on a command's
 * line became three more words of curl's. Each is that command's recorded
 * answer now, so the value is captured from it. Run against a server started
 * here that hands out a new id at each create and knows no other.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Each way the docs print an answer, the id it shows, and the command sending it back. */
const SHAPES: Record<string, string> = {
  "`# =>` on the line under": [
    "curl -X POST http://HOST/notes -d 'text=a'",
    '# => {"id": "n0te0000aaaa1111", "text": "a"}',
    "curl http://HOST/notes/n0te0000aaaa1111",
  ].join("\n"),
  "`#=>` on the command's line": [
    `curl -X POST http://HOST/notes -d 'text=b' #=> {"id": "n0te0000bbbb2222"}`,
    "curl http://HOST/notes/n0te0000bbbb2222",
  ].join("\n"),
  "`// =>` on the command's line": [
    `curl -X POST http://HOST/notes -d 'text=c' // => {"id": "n0te0000cccc3333"}`,
    "curl http://HOST/notes/n0te0000cccc3333",
  ].join("\n"),
  "`// =>` over lines, with an apostrophe": [
    "curl -X POST http://HOST/notes -d 'text=d'",
    '// => {"id": "n0te0000dddd4444",',
    '//     "text": "it\'s d"}',
    "curl http://HOST/notes/n0te0000dddd4444",
  ].join("\n"),
  "`// Result` over annotated JSON": [
    "// Request",
    "curl -X POST http://HOST/notes -d 'text=e'",
    "// Result",
    "{",
    '  "id": "n0te0000eeee5555", // the new note\'s id',
    '  "tags": [...],',
    '  "meta": { ... },',
    '  "size": "0x2", // 2',
    "}",
    "",
    "curl http://HOST/notes/n0te0000eeee5555",
  ].join("\n"),
  "`$` prompt, answer with `...` for a value": [
    "$ curl -X POST http://HOST/notes -d 'text=f'",
    '{"id": "n0te0000ffff6666", "created": ..., "text": "f",}',
    "$ curl http://HOST/notes/n0te0000ffff6666",
  ].join("\n"),
};

/** The flow's YAML without its comment lines (each step's comment shows the URL as typed). */
const uncommented = (yaml: string) => yaml.split("\n").filter((l) => !/^\s*#/.test(l)).join("\n");

Deno.test("each answer shape makes the id a capture from the create", () => {
  for (const [shape, docs] of Object.entries(SHAPES)) {
    const { yaml, summary } = convertCurl(docs.replaceAll("HOST", "a.test"));
    const flow = uncommented(yaml);
    assert.equal(summary.steps, 2, `${shape}: ${yaml}`);
    assert.match(flow, /capture:\n\s+(\w+): \$\.json\.id\n/, `${shape}: ${yaml}`);
    const name = /capture:\n\s+(\w+): \$\.json\.id\n/.exec(flow)![1];
    assert.match(
      flow,
      new RegExp(`url: .*/notes/\\$\\{steps\\.\\w+\\.capture\\.${name}\\}`),
      shape,
    );
    assert.doesNotMatch(flow, /n0te0000/, `${shape}: ${yaml}`);
  }
});

Deno.test("`// =>` and a `//` line are no words of curl's", () => {
  const { yaml, summary } = convertCurl(SHAPES["`// =>` on the command's line"]
    .replaceAll("HOST", "a.test"));
  assert.equal(summary.steps, 2, yaml);
  assert.doesNotMatch(uncommented(yaml), /=>|^\s+url: .*\/\//m, yaml);
});

Deno.test("a body is sent as typed, a `//` in its quotes or here-document kept", () => {
  const docs = `curl -X POST http://a.test/notes -d '{"text": "see // => not an answer"}'\n`;
  assert.match(convertCurl(docs).yaml, /text: see \/\/ => not an answer/);
  const heredoc = "curl -X POST http://a.test/notes --data-binary @- <<EOF\n// a line\nEOF\n";
  assert.match(convertCurl(heredoc).yaml, /\/\/ a line/);
});

Deno.test("run against a server: every create's id is the one sent back", async () => {
  const notes = new Map<string, string>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/notes") {
      const id = `n${crypto.randomUUID().replaceAll("-", "").slice(0, 15)}`;
      notes.set(id, new URLSearchParams(await req.text()).get("text") ?? "");
      return Response.json({ id, text: notes.get(id) }, { status: 201 });
    }
    const id = path.split("/")[2] ?? "";
    return notes.has(id)
      ? Response.json({ id, text: notes.get(id) })
      : Response.json({ error: "no such note" }, { status: 404 });
  });
  const docs = Object.values(SHAPES).join("\n\n").replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /12 steps: 12 passed/);
  });
  assert.equal(notes.size, 6);
});
