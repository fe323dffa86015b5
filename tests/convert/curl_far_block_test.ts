/**
 * `convert curl`: a tutorial (a mock server's, measured by hand) calls a
 * route, then goes on for paragraphs and headings to set up the next one:
 * "Create a data bucket named `loginState` with the following content:" and
 * a JSON block, "Set the response body to:" and another. Each block was read
 * as the answer of the command above it, however far: the rotate POST
 * checked for a 4xx (the block was an error body to configure), and the
 * login sent a password captured from a read whose "answer" was the bucket,
 * so the run failed where curl passes. An answer follows its command: at
 * most two paragraphs of prose (a lead, "Expected response:", or a guide's
 * sentence about the status and one about the body) stand between them;
 * code samples, fences and a pasted head are none. Written here in the shape
 * of such pages, Markdown and as a browser copies them, run against a server
 * started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const FENCE = "```";

/** The page in Markdown: fences, headings, inline code. */
const MARKDOWN = `# Stateful routes

## Rotate the key

After calling the route with \`curl -X POST http://HOST/admin/rotate\`, look at the store.

You should see the new key there.

### Guard a route

Add a second route whose default response is a 401 with the following body:

${FENCE}json
{
  "error": "Missing or invalid key"
}
${FENCE}

Call it as a client would:

${FENCE}sh-sessions
$ curl http://HOST/items
${FENCE}

## Log in

This second example is a short workflow.

### Create the store

Create a store named \`accounts\` with the following content:

${FENCE}json
{
  "users": { "demo": { "password": "hunter-2x", "token": null } }
}
${FENCE}

Then call the login with that password:

${FENCE}sh-sessions
$ curl -X POST http://HOST/login -H 'Content-Type: application/json' -d '{"password":"hunter-2x"}'
${FENCE}

Expected response:

${FENCE}json
{ "message": "Logged in", "token": "9f1c2a44-5d3e-4c1b-8a0f-2b7c6d5e4f31" }
${FENCE}

Send the token back:

${FENCE}sh-sessions
$ curl http://HOST/me -H "Authorization: Bearer 9f1c2a44-5d3e-4c1b-8a0f-2b7c6d5e4f31"
${FENCE}
`;

