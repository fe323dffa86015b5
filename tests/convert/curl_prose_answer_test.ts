/**
 * `convertCurl`: answers a comment's prose introduces. READMEs print what a
 * command answered after a few words, not an arrow: `// You got {"id": …}`,
 * `# returns {…}`, `# Output: {…}`, `# Response: 201 Created`. Such a
 * comment was read as prose, so an id the create handed out and a later
 * command sends back was sent as the docs' own (unknown to any other
 * instance), and a stated 201 or 204 was checked only as below 400. A
 * comment whose prose is followed by JSON that parses, or by a status line
 * (`HTTP/1.1 201 Created`, or a code with its standard reason), is that
 * command's pasted answer now; prose that only describes ("returns the list
 * of notes"), or sets a condition ("if it is missing: {…}", another case's),
 * stays prose. Run against a server started here that hands out a new id at
 * each create and knows no other.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Each way prose introduces an answer, the id it shows, and the command sending it back. */
const SHAPES: Record<string, string> = {
  "`// You got` under the command": [
    "curl -X POST http://HOST/notes -d 'text=a'",
    '// You got {"id": "n0te0000aaaa1111", "text": "a", ...}',
    "curl http://HOST/notes/n0te0000aaaa1111",
  ].join("\n"),
  "`# returns` under the command": [
    "curl -X POST http://HOST/notes -d 'text=b'",
    '# returns {"id": "n0te0000bbbb2222", "text": "b"}',
    "curl http://HOST/notes/n0te0000bbbb2222",
  ].join("\n"),
  "`# Output:` under the command": [
    "curl -X POST http://HOST/notes -d 'text=c'",
    '# Output: {"id": "n0te0000cccc3333"}',
    "curl http://HOST/notes/n0te0000cccc3333",
  ].join("\n"),
  "`# Response ->` over lines": [
    "curl -X POST http://HOST/notes -d 'text=d'",
    '# Response -> {"id": "n0te0000dddd4444",',
    '#               "text": "d"}',
    "curl http://HOST/notes/n0te0000dddd4444",
  ].join("\n"),
  "`# returns` on the command's line": [
    `curl -X POST http://HOST/notes -d 'text=e' # returns {"id": "n0te0000eeee5555"}`,
    "curl http://HOST/notes/n0te0000eeee5555",
  ].join("\n"),
  "`# Response:` over the JSON": [
    "curl -X POST http://HOST/notes -d 'text=f'",
    "# Response:",
    '# {"id": "n0te0000ffff6666"}',
    "curl http://HOST/notes/n0te0000ffff6666",
  ].join("\n"),
};

/** The flow's YAML without its comment lines (each step's comment shows the URL as typed). */
const uncommented = (yaml: string) => yaml.split("\n").filter((l) => !/^\s*#/.test(l)).join("\n");

Deno.test("each prose-introduced answer makes the id a capture from the create", () => {
  for (const [shape, docs] of Object.entries(SHAPES)) {
    const { yaml, summary } = convertCurl(docs.replaceAll("HOST", "a.test"));
    const flow = uncommented(yaml);
    assert.equal(summary.steps, 2, `${shape}: ${yaml}`);
    assert.match(flow, /capture:\n\s+(\w+): \$\.json\.id\n/, `${shape}: ${yaml}`);
    assert.match(flow, /url: .*\/notes\/\$\{steps\.\w+\.capture\.\w+\}/, `${shape}: ${yaml}`);
    assert.doesNotMatch(flow, /n0te0000/, `${shape}: ${yaml}`);
  }
});

/** Each way prose states a status, and the status the step checks. */
const STATUSES: [string, number][] = [
  ["# Response: HTTP/1.1 201 Created", 201],
  ["# You got HTTP/2 204", 204],
  ["# => 204 No Content", 204],
  ["// returns 201 Created", 201],
  ["# Output: 404 Not Found", 404],
  ["# Status: 202", 202],
];

Deno.test("a status line after prose is the step's status", () => {
  for (const [line, status] of STATUSES) {
    const { yaml } = convertCurl(`curl -X POST http://a.test/jobs -d 'x=1'\n${line}\n`);
    assert.match(yaml, new RegExp(`status: ${status}\\b`), `${line}: ${yaml}`);
  }
});

Deno.test("prose that only describes, or sets a condition, stays prose", () => {
  for (
    const line of [
      "# returns the list of notes",
      "# returns 200 if the note exists",
      '# if it is missing: {"error": "not found"}',
      '# when the id is wrong you get {"error": "nope"}',
      "# returns {not json",
      "# this takes about 200 ms",
    ]
  ) {
    const { yaml } = convertCurl(`curl http://a.test/notes\n${line}\n`);
    assert.match(yaml, /status: \{ lt: 400 \}/, `${line}: ${yaml}`);
    assert.doesNotMatch(yaml, /capture:/, `${line}: ${yaml}`);
  }
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
