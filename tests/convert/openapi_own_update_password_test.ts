/**
 * `convert openapi`: the update of the signed-in account's own item that
 * sends a password (`PUT /members/{id}` taking `{email, password}`) is the
 * account's own too, sent the very email and password the run signed in
 * with, so the credentials stay as they were. Found on a NestJS Trello-like
 * API measured by hand: such an update was "left to the user", yet its
 * `{id}` fell to `GET /users`' first entry, someone else's account (the
 * first run's, or the shared sign-in's beside a flow's own): it sent that
 * account the run's email, which another account held (409), and, had it
 * been accepted, would have set another account's password.
 *
 * The stand-in server refuses 403 an update of any member but the
 * token's, 409 an email another member holds, and 422 a password other
 * than the member's own (so a flow changing the credentials it signs in
 * with fails here).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, body, json, param, text } from "../support/openapi_doc_parts.ts";

const member = {
  type: "object",
  properties: { id: { type: "integer" }, email: text, joined: text },
};
const note = { type: "object", properties: { id: { type: "integer" }, words: text } };
const bearer = [{ jwt: [] }];

/** Sign-up, login, members (list, read, update), notes: two flows share the sign-in. */
function document(): Record<string, unknown> {
  const credentials = { email: text, password: { type: "string", minLength: 12 } };
  const update = {
    content: json({
      type: "object",
      properties: {
        email: { type: "string", example: "new@example.com" },
        password: { type: "string", example: "AnotherPassword123" },
      },
    }),
  };
  return {
    openapi: "3.0.0",
    info: { title: "Notes", version: "1" },
    components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" } } },
    paths: {
      "/auth/register": {
        post: {
          tags: ["Auth"],
          requestBody: body(credentials),
          responses: { "201": { description: "Registered", content: json(member) } },
        },
      },
      "/auth/login": {
        post: {
          tags: ["Auth"],
          requestBody: body(credentials),
          responses: {
            "201": {
              description: "Signed in",
              content: json({ type: "object", properties: { accessToken: text } }),
            },
          },
        },
      },
      "/members": {
        get: {
          tags: ["Members"],
          security: bearer,
          responses: answers({ type: "array", items: member }),
        },
      },
      "/members/{id}": {
        get: {
          tags: ["Members"],
          security: bearer,
          parameters: param("id"),
          responses: answers(member),
        },
        put: {
          tags: ["Members"],
          security: bearer,
          parameters: param("id"),
          requestBody: update,
          responses: answers(member),
        },
      },
      "/notes": {
        post: {
          tags: ["Notes"],
          security: bearer,
          requestBody: body({ words: text }),
          responses: { "201": { description: "Made", content: json(note) } },
        },
      },
      "/notes/{id}": {
        get: {
          tags: ["Notes"],
          security: bearer,
          parameters: param("id"),
          responses: answers(note),
        },
      },
    },
  };
}

type Member = { id: number; email: string; password: string };

/** The answer to an update of `found` by `caller` sending `sent` (see the module). */
function updated(members: Member[], found: Member, caller: number, sent: Partial<Member>) {
  if (found.id !== caller) return Response.json({ message: "Forbidden" }, { status: 403 });
  if (members.some((m) => m.id !== found.id && m.email === sent.email)) {
    return Response.json({ message: "Email taken" }, { status: 409 });
  }
  if (sent.password !== undefined && sent.password !== found.password) {
    return Response.json({ message: "Password changed" }, { status: 422 });
  }
  if (sent.email !== undefined) found.email = sent.email;
  return Response.json({ id: found.id, email: found.email, joined: "x" });
}

/** Members from 3 on, listed oldest first; a token `t<id>`; notes anyone signed in may make. */
function notesServer() {
  const members: Member[] = [];
  const notes: { id: number; words: string }[] = [];
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const shown = (m: Member) => ({ id: m.id, email: m.email, joined: "x" });
    const sent = req.method === "GET" ? {} : await req.json();
    if (pathname === "/auth/register") {
      members.push({ ...sent, id: members.length + 3 });
      return Response.json(shown(members.at(-1)!), { status: 201 });
    }
    if (pathname === "/auth/login") {
      const found = members.find((m) => m.email === sent.email && m.password === sent.password);
      if (!found) return Response.json({ message: "Unauthorized" }, { status: 401 });
      return Response.json({ accessToken: `t${found.id}` }, { status: 201 });
    }
    const caller = Number((req.headers.get("authorization") ?? "").replace(/^Bearer t/, ""));
    if (!members.some((m) => m.id === caller)) return Response.json({}, { status: 401 });
    if (pathname === "/members") return Response.json(members.map(shown));
    const found = members.find((m) => pathname === `/members/${m.id}`);
    if (found) {
      return req.method === "PUT"
        ? updated(members, found, caller, sent)
        : Response.json(shown(found));
    }
    if (pathname === "/notes") {
      notes.push({ id: notes.length + 1, words: sent.words });
      return Response.json(notes.at(-1), { status: 201 });
    }
    const one = notes.find((n) => pathname === `/notes/${n.id}`);
    return one ? Response.json(one) : Response.json({}, { status: 404 });
  });
}

Deno.test("the account's own update sending a password sends the run's own credentials", async () => {
  const { runs, summary, flows } = await convertAndRunSuite(document(), notesServer(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(summary, /\{id\} of PUT \/members\/\{id\} ← POST \/auth\/register \$\.json\.id/);
  assert.doesNotMatch(summary, /\{id\} of PUT[^\n]*first of its listing/);
  // The password it sends is the one the shared sign-in signed in with.
  const members = flows.get("members.yaml") ?? "";
  assert.match(members, /^ {2}password: \$\{setup\.password\}$/m, members);
  assert.match(members, /^ {8}password: \$\{vars\.password\}$/m, members);
});
