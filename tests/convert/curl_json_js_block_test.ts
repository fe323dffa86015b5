/**
 * `convert curl`: an answer printed in a code block named for JavaScript. Sphinx pages
 * highlight JSON as `javascript` (an identity service's curl page prints every example
 * response under `.. code-block:: javascript`; Markdown pages write ```` ```js ````). Such
 * blocks were left out as another language's code, so no command had its answer: an id a
 * create handed out and a later command sends stayed the page's own (404 on any other
 * instance). A block so named whose lines are a JSON value alone (an object or an array, as
 * pages annotate it) is data, what a command printed; one holding code is left out as before.
 * Run against a server started here that makes a new id for each user.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Create a user, its answer in a block named `language`, then read the user by that id. */
const rst = (origin: string, language: string) =>
  `Create a user:

.. code-block:: bash

    curl -s \\
     -H "Content-Type: application/json" \\
     -d '{"user": {"name": "kim"}}' \\
     "${origin}/v3/users" | python -mjson.tool

Example response:

.. code-block:: ${language}

    {
        "user": {
            "id": "5c1e0b9a7d2f4e6c8a3b1d0f9e7c6a5b",
            "name": "kim"
        }
    }

Show it:

.. code-block:: bash

    USER_ID=5c1e0b9a7d2f4e6c8a3b1d0f9e7c6a5b

    curl -s "${origin}/v3/users/$USER_ID" | python -mjson.tool
`;

/** The same in Markdown fences. */
const markdown = (origin: string, language: string) =>
  [
    "```bash",
    `curl -s -d '{"user": {"name": "kim"}}' -H "Content-Type: application/json" ${origin}/v3/users`,
    "```",
    "",
    "Example response:",
    "",
    "```" + language,
    '{"user": {"id": "5c1e0b9a7d2f4e6c8a3b1d0f9e7c6a5b", "name": "kim"}}',
    "```",
    "",
    "```bash",
    `curl -s ${origin}/v3/users/5c1e0b9a7d2f4e6c8a3b1d0f9e7c6a5b`,
    "```",
    "",
  ].join("\n");

const CAPTURED = /url: \$\{vars\.base_url\}\/v3\/users\/\$\{steps\.create_user\.capture\.user_id\}/;

Deno.test("JSON in a javascript block under a command is its printed answer", () => {
  for (const language of ["javascript", "js", "JavaScript", "json"]) {
    const { yaml } = convertCurl(rst("http://a.test", language));
    assert.match(yaml, CAPTURED, `${language}\n${yaml}`);
    assert.ok(!yaml.includes("USER_ID"), yaml);
  }
  for (const language of ["javascript", "js"]) {
    const { yaml } = convertCurl(markdown("http://a.test", language));
    assert.match(yaml, CAPTURED, `${language}\n${yaml}`);
  }
});

Deno.test("a javascript block holding code is still left out", () => {
  const page = markdown("http://a.test", "js").replace(
    '{"user": {"id": "5c1e0b9a7d2f4e6c8a3b1d0f9e7c6a5b", "name": "kim"}}',
    "// it's the client's call\nfetch('/v3/users', { method: 'POST' });",
  );
  const { summary, yaml } = convertCurl(page);
  assert.equal(summary.steps, 2, yaml);
  assert.ok(!CAPTURED.test(yaml), yaml);
});

Deno.test("run: the user read back is the one this run created", async () => {
  const users = new Map<string, string>();
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      if (req.method === "POST" && path === "/v3/users") {
        const { user } = await req.json();
        const id = crypto.randomUUID().replaceAll("-", "");
        users.set(id, user.name);
        return Response.json({ user: { id, name: user.name } }, { status: 201 });
      }
      const name = users.get(path.split("/").at(-1) ?? "");
      if (req.method === "GET" && name) return Response.json({ user: { id: path, name } });
      return Response.json({ error: "not found" }, { status: 404 });
    },
  );
  const docs = rst(`http://127.0.0.1:${server.addr.port}`, "javascript");
  await withCurlFlow(docs, async ({ runFlow }) => {
    const out = await runFlow();
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.equal(users.size, 1);
  }, { docs: "users.rst" });
});
