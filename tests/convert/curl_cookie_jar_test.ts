/**
 * `convertCurl`: a cookie jar the commands share. API docs log in with
 * `curl -c cookies.txt …` and send the session on with `curl -b cookies.txt …`
 * (or `-b cookies.txt -c cookies.txt` on every command): curl writes the
 * cookies the login's answer set into the file and reads them back. The
 * flow dropped both (`-c` an ignored option, `-b FILE` "not carried"), so
 * every command after the login went without its session and was refused. A
 * file one command writes with `-c` and one reads with `-b` is the text's own
 * jar: each command that names it keeps and sends the run's cookies
 * (`options: {cookie_jar: true}`), as curl's file does; a `-b FILE` no
 * command writes is the user's file, still not carried (a note), and a `-c
 * FILE` nothing reads stays an ignored option. A JSON-RPC how-to writes both
 * in a `-K curl.cfg` the page shows (`cookie = "…"`, `cookie-jar = "…"`),
 * read the same way. Run against a server started here that sets a fresh
 * session at each login and refuses any other.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";
import { runCli } from "../support/cli.ts";
import { withFiles } from "../support/with_files.ts";

const DOCS = [
  "# Log in (saves the session cookie)",
  "curl -c cookies.txt -X POST http://HOST/api/login \\",
  '  -H "Content-Type: application/json" \\',
  `  -d '{"email":"alice@example.com","password":"secret123"}'`,
  "",
  "# Create an org (uses the saved cookie)",
  "curl -b cookies.txt -X POST http://HOST/api/orgs \\",
  '  -H "Content-Type: application/json" \\',
  `  -d '{"name":"Acme"}'`,
  "",
  "# Read and keep the cookies up to date",
  "curl -b cookies.txt -c cookies.txt http://HOST/api/orgs",
  "curl --cookie cookies.txt --cookie-jar cookies.txt http://HOST/api/orgs",
  "",
  "# Public, with a jar nobody reads",
  "curl -c other.txt http://HOST/api/health",
  "",
].join("\n");

/** Each step's `options:` line, or "-" for a step with none, in order. */
function jars(yaml: string): string[] {
  return yaml.split(/\n {2}- name: /).slice(1).map((step) =>
    /\n {4}options:[^\n]*\n(?: {6}[^\n]*\n)*/.exec(step)?.[0].trim() ?? "-"
  );
}

Deno.test("a file one command writes with -c and another reads with -b is the run's jar", () => {
  const { yaml, summary } = convertCurl(DOCS.replaceAll("HOST", "a.test"));
  assert.deepEqual(jars(yaml), [
    "options:\n      cookie_jar: true",
    "options:\n      cookie_jar: true",
    "options:\n      cookie_jar: true",
    "options:\n      cookie_jar: true",
    "-",
  ]);
  assert.deepEqual(summary.ignored, ["get_health (line 16): -c (--cookie-jar)"]);
  assert.ok(!summary.notes.some((n) => /not carried/.test(n)), summary.notes.join("\n"));
});

Deno.test("a -b file no command writes is the user's: still not carried", () => {
  const text =
    "curl -b my-cookies.txt http://a.test/api/orgs\ncurl -c jar.txt http://a.test/api/orgs\n";
  const { yaml, summary } = convertCurl(text);
  assert.deepEqual(jars(yaml), ["-", "-"]);
  assert.ok(summary.notes.some((n) => /-b "my-cookies\.txt" reads cookies from a file/.test(n)));
});

Deno.test("run against a server: the session the login set goes with every later command", async () => {
  const sessions = new Set<string>();
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    const path = new URL(req.url).pathname;
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    seen.push(`${req.method} ${path} ${sid && sessions.has(sid) ? "session" : "none"}`);
    if (path === "/api/login") {
      if (JSON.parse(body).password !== "the-users-own") return new Response(null, { status: 401 });
      const fresh = crypto.randomUUID();
      sessions.add(fresh);
      return Response.json({ ok: true }, {
        headers: { "set-cookie": `sid=${fresh}; Path=/; HttpOnly` },
      });
    }
    if (path === "/api/health") return Response.json({ ok: true });
    if (!sid || !sessions.has(sid)) return Response.json({ error: "login first" }, { status: 401 });
    return Response.json({ name: "Acme" }, { status: req.method === "POST" ? 201 : 200 });
  });
  const docs = DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    for (const run of [1, 2]) {
      const result = await runFlow({ LOGIN_PASSWORD: "the-users-own" });
      assert.equal(result.code, 0, `run ${run}: ${result.stdout}${result.stderr}`);
    }
  });
  assert.deepEqual(seen.slice(0, 5), [
    "POST /api/login none",
    "POST /api/orgs session",
    "GET /api/orgs session",
    "GET /api/orgs session",
    "GET /api/health none",
  ]);
});

Deno.test("a -K config file's cookie and cookie-jar lines share the jar too", async () => {
  const logins = new Set<string>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { method } = await req.json();
    if (method === "auth.login") {
      const fresh = crypto.randomUUID();
      logins.add(fresh);
      return Response.json({ result: true, error: null, id: 1 }, {
        headers: { "set-cookie": `_session_id=${fresh}; Path=/json` },
      });
    }
    const sid = /_session_id=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    if (!sid || !logins.has(sid)) return new Response("Not authenticated", { status: 401 });
    return Response.json({ result: false, error: null, id: 1 });
  });
  const cfg = [
    'request = "POST"',
    'cookie = "cookie_rpc.txt"',
    'cookie-jar = "cookie_rpc.txt"',
    'header = "Content-Type: application/json"',
    `url = "http://127.0.0.1:${s.addr.port}/json"`,
    "",
  ].join("\n");
  const docs = [
    `curl -d '{"method": "auth.login", "params": ["secret"], "id": 1}' -K curl.cfg`,
    `curl -d '{"method": "web.connected", "params": [], "id": 1}' -K curl.cfg`,
    "",
  ].join("\n");
  await withFiles({ "curl.cfg": cfg, "docs.sh": docs }, async (dir) => {
    const converted = await runCli(["convert", "curl", "docs.sh", "-o", "flow.yaml"], { cwd: dir });
    assert.equal(converted.code, 0, converted.stderr);
    const run = await runCli(["run", "flow.yaml"], { cwd: dir });
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
});
