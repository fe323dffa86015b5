/**
 * `convert openapi`: a login whose token already carries its scheme. Found
 * on a Koa API measured by hand (deals between users, passport-jwt): its
 * `POST /api/login` answers `{token: "Bearer eyJ…"}` (a common passport
 * tutorial's shape) and documents no answer schema. The suite read the
 * whole text as the token and sent `Authorization: Bearer Bearer eyJ…`,
 * so every operation behind the login answered 401. The answer's own text
 * says the scheme: the token is what follows it, whatever member holds it
 * and however the scheme word is cased.
 *
 * The stand-in server below answers as that API does, on 127.0.0.1.
 *
 * The same answer described: an Express API's hand-written document shows
 * the login's `access_token` with `example: "Bearer eyJ…"`, and the suite
 * read it by its path, whole. The documented value is the evidence (the
 * member's `example`, `examples` or `default`, or the answer's example at
 * that member), and the word cut is the one the scheme writes (`Token` for
 * an apiKey whose description shows `Token <token>`). A documented value
 * without the word keeps the path.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const text = { type: "string" };
const account = {
  type: "object",
  required: ["email", "password"],
  properties: { email: text, password: { type: "string", format: "password" } },
};
const ok = { "200": { description: "OK" } };
const bearer = [{ bearerAuth: [] }];

/** A sign-up, a login whose answer is undescribed, and notes behind a bearer token. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.1",
    info: { title: "Notes", version: "1" },
    paths: {
      "/api/user": {
        post: { requestBody: { required: true, content: json(account) }, responses: ok },
      },
      "/api/login": {
        post: { requestBody: { required: true, content: json(account) }, responses: ok },
      },
      "/api/me": { get: { security: bearer, responses: ok } },
      "/api/note": { get: { security: bearer, responses: ok } },
    },
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
  };
}

/** Accounts; a login answers `{[member]: "<scheme> <token>"}` (at `path`'s place); the rest want `<want> <token>`. */
function notes(member: string, scheme: string, path: string[] = [], want = "Bearer") {
  const users: { email: string; password: string }[] = [];
  const tokens = new Set<string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "GET") {
      const sent = new RegExp(`^${want} (\\S+)$`).exec(req.headers.get("authorization") ?? "")?.[1];
      if (!tokens.has(sent ?? "")) return Response.json({ error: "Unauthorized" }, { status: 401 });
      return Response.json(pathname === "/api/me" ? { id: 1 } : []);
    }
    const sent = await req.json();
    if (pathname === "/api/user") {
      users.push(sent);
      return Response.json({ id: users.length, email: sent.email });
    }
    const found = users.find((u) => u.email === sent.email && u.password === sent.password);
    if (!found) return Response.json({ error: "Bad credentials" }, { status: 422 });
    const token = crypto.randomUUID().replaceAll("-", "");
    tokens.add(token);
    const given = { [member]: `${scheme} ${token}`.trim() };
    return Response.json(path.reduceRight((inner: object, key) => ({ [key]: inner }), given));
  });
}

for (const [member, scheme] of [["token", "Bearer"], ["access_token", "bearer"]]) {
  Deno.test(`a login answering {${member}: "${scheme} …"} signs the suite in with the token alone`, async () => {
    const { runs, summary } = await convertAndRunSuite(document(), notes(member, scheme), {
      runs: 2,
    });
    for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.match(summary, /BASE_URL/);
  });
}

/** The document above with the login's answer described: `answer` is its 200 response. */
function described(answer: Record<string, unknown>, scheme?: Record<string, unknown>) {
  const doc = document() as {
    paths: Record<string, { post?: Record<string, unknown> }>;
    components: unknown;
  };
  doc.paths["/api/login"].post!.responses = { "200": { description: "Signed in", ...answer } };
  if (scheme) {
    (doc as { components: unknown }).components = { securitySchemes: { bearerAuth: scheme } };
  }
  return doc;
}

const jwtLike = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";

Deno.test("a described token whose example starts with the scheme's word is sent once with it", async () => {
  const token = { type: "string", example: `Bearer ${jwtLike}` };
  const answer = {
    content: json({ type: "object", properties: { success: { type: "boolean" }, token } }),
  };
  const { runs, summary, flows } = await convertAndRunSuite(
    described(answer),
    notes("token", "Bearer"),
    {
      runs: 2,
    },
  );
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(summary, /\$\.json\.token less the "Bearer " its documented example starts with/);
  assert.doesNotMatch([...flows.values()].join(), /eyJ/, "no example token is written");
});

Deno.test("a nested token the answer's own example shows with its word is read under its name", async () => {
  const data = { type: "object", properties: { access_token: text, refresh_token: text } };
  const example = { data: { access_token: `Bearer ${jwtLike}`, refresh_token: jwtLike } };
  const answer = {
    content: { "application/json": { schema: { type: "object", properties: { data } }, example } },
  };
  const { runs, summary } = await convertAndRunSuite(
    described(answer),
    notes("access_token", "Bearer", ["data"]),
  );
  assert.equal(runs[0].code, 0, `${summary}\n${runs[0].stdout}\n${runs[0].stderr}`);
  assert.match(summary, /\$\.json\.data\.access_token less the "Bearer "/);
});

Deno.test("an apiKey scheme's own word (Token) is the one cut from a documented token", async () => {
  const key = {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "Send `Token <token>`.",
  };
  const token = { type: "string", examples: [`Token ${jwtLike}`] };
  const answer = { content: json({ type: "object", properties: { token } }) };
  const { runs, summary } = await convertAndRunSuite(
    described(answer, key),
    notes("token", "Token", [], "Token"),
  );
  assert.equal(runs[0].code, 0, `${summary}\n${runs[0].stdout}\n${runs[0].stderr}`);
  assert.match(summary, /less the "Token "/);
});

Deno.test("a described token whose example has no word, nor a word its scheme writes, keeps its path", async () => {
  for (const example of [jwtLike, `JWT ${jwtLike}`]) {
    const token = { type: "string", example };
    const answer = { content: json({ type: "object", properties: { token } }) };
    const { flows } = await convertAndRunSuite(described(answer), notes("token", ""));
    assert.match([...flows.values()].join(), /token: \$\.json\.token\n/, example);
  }
});
