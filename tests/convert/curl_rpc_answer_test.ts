/**
 * `convertCurl`: a JSON-RPC call whose pasted answer says it succeeded. A
 * JSON-RPC server answers HTTP 200 whether a call worked or not and tells a
 * failure in the body's `error` member; a torrent client's how-to pastes
 * `{"error": null, "id": 1, "result": true}` under each call. The converter
 * asserted nothing of a pasted answer (answers hold other sessions' values),
 * so every step passed on its status while the server answered "Not
 * authenticated" to all but the login. `error: null` (or, JSON-RPC 2.0, a
 * `result` and no `error`) is the protocol's word for success, no session's
 * value: a call whose pasted answer says so now checks it, as `convert har`
 * does, and a run whose answer holds an error fails there, naming it. A body
 * that is no JSON-RPC call (no `method` beside `params`, `id` or `jsonrpc`)
 * gets no such check, whatever its answer holds. Run against a server
 * started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const DOCS = [
  "Log in:",
  "",
  `    curl -d '{"method": "auth.login", "params": ["secret"], "id": 1}' http://HOST/json`,
  "",
  "    {",
  '        "error": null,',
  '        "id": 1,',
  '        "result": true',
  "    }",
  "",
  "Is it connected?",
  "",
  `    curl -d '{"method": "web.connected", "params": [], "id": 1}' http://HOST/json`,
  "",
  '    {"error": null, "id": 1, "result": false}',
  "",
  "JSON-RPC 2.0 says so by its result alone:",
  "",
  `    curl -d '{"jsonrpc": "2.0", "method": "ping", "id": 7}' http://HOST/rpc`,
  "",
  '    {"jsonrpc": "2.0", "result": "pong", "id": 7}',
  "",
  "A form's answer with an error member is no JSON-RPC answer:",
  "",
  `    curl -d '{"text": "hi"}' http://HOST/notes`,
  "",
  '    {"saved": true, "error": null}',
  "",
].join("\n");

/** The check on `error` of each step, in order ("-" for none). */
function errorChecks(yaml: string): string[] {
  return yaml.split(/\n {2}- name: /).slice(1).map((step) =>
    /\{ path: \$\.json\.error, [^}]*\}/.exec(step)?.[0] ?? "-"
  );
}

Deno.test("a call whose pasted answer says it succeeded checks its error member", () => {
  const { yaml } = convertCurl(DOCS.replaceAll("HOST", "a.test"));
  assert.deepEqual(errorChecks(yaml), [
    "{ path: $.json.error, equals: null }",
    "{ path: $.json.error, equals: null }",
    "{ path: $.json.error, exists: false }",
    "-",
  ]);
});

Deno.test("run against a server: an error in a 200 fails its step, a success passes", async () => {
  let loggedIn = false;
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    const path = new URL(req.url).pathname;
    if (path === "/rpc") return Response.json({ jsonrpc: "2.0", result: "pong", id: body.id });
    if (path === "/notes") return Response.json({ saved: false, error: "full" });
    if (body.method === "auth.login") {
      loggedIn = body.params[0] === "secret";
      return Response.json({ result: loggedIn, error: null, id: 1 });
    }
    if (!loggedIn) {
      return Response.json({
        result: null,
        error: { message: "Not authenticated", code: 1 },
        id: 1,
      });
    }
    return Response.json({ result: false, error: null, id: 1 });
  });
  const docs = DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    const passing = await runFlow();
    assert.equal(passing.code, 0, `${passing.stdout}${passing.stderr}`);
  });
  // The calls after the login, sent without it: the server says "Not authenticated" in a 200.
  const without = DOCS.split("Is it connected?")[1].replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  loggedIn = false;
  await withCurlFlow(without, async ({ runFlow }) => {
    const failing = await runFlow();
    assert.equal(failing.code, 1, `${failing.stdout}${failing.stderr}`);
    assert.match(failing.stdout, /error/);
  });
});
