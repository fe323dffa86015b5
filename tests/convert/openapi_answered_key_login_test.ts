/**
 * `convert openapi`: an apiKey scheme that is the only place the login's
 * token can go. Found on an Express API documented by `tsoa` (measured by
 * hand): `tsoa.json` declares `api_key: {type: apiKey, in: header, name:
 * x-api-key}` with no description, its `POST /login` takes `{email,
 * password}`, needs no credentials and answers `{success, token}`, and the
 * server's authentication module verifies `x-api-key` as the JWT that
 * login signs. No scheme says it takes a token, so the key was read as one
 * the user is given: the summary asked for `API_KEY`, which no user of that
 * API has, and no secured step could pass. The evidence, all of it: an open
 * login (a POST taking a password) whose answer shows a token, and one
 * declared scheme, an apiKey with no description, where nothing else
 * (a bearer, a key that says token, an OAuth2 flow) could take it. Then the
 * token is that key, sent where the scheme says (header, query or cookie),
 * and the summary asks for an account to sign in with (no operation here
 * registers one) instead of a key.
 * A document whose login answers no token, or that declares a bearer
 * beside the key, still asks for the key.
 *
 * The stand-in server below answers as that API does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { runCli } from "../support/cli.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const text = { type: "string" };
const object = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: "object",
  properties,
  required,
});

type Place = "header" | "query" | "cookie";

/** A login answering `{success, token}`, an open create and a read behind an apiKey at `place`. */
function document(place: Place, answer = object({ success: { type: "boolean" }, token: text })) {
  return {
    openapi: "3.0.0",
    info: { title: "Users", version: "1" },
    paths: {
      "/login": {
        post: {
          tags: ["Authentication"],
          security: [],
          requestBody: { required: true, content: json(object({ email: text, password: text })) },
          responses: { "200": { description: "Ok", content: json(answer) } },
        },
      },
      "/users": {
        post: {
          tags: ["Users"],
          security: [],
          requestBody: { required: true, content: json(object({ email: text, name: text })) },
          responses: { "201": { description: "Created", content: json(object({ id: text })) } },
        },
      },
      "/users/{userId}": {
        get: {
          tags: ["Users"],
          security: [{ api_key: [] }],
          parameters: [{ name: "userId", in: "path", required: true, schema: text }],
          responses: { "200": { description: "Ok", content: json(object({ id: text })) } },
        },
      },
    },
    components: {
      securitySchemes: { api_key: { type: "apiKey", name: "x-api-key", in: place } },
    },
  };
}

/** The key the request sends at `place`. */
function keyOf(req: Request, place: Place): string {
  if (place === "header") return req.headers.get("x-api-key") ?? "";
  if (place === "query") return new URL(req.url).searchParams.get("x-api-key") ?? "";
  const cookie = (req.headers.get("cookie") ?? "").split(/;\s*/).find((c) =>
    c.startsWith("x-api-key=")
  );
  return cookie?.slice("x-api-key=".length) ?? "";
}

/** The one account the stand-in knows, given to the run as the summary asks. */
const ACCOUNT = { LOGIN_EMAIL: "ada@example.com", LOGIN_PASSWORD: "correct-horse-battery" };

/** The account's login answers a fresh token; a user is read only with such a token as its key. */
function server(place: Place) {
  const tokens = new Set<string>();
  const users = new Map<string, unknown>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "POST" && pathname === "/login") {
      const { email, password } = await req.json();
      if (email !== ACCOUNT.LOGIN_EMAIL || password !== ACCOUNT.LOGIN_PASSWORD) {
        return Response.json({ error: "bad credentials" }, { status: 401 });
      }
      const token = `jwt-${crypto.randomUUID()}`;
      tokens.add(token);
      return Response.json({ success: true, token });
    }
    if (req.method === "POST" && pathname === "/users") {
      const id = crypto.randomUUID();
      users.set(id, await req.json());
      return Response.json({ id }, { status: 201 });
    }
    if (!tokens.has(keyOf(req, place))) {
      return Response.json({ error: "no token" }, { status: 401 });
    }
    const id = pathname.split("/").pop() ?? "";
    return users.has(id) ? Response.json({ id }) : Response.json({}, { status: 404 });
  });
}

for (const place of ["header", "query", "cookie"] as const) {
  Deno.test(`the login's token is the only apiKey (in ${place}) when nothing else can take it`, async () => {
    const env = [ACCOUNT, ACCOUNT];
    const { runs, summary } = await convertAndRunSuite(document(place), server(place), {
      runs: 2,
      env,
    });
    for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    // The account is the user's (no operation registers one); the key is what its login answers.
    assert.doesNotMatch(summary, /API_KEY/);
    assert.match(summary, /LOGIN_EMAIL/);
    // Every step passes: the read too (a cookie's flow signs in inside itself, one step more).
    for (const run of runs) {
      const [, all, passed] = /(\d+) steps: (\d+) passed/.exec(run.stdout) ?? [];
      assert.ok(all !== undefined && all === passed && Number(all) >= 3, run.stdout);
    }
  });
}

/** The summary `convert openapi` prints for `doc`. */
async function summaryOf(doc: unknown): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-answered-key-" });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(doc));
    const out = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(out.code, 0, out.stderr);
    return out.stderr;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a key stays the user's when the login answers no token or a bearer can take it", async () => {
  const noToken = document("header", object({ success: { type: "boolean" } }));
  assert.match(await summaryOf(noToken), /API_KEY/);
  const withBearer = document("header");
  const schemes = withBearer.components.securitySchemes as Record<string, unknown>;
  schemes.jwt = { type: "http", scheme: "bearer" };
  withBearer.paths["/users"].post.security = [{ jwt: [] }] as never;
  assert.match(await summaryOf(withBearer), /API_KEY/);
});
