/**
 * `convert curl` on a page naming several local servers: the API on one
 * port and an admin on another, or `127.0.0.1` and `localhost` with
 * different ports. Each origin is its own base URL, never merged into one,
 * and a command printed with no URL (a JSON-RPC call, a body "to send to the
 * admin") goes where the sentence right above it says. It went to
 * `$SERVER_URL` whenever the page named more than one address, however
 * plainly the sentence over the command named its own. A command no
 * sentence over it addresses is still asked of the user. Run against two
 * servers started here; each must receive only its own commands.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The page: the API at `api`, the admin at `admin`, two commands with no URL. */
const page = (api: string, admin: string) =>
  [
    `The API listens on ${api} and the admin console on ${admin}.`,
    "",
    `curl ${api}/notes`,
    "",
    `Create a user through the admin console at ${admin}:`,
    "",
    "curl -X POST -H 'Content-Type: application/json' --data '{\"user\": \"ann\"}'",
    "",
    `Then add a note, sent to the API (${api}):`,
    "",
    "curl -X POST -H 'Content-Type: application/json' --data '{\"note\": \"hi\"}'",
    "",
    `curl ${admin}/users`,
  ].join("\n");

Deno.test("each local origin is its own base URL, a URL-less command sent where prose says", () => {
  for (
    const [api, admin] of [
      ["http://localhost:3000", "http://localhost:8080"],
      ["http://127.0.0.1:3000", "http://localhost:8080"],
      ["localhost:3000", "127.0.0.1:8080"],
    ]
  ) {
    const { yaml, summary } = convertCurl(page(api, admin));
    assert.equal(summary.steps, 4, yaml);
    const vars = [...yaml.matchAll(/^ {2}(\w+): \$\{ENV\.(\w+):-(.*)\}$/gm)];
    assert.equal(vars.length, 2, `${api} ${admin}: ${yaml}`);
    assert.doesNotMatch(yaml, /SERVER_URL/, yaml);
    const base = (port: string) => vars.find((v) => v[3].endsWith(`:${port}`))![1];
    const urls = [...yaml.matchAll(/url: \$\{vars\.(\w+)\}(\S*)/g)].map((m) => `${m[1]}${m[2]}`);
    assert.deepEqual(urls, [
      `${base("3000")}/notes`,
      `${base("8080")}/`,
      `${base("3000")}/`,
      `${base("8080")}/users`,
    ], yaml);
  }
});

Deno.test("a URL-less command no sentence over it addresses is asked", () => {
  const docs = [
    "The API listens on http://localhost:3000 and the admin on http://localhost:8080.",
    "",
    "curl http://localhost:3000/notes",
    "curl -X POST --data '{\"a\": 1}'",
  ].join("\n");
  const { yaml } = convertCurl(docs);
  assert.match(yaml, /SERVER_URL/, yaml);
});

Deno.test("run: each server gets its own commands", async () => {
  const got: Record<string, string[]> = { api: [], admin: [] };
  const serve = (who: string) =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      got[who].push(`${req.method} ${new URL(req.url).pathname} ${await req.text()}`.trim());
      return Response.json({ ok: true });
    });
  await using api = serve("api");
  await using admin = serve("admin");
  const docs = page(`http://127.0.0.1:${api.addr.port}`, `http://localhost:${admin.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow, converted }) => {
    assert.doesNotMatch(converted.stderr, /SERVER_URL/, converted.stderr);
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
  assert.deepEqual(got.api, ["GET /notes", 'POST / {"note":"hi"}']);
  assert.deepEqual(got.admin, ['POST / {"user":"ann"}', "GET /users"]);
});
