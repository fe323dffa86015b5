/**
 * `convert openapi`: a body's list of UUIDs is not the item's list of the
 * same name when the item answers that list as objects. A bug tracker on
 * FastAPI adds a project's members by `PUT /projects/{project_id}/members`
 * `{members: [uuid]}`, while the project's create answers `members` as
 * memberships, `[{id, joinedAt, member: {id, username}}]`. The rule that
 * keeps an update's UUIDs as the item holds them (`kept_uuids.ts`) sent
 * those objects where UUIDs go (422 "value is not a valid uuid"). The
 * document's own schemas tell the two apart: a list of objects is no list
 * of UUIDs, so the body's list is left to the other rules (here the run's
 * account, `embedded_account.ts`).
 *
 * The stand-in runs on 127.0.0.1: members must be ids of accounts it knows.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ok = (schema: unknown) => ({ "200": { description: "OK", ...json(schema) } });
const uuid = { type: "string", format: "uuid" };
const name = { type: "string" };
const object = (props: Record<string, unknown>) => ({
  type: "object",
  required: Object.keys(props),
  properties: props,
});

const CREDENTIALS = object({ username: name, password: name });
const SIGNED_IN = object({ id: uuid, username: name, token: name });
const MEMBERSHIP = object({
  id: uuid,
  since: { type: "string", format: "date-time" },
  member: object({ id: uuid, username: name }),
});
const TEAM = object({ id: uuid, title: name, members: { type: "array", items: MEMBERSHIP } });
const secured = { security: [{ OAuth2PasswordBearer: [] }] };
const signIn = { requestBody: { required: true, ...json(CREDENTIALS) }, responses: ok(SIGNED_IN) };

/** A JSON sign-up and login, teams whose create answers its memberships, members put by id. */
const document = {
  openapi: "3.0.2",
  info: { title: "Teams", version: "1" },
  components: {
    securitySchemes: {
      OAuth2PasswordBearer: {
        type: "oauth2",
        flows: { password: { scopes: {}, tokenUrl: "auth/login" } },
      },
    },
  },
  paths: {
    "/auth/signup": { post: signIn },
    "/auth/login": { post: signIn },
    "/teams": {
      post: {
        ...secured,
        requestBody: { required: true, ...json(object({ title: name })) },
        responses: ok(TEAM),
      },
    },
    "/teams/{team_id}/members": {
      put: {
        summary: "Add Members",
        ...secured,
        parameters: [{ name: "team_id", in: "path", required: true, schema: uuid }],
        requestBody: {
          required: true,
          ...json(object({ members: { type: "array", items: uuid } })),
        },
        responses: ok({ type: "array", items: MEMBERSHIP }),
      },
    },
  },
};

/** Accounts by name, tokens, teams whose members must be ids of known accounts (422 otherwise). */
function standIn() {
  const accounts = new Map<string, { id: string; password: string }>();
  const tokens = new Set<string>();
  const teams = new Set<string>();
  const signedIn = (username: string) => {
    const token = crypto.randomUUID();
    tokens.add(token);
    return Response.json({ id: accounts.get(username)?.id, username, token });
  };
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = await req.json().catch(() => ({}));
    if (pathname === "/auth/signup") {
      accounts.set(body.username, { id: crypto.randomUUID(), password: body.password });
      return signedIn(body.username);
    }
    if (pathname === "/auth/login") {
      if (accounts.get(body.username)?.password !== body.password) {
        return Response.json({ detail: "Invalid" }, { status: 400 });
      }
      return signedIn(body.username);
    }
    if (!tokens.has((req.headers.get("authorization") ?? "").replace(/^Bearer /, ""))) {
      return Response.json({ detail: "No" }, { status: 401 });
    }
    if (pathname === "/teams") {
      const id = crypto.randomUUID();
      teams.add(id);
      return Response.json({ id, title: body.title, members: [] });
    }
    const put = /^\/teams\/([^/]+)\/members$/.exec(pathname);
    if (!put || !teams.has(put[1])) return Response.json({ detail: "Not Found" }, { status: 404 });
    const sent: unknown[] = Array.isArray(body.members) ? body.members : [];
    if (sent.length === 0 || sent.some((m) => typeof m !== "string")) {
      return Response.json({ detail: "value is not a valid uuid" }, { status: 422 });
    }
    const known = [...accounts].filter(([, a]) => sent.includes(a.id));
    if (known.length !== sent.length) return Response.json({ detail: "Unknown" }, { status: 500 });
    const since = new Date().toISOString();
    return Response.json(
      known.map(([username, a]) => ({
        id: crypto.randomUUID(),
        since,
        member: { id: a.id, username },
      })),
    );
  });
}

Deno.test("convert openapi: a list of UUIDs is not kept from the item's list of objects of that name", async () => {
  const { runs, summary } = await convertAndRunSuite(document, standIn(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.doesNotMatch(summary, /members of PUT \/teams\/\{team_id\}\/members ← POST \/teams/);
});
