/**
 * convert openapi (issue 52): a document generated from Python code copies
 * the code's validators into `pattern`, in Python's dialect: Django's user
 * name rule `^[\w.@+-]+\Z` (DRF's `SchemaGenerator` writes it `…\z`), its
 * slug rule `^[-a-zA-Z0-9_]+\Z`, `\A` and named groups `(?P<y>…)`,
 * `(?P=y)`, and flags for the whole pattern written first (`(?i)`, Python's
 * and Java's). Read as ECMA-262 without the `u` flag, `\z` is the letter z:
 * measured by hand on a DRF library API (Django 3.2, DRF 3.14), every answer
 * holding a user ("admin") failed its `openapi:` check though the server
 * answered 201, and a made-up slug ended in "Z", which Django refuses. The
 * server here checks bodies as Django does and answers as DRF does; the
 * flow converted with default options passes on it.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const USER_NAME = "^[\\w.@+-]+\\z"; // DRF's spelling of Django's UnicodeUsernameValidator
const SLUG = "^[-a-z0-9_]+\\Z"; // Django's slug rule, lower case only
const CODE = "\\A(?P<year>[0-9]{4})-(?P=year)\\Z"; // a start anchor and named groups
const STATE = "(?i)^(active|closed)\\Z"; // flags for the whole pattern, written first

type Field = "username" | "slug" | "code" | "state";

/** A DRF-shaped document: a create whose body has the slug, answers naming the user. */
function document(patterns: Partial<Record<Field, string>>) {
  const member = {
    type: "object",
    properties: {
      id: { type: "integer", readOnly: true },
      user: {
        type: "object",
        readOnly: true,
        properties: {
          id: { type: "integer", readOnly: true },
          username: { type: "string", pattern: patterns.username, maxLength: 150 },
        },
        required: ["username"],
      },
      slug: { type: "string", pattern: patterns.slug, maxLength: 50 },
      code: { type: "string", pattern: patterns.code, readOnly: true },
      state: { type: "string", pattern: patterns.state, readOnly: true },
    },
    required: ["slug"],
  };
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
  return {
    openapi: "3.0.2",
    info: { title: "Members", version: "1.0.0" },
    paths: {
      "/api/members/": {
        get: {
          operationId: "listMembers",
          responses: {
            "200": {
              description: "",
              ...json({
                type: "object",
                properties: {
                  count: { type: "integer" },
                  next: { type: "string", nullable: true },
                  previous: { type: "string", nullable: true },
                  results: { type: "array", items: member },
                },
              }),
            },
          },
        },
        post: {
          operationId: "createMember",
          requestBody: json(member),
          responses: { "201": { description: "", ...json(member) } },
        },
      },
      "/api/members/{id}/": {
        get: {
          operationId: "retrieveMember",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "", ...json(member) } },
        },
      },
    },
  };
}

/** Checks the slug as Django would (`\Z` is the end), answers with the signed-in "admin". */
function startServer() {
  const members: Record<string, unknown>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/api/members/") {
      const body = await req.json().catch(() => ({}));
      if (typeof body.slug !== "string" || !/^[-a-z0-9_]+$/.test(body.slug)) {
        return Response.json({ slug: ["Enter a valid “slug”."] }, { status: 400 });
      }
      const id = members.length + 1;
      const made = {
        id,
        user: { id: 1, username: "admin" },
        slug: body.slug,
        code: "2024-2024",
        state: "ACTIVE",
      };
      members.push(made);
      return Response.json(made, { status: 201 });
    }
    if (req.method === "GET" && path === "/api/members/") {
      return Response.json({ count: members.length, next: null, previous: null, results: members });
    }
    const one = /^\/api\/members\/(\d+)\/$/.exec(path);
    const found = one && members.find((m) => String(m.id) === one[1]);
    if (req.method === "GET" && found) return Response.json(found);
    return Response.json({ detail: "Not found." }, { status: 404 });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { base: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

/** Each spelling alone, so each can fail on its own. */
const CASES: [string, Partial<Record<Field, string>>][] = [
  ["DRF's \\z in an answer's user name", { username: USER_NAME }],
  ["Django's \\Z in a body's slug", { slug: SLUG }],
  ["\\A and named groups in an answer", { code: CODE }],
  ["(?i) written first in an answer", { state: STATE }],
  ["all of them at once", { username: USER_NAME, slug: SLUG, code: CODE, state: STATE }],
];

for (const [name, patterns] of CASES) {
  Deno.test(`a pattern in Python's dialect is read as Python means it: ${name}`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-openapi-python-patterns-" });
    const server = startServer();
    try {
      await Deno.writeTextFile(`${dir}/members.json`, JSON.stringify(document(patterns), null, 2));
      const converted = await runCli([
        "convert",
        "openapi",
        `${dir}/members.json`,
        "-o",
        `${dir}/f`,
      ]);
      assert.equal(converted.code, 0, converted.stderr);
      const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
      assert.ok(line, converted.stderr);
      const report = `${dir}/report.json`;
      const run = await runCli([...line.split(" "), "--report-json", report], {
        env: { BASE_URL: server.base },
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const steps = JSON.parse(await Deno.readTextFile(report)).flows
        .flatMap((f: { steps: { status: string }[] }) => f.steps);
      assert.equal(steps.length, 3, run.stdout);
      assert.ok(steps.every((s: { status: string }) => s.status === "passed"), run.stdout);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
