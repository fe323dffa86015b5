/**
 * `convert openapi` on a document whose users' create is open and takes the
 * login's credentials beside the sign-up (`POST /auth/register`), and whose
 * users' tag also holds operations needing the login's token (a NestJS 10
 * cats API on PostgreSQL, measured by hand: `POST /api/v1/users` next to
 * `/auth/register` and `/auth/login`, `GET /auth/profile` secured). The
 * users' create is the sign-up's second, sent only when the sign-up is
 * refused (second_signup.ts); its own flow, the users' tag, pulled the
 * sign-up in for the login its other steps need, so there too it waited for
 * a refusal that never came: the create was sent in no flow, an operation
 * of the document never exercised. In the flow of its own tag, where the
 * sign-up is there too, it is now sent every run, with an account of its
 * own (an email made per run): the run's account is the sign-up's, and a
 * server keeping emails unique refuses the same email twice. Elsewhere it
 * stays the sign-up's second.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, body, json, param, text } from "../support/openapi_doc_parts.ts";

/** The account's name: an email, or a user name. */
type Name = "email" | "username";
const credentials = (name: Name) => ({ [name]: text, password: { type: "string", minLength: 8 } });
const user = (name: Name) => ({
  type: "object",
  properties: { id: { type: "number" }, [name]: text },
});
const made = (schema: unknown) => ({ "201": { description: "", content: json(schema) } });
const secured = [{ bearer: [] }];

/** As `@nestjs/swagger` writes it: tags, a bearer scheme, no security on the creates. */
function document(usersSecured: boolean, name: Name) {
  return {
    openapi: "3.0.0",
    info: { title: "Cats", version: "1" },
    paths: {
      "/auth/register": {
        post: {
          tags: ["Auth"],
          requestBody: body(credentials(name)),
          responses: made({ type: "object" }),
        },
      },
      // The login's answer undescribed: its token is found by name.
      "/auth/login": {
        post: {
          tags: ["Auth"],
          requestBody: body(credentials(name)),
          responses: { "201": { description: "" } },
        },
      },
      "/auth/profile": {
        get: { tags: ["Auth"], security: secured, responses: answers(user(name)) },
      },
      "/users": {
        post: {
          tags: ["Users"],
          requestBody: body(credentials(name)),
          responses: made(user(name)),
        },
        get: {
          tags: ["Users"],
          ...(usersSecured ? { security: secured } : {}),
          responses: answers({ type: "array", items: user(name) }),
        },
      },
      "/users/{id}": {
        get: {
          tags: ["Users"],
          ...(usersSecured ? { security: secured } : {}),
          parameters: param("id"),
          responses: answers(user(name)),
        },
        delete: {
          tags: ["Users"],
          ...(usersSecured ? { security: secured } : {}),
          parameters: param("id"),
          responses: { "200": { description: "" } },
        },
      },
    },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  };
}

type Seen = { method: string; path: string; status: number }[];

/**
 * Accounts by `name`, each made once (a second of one name: 409); the token is `t-<id>`, wanted by
 * the profile and, when `usersSecured`, by the users' reads and delete. Only an account the users'
 * create made may be deleted (403 else): never the run's own, signed in.
 */
function accountServer(seen: Seen, usersSecured: boolean, name: Name) {
  const emails = new Map<string, number>();
  const byUsers = new Set<number>();
  const answer = (req: Request, res: Response) => {
    seen.push({ method: req.method, path: new URL(req.url).pathname, status: res.status });
    return res;
  };
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const sent = req.method === "POST" ? await req.json() : {};
    const make = () => {
      if (emails.has(sent[name])) return Response.json({ message: "taken" }, { status: 409 });
      emails.set(sent[name], emails.size + 1);
      return Response.json({ id: emails.size, email: sent[name] }, { status: 201 });
    };
    if (path === "/auth/register") return answer(req, make());
    if (path === "/users" && req.method === "POST") {
      const res = make();
      if (res.status === 201) byUsers.add(emails.size);
      return answer(req, res);
    }
    if (path === "/auth/login") {
      const id = emails.get(sent[name]);
      const res = id ? Response.json({ access_token: `t-${id}` }, { status: 201 }) : null;
      return answer(req, res ?? new Response(null, { status: 401 }));
    }
    const signed = /^Bearer t-\d+$/.test(req.headers.get("authorization") ?? "");
    if (!signed && (usersSecured || path === "/auth/profile")) {
      return answer(req, new Response(null, { status: 401 }));
    }
    const all = [...emails].map(([key, id]) => ({ id, [name]: key }));
    if (path === "/users") return answer(req, Response.json(all));
    const id = Number(path.split("/").pop());
    if (req.method === "DELETE") {
      return answer(req, new Response(null, { status: byUsers.has(id) ? 200 : 403 }));
    }
    return answer(req, Response.json(all.find((u) => u.id === id) ?? all[0]));
  });
}

for (
  const [usersSecured, name] of [[true, "email"], [true, "username"], [false, "email"]] as const
) {
  const how = usersSecured ? "its tag's reads need the token" : "the profile needs the token";
  Deno.test(`convert openapi: an open users' create beside the sign-up is sent, its own account (${how}, ${name})`, async () => {
    const seen: Seen = [];
    const server = accountServer(seen, usersSecured, name);
    try {
      const { runs, summary } = await convertAndRunSuite(document(usersSecured, name), server, {
        runs: 2,
      });
      for (const run of runs) {
        const out = summary + run.stdout + run.stderr;
        assert.equal(run.code, 0, out);
        assert.doesNotMatch(run.stdout, /not exercised/, out);
      }
      // Each run sends it and each is accepted: no name the sign-up already took; the delete ends
      // the item it made (found in the listing by its own name), never the run's account.
      const creates = seen.filter((r) => r.method === "POST" && r.path === "/users");
      assert.ok(creates.length >= 2, JSON.stringify(seen));
      assert.deepEqual(creates.filter((r) => r.status !== 201), [], JSON.stringify(seen));
      const deletes = seen.filter((r) => r.method === "DELETE");
      assert.ok(
        deletes.length >= 2 && deletes.every((r) => r.status === 200),
        JSON.stringify(seen),
      );
    } finally {
      await server.close();
    }
  });
}