/** The same page as a browser copies it: no fences, headings as plain lines. */
const RENDERED = MARKDOWN.replaceAll(/^```.*\n/gm, "").replaceAll(/^#+ /gm, "").replaceAll("`", "");

/** The steps' `status:` lines, in order. */
const statuses = (yaml: string) => [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);

for (const [form, page] of [["Markdown", MARKDOWN], ["rendered", RENDERED]]) {
  Deno.test(`${form}: a block paragraphs away from a command is no answer of it`, () => {
    const { yaml } = convertCurl(page.replaceAll("HOST", "127.0.0.1:3000"));
    // The rotate and the read checked the configured 401 body and the store as their answers.
    // Copied rendered, the rotate is a sentence's words (no inline code marks it): prose.
    const steps = form === "Markdown" ? 4 : 3;
    assert.deepEqual(statuses(yaml), Array(steps).fill("{ lt: 400 }"), yaml);
    assert.doesNotMatch(yaml, /capture\.password|\$\.json\.users/, yaml);
    // The login's own answer, one lead away, still hands out the token the last command sends.
    assert.match(yaml, /Bearer \$\{steps\.login\.capture\.token\}/, yaml);
  });
}

/** A guide's create: a code sample, a sentence on the status, a head, one on the body, the body. */
const GUIDE = `${FENCE}bash
curl -X POST -H "Content-Type: application/json" -d '{"score":1337}' http://127.0.0.1:1337/parse/classes/GameScore
${FENCE}
${FENCE}python
import json,httplib
connection = httplib.HTTPSConnection('127.0.0.1', 1337)
print(json.loads(connection.getresponse().read()))
${FENCE}

When the creation is successful, the HTTP response is a \`201 Created\` and the \`Location\` header holds its URL:

${FENCE}javascript
Status: 201 Created
Location: http://127.0.0.1:1337/parse/classes/GameScore/Ed1nuqPvcm
${FENCE}

The response body is a JSON object containing the \`objectId\` and the \`createdAt\` timestamp:

${FENCE}json
{
  "createdAt": "2011-08-20T02:06:57.931Z",
  "objectId": "Ed1nuqPvcm"
}
${FENCE}

## Retrieving objects

${FENCE}bash
curl -X GET http://127.0.0.1:1337/parse/classes/GameScore/Ed1nuqPvcm
${FENCE}
`;

Deno.test("a guide's answer two sentences below its command is still its answer", () => {
  for (
    const page of [
      GUIDE,
      GUIDE.replaceAll(/^```.*\n/gm, "").replaceAll(/^#+ /gm, "").replaceAll("`", ""),
    ]
  ) {
    const { yaml } = convertCurl(page);
    assert.match(yaml, /GameScore\/\$\{steps\.[a-z_]+\.capture\.object_id\}/, yaml);
  }
});

Deno.test("a reference page: the next section's block is its own, a Response heading's is the answer", () => {
  const reference = [
    ".. code::",
    "",
    `    curl -u admin:pw -d '[["reload",{},"tag1"]]' http://127.0.0.1:8080/api/v1`,
    "",
    "doveadm who",
    "===========",
    "",
    "Show who is logged in.",
    "",
    "parameters::",
    "",
    '    {"command": "who", "parameters": [{"name": "password", "type": "string"}]}',
    "",
    ".. code::",
    "",
    `    curl -u admin:pw -d '[["who",{},"tag1"]]' http://127.0.0.1:8080/api/v1`,
    "",
  ].join("\n");
  const ref = convertCurl(reference);
  assert.equal(statuses(ref.yaml).length, 2, ref.yaml);
  assert.match(ref.summary.notes.join("\n"), /2 commands with no pasted answer/, ref.yaml);
  const sections = [
    "### Request",
    "",
    FENCE + "sh",
    "curl -X POST http://127.0.0.1:8080/login -d 'user=ann&password=pw-9x'",
    FENCE,
    "",
    "### Response",
    "",
    FENCE + "json",
    '{"token": "0a1b2c3d4e5f60718293a4b5c6d7e8f9"}',
    FENCE,
    "",
    "### Use it",
    "",
    FENCE + "sh",
    'curl http://127.0.0.1:8080/me -H "Authorization: Bearer 0a1b2c3d4e5f60718293a4b5c6d7e8f9"',
    FENCE,
    "",
  ].join("\n");
  const { yaml } = convertCurl(sections);
  assert.match(yaml, /Bearer \$\{steps\.[a-z_]+\.capture\.token\}/, yaml);
});

Deno.test("run against a server: every command answered as curl is", async () => {
  let token = "";
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.text();
    if (path === "/admin/rotate") return Response.json({ message: "rotated" });
    if (path === "/items") return Response.json([{ id: 1 }]);
    if (path === "/login") {
      if (JSON.parse(body || "{}").password !== "hunter-2x") {
        return new Response(null, { status: 401 });
      }
      token = crypto.randomUUID();
      return Response.json({ message: "Logged in", token });
    }
    const ok = token !== "" && req.headers.get("authorization") === `Bearer ${token}`;
    return ok ? Response.json({ me: "demo" }) : new Response(null, { status: 401 });
  });
  for (const page of [MARKDOWN, RENDERED]) {
    const docs = page.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
    await withCurlFlow(docs, async ({ runFlow, converted }) => {
      const env: Record<string, string> = { LOGIN_PASSWORD: "hunter-2x" };
      void converted;
      const run = await runFlow(env);
      assert.equal(run.code, 0, `${converted.stderr}\n${run.stdout}${run.stderr}`);
    }, { docs: "page.md" });
  }
});
