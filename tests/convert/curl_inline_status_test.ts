/**
 * `convert curl`: a status the docs write in a comment on the command's own
 * line. READMEs annotate each command with what it answers:
 * `curl -X DELETE …/keys/a  # 204`, `curl -X POST … # => 201 Created`,
 * `# -> 404 Not Found`, `# returns 409 Conflict`. On a comment line of its
 * own such a status was the step's (`curl_prose_answers.ts`); on the
 * command's line it was prose, so a documented refusal failed the run
 * (`{ lt: 400 }`) and a create answered 200 instead of 201 passed. A status
 * line there, or on the last line of a command a `\` carries on (a bare
 * code alone, a code with its standard reason, `HTTP/…`, or either after an
 * arrow, a colon or a lead such as "returns"), is the step's status now; a number in prose (`# 200 items max`, `# port 8080`,
 * `# 404 if missing`) stays prose. Run against a key store started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The steps' status checks, in order. */
const statuses = (yaml: string) => [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);

const docs = (host: string) =>
  [
    "```sh",
    `curl -X POST http://${host}/keys -d 'name=a&value=1'   # => 201 Created`,
    `curl -X POST http://${host}/keys -d 'name=a&value=2'   # 409`,
    `$ curl http://${host}/keys/a   # returns 200 OK`,
    `curl -X DELETE http://${host}/keys/a   # 204`,
    `curl http://${host}/keys/a   # -> 404 Not Found`,
    `curl -X DELETE http://${host}/keys/a   #=> HTTP/1.1 404`,
    `curl http://${host}/keys?limit=200   # 200 items max`,
    "```",
    "",
  ].join("\n");

Deno.test("a status in a comment on the command's own line is the step's", () => {
  const { yaml } = convertCurl(docs("a.test"));
  assert.deepEqual(statuses(yaml), ["201", "409", "200", "204", "404", "404", "{ lt: 400 }"], yaml);
});

Deno.test("every spelling of a status, and numbers in prose that are none", () => {
  const read = (comment: string) =>
    statuses(convertCurl(`curl -X POST http://a.test/k -d a=1  ${comment}\n`).yaml)[0];
  for (const c of ["# 201", "#201", "# 201 Created", "# => 201", "#=> 201 Created", "# → 201"]) {
    assert.equal(read(c), "201", c);
  }
  for (
    const c of [
      "# returns 201 Created",
      "# Response: HTTP/1.1 201 Created",
      "# status: 201",
      "# -> 201",
    ]
  ) {
    assert.equal(read(c), "201", c);
  }
  for (
    const c of ["# 200 items max", "# port 8080", "# 404 if missing", "# may return 409", "# 2"]
  ) {
    assert.equal(read(c), "{ lt: 400 }", c);
  }
  // On the last line of a command its `\` carries on, the comment is that command's too.
  const long = "curl -X POST http://a.test/k \\\n  -H 'X-A: 1' \\\n  -d a=1  # => 201 Created\n";
  assert.deepEqual(statuses(convertCurl(long).yaml), ["201"]);
  const next = "curl -X POST http://a.test/k \\\n  -d a=1\necho done  # 201\n";
  assert.deepEqual(statuses(convertCurl(next).yaml), ["{ lt: 400 }"]);
  // Inside quotes a `#` is the command's text, not a comment.
  assert.equal(read("-H 'X-Note: a # 409'"), "{ lt: 400 }");
});

Deno.test("run against a server: each command answers the status its comment says", async () => {
  const keys = new Map<string, string>();
  let createdWith = 201;
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const key = /^\/keys\/([^/]+)$/.exec(path)?.[1];
    if (path === "/keys" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      const name = form.get("name") ?? "";
      if (keys.has(name)) return new Response("exists", { status: 409 });
      keys.set(name, form.get("value") ?? "");
      return Response.json({ name }, { status: createdWith });
    }
    if (path === "/keys") return Response.json([...keys.keys()]);
    if (!key || !keys.has(key)) return new Response("gone", { status: 404 });
    if (req.method === "DELETE") {
      return new Response(null, { status: keys.delete(key) ? 204 : 404 });
    }
    return Response.json({ name: key, value: keys.get(key) });
  });
  await withCurlFlow(docs(`127.0.0.1:${s.addr.port}`), async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
    // A server that answers the create with 200 is not what the docs show: the step fails.
    keys.clear();
    createdWith = 200;
    const other = await runFlow();
    assert.notEqual(other.code, 0, other.stdout);
    assert.match(`${other.stdout}${other.stderr}`, /201/);
  });
});
