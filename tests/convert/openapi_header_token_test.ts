/**
 * `convert openapi` on a document that declares no security and takes the
 * credential as a header parameter of each operation's own, signing up and
 * in with query parameters: FastAPI writes `token: str = Header(...)` and
 * `def login(email: EmailStr, password: str)` so. Each step sent the
 * header's sample (`token: string`), the summary asked for nothing, and the
 * server answered 401 (an expense tracker: 2 of 8 operations). The
 * evidence is where the header is required: on most operations and on no
 * POST taking a password. The suite now signs up, signs in with the query
 * parameters, and sends the token it answers in that header. A header the
 * sign-in requires too says nothing, and stays a parameter.
 *
 * The stand-in runs on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { runCli } from "../support/cli.ts";

const query = (name: string, format?: string) => ({
  name,
  in: "query",
  required: true,
  schema: { type: "string", ...format ? { format } : {} },
});
const header = { name: "token", in: "header", required: true, schema: { type: "string" } };
const answer = { "200": { description: "OK", content: { "application/json": { schema: {} } } } };

/** FastAPI's shape: credentials in the query, the token a header of each operation's own. */
function document(signInHeader = false) {
  const signIn = [query("email", "email"), query("password"), ...signInHeader ? [header] : []];
  return {
    openapi: "3.0.2",
    info: { title: "Notes", version: "1" },
    paths: {
      "/register": { post: { parameters: signIn, responses: answer } },
      "/login": { post: { parameters: signIn, responses: answer } },
      "/notes": {
        get: { parameters: [header], responses: answer },
        post: { parameters: [query("title"), header], responses: answer },
      },
    },
  };
}

/** Accounts by email, a token per sign-in, notes only for a token's holder. */
function standIn() {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  return serveStandIn((req) => {
    const url = new URL(req.url);
    const email = url.searchParams.get("email") ?? "";
    const password = url.searchParams.get("password");
    if (url.pathname === "/register" && req.method === "POST") {
      if (!email.includes("@") || !password || accounts.has(email)) {
        return Response.json({ detail: "Bad" }, { status: 400 });
      }
      accounts.set(email, password);
      return Response.json({ message: "User registered" });
    }
    if (url.pathname === "/login" && req.method === "POST") {
      if (!accounts.has(email) || accounts.get(email) !== password) {
        return Response.json({ detail: "Invalid" }, { status: 401 });
      }
      const token = `t${tokens.size + 1}.payload.sig`;
      tokens.add(token);
      return Response.json({ access_token: token });
    }
    if (url.pathname === "/notes") {
      if (!tokens.has(req.headers.get("token") ?? "")) {
        return Response.json({ detail: "Invalid token" }, { status: 401 });
      }
      return Response.json(req.method === "GET" ? [] : { message: "Added" });
    }
    return Response.json({ detail: "Not Found" }, { status: 404 });
  });
}

Deno.test("convert openapi: a header every operation but the sign-ins requires is sent the sign-in's token", async () => {
  const { summary, runs, flows } = await convertAndRunSuite(document(), standIn(), { runs: 2 });
  assert.match(summary, /apiKey header token\) ← POST \/login/);
  assert.doesNotMatch([...flows.values()].join("\n"), /token: string/);
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(runs[0].stdout + runs[0].stderr, /4 of 4 operations/);
});

Deno.test("convert openapi: a header a sign-in requires too stays a parameter", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document(true)));
    const run = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /apiKey header token/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
