/**
 * `convertCurl`: a command with no pasted answer checked nothing, so a
 * sign-up refused 409 or a create answered 500 "passed" (auth-example's and
 * sqlite-express's READMEs, run twice on one instance). It now checks that
 * its status is below 400, as `curl --fail` does; a pasted answer's status
 * stays the step's own. Run against a small server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const JSON_TYPE = `-H "Content-Type: application/json"`;
const DOCS = [
  "Make an item:",
  `curl -X POST ${JSON_TYPE} -d '{"title":"first"}' http://HOST/items`,
  "Read it (a redirect to its page):",
  "curl http://HOST/items/first",
  "List them:",
  "curl http://HOST/items",
  "",
].join("\n");

/** Answers `POST /items` with `create`, `/items/first` 302 to `/items`, `/items` 200. */
function server(create: number, seen: string[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    await req.text();
    seen.push(`${req.method} ${path}`);
    if (req.method === "POST") return Response.json({}, { status: create });
    if (path === "/items/first") {
      return new Response(null, { status: 302, headers: { location: "/items" } });
    }
    return Response.json([]);
  });
}

/** Converts DOCS (with `pasted` after the first command) for the server, runs it: the run's output. */
async function convertAndRun(create: number, pasted = "") {
  const seen: string[] = [];
  await using s = server(create, seen);
  const docs = DOCS.replace(
    "first\"}' http://HOST/items\n",
    `first"}' http://HOST/items\n${pasted}`,
  )
    .replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  return await withCurlFlow(docs, async ({ converted, runFlow, readFlow }) => {
    const out = await runFlow();
    const flow = await readFlow();
    return { ...out, flow, seen, summary: converted.stderr };
  });
}

Deno.test("a command with no pasted answer checks its status is below 400, said once", () => {
  const { yaml, summary } = convertCurl(DOCS.replaceAll("HOST", "a.test"));
  assert.equal(yaml.match(/status: \{ lt: 400 \}/g)?.length, 3, yaml);
  const said = summary.notes.filter((n) => n.includes("below 400"));
  assert.equal(said.length, 1, summary.notes.join("\n"));
  assert.match(
    said[0],
    /^3 commands with no pasted answer check only that the status is below 400/,
  );
  const b = convertCurl(DOCS.replaceAll("HOST", "a.test"), { spelling: "b" }).yaml;
  assert.equal(b.match(/status: \{ lt: 400 \}/g)?.length, 3, b);
});

Deno.test("a create answered 500 fails its step, naming the status", async () => {
  const out = await convertAndRun(500);
  const why = `${out.flow}\n${out.stdout}${out.stderr}`;
  assert.notEqual(out.code, 0, why);
  assert.match(out.stdout + out.stderr, /500/, why);
  assert.match(out.stdout + out.stderr, /status 500, expected < 400/, why);
});

Deno.test("a sign-up refused 409 fails too", async () => {
  const out = await convertAndRun(409);
  assert.notEqual(out.code, 0, `${out.flow}\n${out.stdout}${out.stderr}`);
  assert.match(out.stdout + out.stderr, /409/);
});

Deno.test("2xx and 3xx answers pass", async () => {
  const out = await convertAndRun(201);
  assert.equal(out.code, 0, `${out.flow}\n${out.stdout}${out.stderr}`);
  assert.deepEqual(out.seen.slice(0, 2), ["POST /items", "GET /items/first"]);
});

Deno.test("a pasted answer's status wins: a refusal the docs show passes as shown", async () => {
  const out = await convertAndRun(409, "HTTP/1.1 409 Conflict\n");
  const why = `${out.flow}\n${out.stdout}${out.stderr}`;
  assert.equal(out.code, 0, why);
  assert.match(out.flow, /status: 409/, why);
  assert.match(out.summary, /2 commands with no pasted answer/, why);
});
