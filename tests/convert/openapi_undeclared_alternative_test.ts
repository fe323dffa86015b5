/**
 * `convert openapi` on a requirement whose first alternative names a scheme
 * the document does not declare, beside an alternative it does declare. A
 * FastAPI team task manager (measured by hand on 2026-12-01,
 * docs/real-servers.md) overrides `app.openapi` to declare one scheme of its
 * own, `BearerAuth` (http bearer), and appends `{BearerAuth: []}` to every
 * operation's `security`, after the `{OAuth2PasswordBearer: []}` FastAPI had
 * written for its `OAuth2PasswordBearer` dependency, whose declaration the
 * override replaced. Read by its first alternative alone, each operation
 * named only a scheme that is not there: no step sent a token and the server
 * answered 401 to 8 of its 13 operations. Alternatives are each sufficient,
 * so one naming a scheme the document never declares is one nobody can
 * satisfy, and the next alternative naming declared schemes is the
 * operation's requirement; an operation whose every alternative is
 * undeclared is left as written (its comment says so).
 *
 * The stand-in below answers as that server does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const account = {
  type: "object",
  properties: { username: text, password: text },
  required: ["username", "password"],
};
const project = { type: "object", properties: { name: text }, required: ["name"] };

/** The document; `alternatives` is each guarded operation's `security`. */
function document(alternatives: unknown[]) {
  return {
    openapi: "3.0.2",
    info: { title: "tasks", version: "1.0" },
    paths: {
      "/register": {
        post: {
          requestBody: { required: true, ...json(account) },
          responses: { "200": { description: "", ...json({ properties: { id: text } }) } },
        },
      },
      "/login": {
        post: {
          requestBody: {
            required: true,
            content: { "application/x-www-form-urlencoded": { schema: account } },
          },
          responses: {
            "200": {
              description: "",
              ...json({ properties: { access_token: text, token_type: text } }),
            },
          },
        },
      },
      "/projects": {
        post: {
          security: alternatives,
          requestBody: { required: true, ...json(project) },
          responses: { "200": { description: "", ...json(project) } },
        },
        get: {
          security: alternatives,
          responses: { "200": { description: "", ...json({ type: "array", items: project }) } },
        },
      },
    },
    components: { securitySchemes: { BearerAuth: { type: "http", scheme: "bearer" } } },
  };
}

/** Accounts, form logins issuing tokens, and `/projects` only with one. */
function standIn(seen: string[]) {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  return serveStandIn(async (req) => {
    const route = `${req.method} ${new URL(req.url).pathname}`;
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    seen.push(`${route}${tokens.has(token) ? " (token)" : ""}`);
    if (route === "POST /register") {
      const sent = await req.json();
      accounts.set(sent.username, sent.password);
      return Response.json({ id: "1" });
    }
    if (route === "POST /login") {
      const form = new URLSearchParams(await req.text());
      if (accounts.get(form.get("username") ?? "") !== form.get("password")) {
        return Response.json({ detail: "Invalid credentials" }, { status: 401 });
      }
      const access_token = crypto.randomUUID();
      tokens.add(access_token);
      return Response.json({ access_token, token_type: "bearer" });
    }
    if (!tokens.has(token)) return Response.json({ detail: "Not authenticated" }, { status: 401 });
    if (route === "POST /projects") return Response.json(await req.json());
    if (route === "GET /projects") return Response.json([]);
    return new Response(null, { status: 404 });
  });
}

Deno.test("convert openapi: an alternative naming an undeclared scheme gives way to the next, declared one", async () => {
  const seen: string[] = [];
  const alternatives = [{ OAuth2PasswordBearer: [] }, { BearerAuth: [] }];
  const { runs, summary } = await convertAndRunSuite(document(alternatives), standIn(seen), {
    runs: 2,
  });
  assert.doesNotMatch(summary, /LOGIN_|API_TOKEN/, summary);
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.equal(seen.filter((s) => s === "POST /projects (token)").length, 2, seen.join(", "));
  assert.equal(seen.filter((s) => s === "GET /projects (token)").length, 2, seen.join(", "));
});

Deno.test("convert openapi: a requirement naming only undeclared schemes is left as written", async () => {
  const seen: string[] = [];
  const { flows } = await convertAndRunSuite(
    document([{ OAuth2PasswordBearer: [] }, { Other: [] }]),
    standIn(seen),
    { runs: 0 },
  );
  const all = [...flows.values()].join("\n");
  assert.match(all, /security scheme "OAuth2PasswordBearer" is not in components.securitySchemes/);
});
