/**
 * convert openapi (issue 52): an account's secret named `passcode` (or
 * `passphrase`) is its password, and a schema may type it as a number (a
 * 4-digit code: tRPC-OpenAPI's Express example, measured by hand). The
 * sign-up and login take it from a var made per run, never a literal: a
 * number of as many digits as the value the body was filled with, sent as a
 * number. The login answering a token is then the bearer scheme's
 * credential, so the summary asks for no token.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const json = (properties: Record<string, unknown>) => ({
  content: {
    "application/json": {
      schema: { type: "object", required: Object.keys(properties), properties },
    },
  },
});

const passcode = { type: "number", minimum: 1000, maximum: 9999 };

/** Sign-up and login by email and a numeric passcode; notes under a bearer token. */
function document() {
  return {
    openapi: "3.0.3",
    info: { title: "Notes", version: "1" },
    servers: [{ url: "http://localhost:3000/api" }],
    components: { securitySchemes: { Authorization: { type: "http", scheme: "bearer" } } },
    paths: {
      "/auth/register": {
        post: {
          requestBody: json({ email: { type: "string", format: "email" }, passcode }),
          responses: { "200": json({ id: { type: "string" } }) },
        },
      },
      "/auth/login": {
        post: {
          requestBody: json({ email: { type: "string", format: "email" }, passcode }),
          responses: { "200": json({ token: { type: "string" } }) },
        },
      },
      "/notes": {
        post: {
          security: [{ Authorization: [] }],
          requestBody: json({ text: { type: "string" } }),
          responses: { "200": json({ id: { type: "string" } }) },
        },
      },
    },
  };
}

/** A server that refuses a passcode that is not a number from 1000 to 9999, as a schema validator does. */
function startServer() {
  const accounts = new Map<string, number>();
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json().catch(() => ({}));
    const code = body.passcode;
    const valid = typeof code === "number" && code >= 1000 && code <= 9999;
    seen.push(`${req.method} ${path} ${typeof code}`);
    if (path === "/api/auth/register" && valid && !accounts.has(body.email)) {
      accounts.set(body.email, code);
      return Response.json({ id: crypto.randomUUID() });
    }
    if (path === "/api/auth/login" && valid && accounts.get(body.email) === code) {
      return Response.json({ token: `t-${body.email}` });
    }
    const auth = req.headers.get("authorization") ?? "";
    if (path === "/api/notes" && [...accounts.keys()].some((e) => auth === `Bearer t-${e}`)) {
      return Response.json({ id: crypto.randomUUID() });
    }
    return Response.json({ message: "refused" }, { status: 401 });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { base: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

Deno.test("a numeric passcode is the account's secret, made per run and sent as a number", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-openapi-passcode-" });
  const server = startServer();
  try {
    await Deno.writeTextFile(`${dir}/notes.json`, JSON.stringify(document(), null, 2));
    const converted = await runCli(["convert", "openapi", `${dir}/notes.json`, "-o", `${dir}/f`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.doesNotMatch(converted.stderr, /API_TOKEN/);
    assert.match(converted.stderr, /\(http bearer\) ← POST \/auth\/login \$\.json\.token/);
    let flows = "";
    for await (const e of Deno.readDir(`${dir}/f`)) {
      flows += await Deno.readTextFile(`${dir}/f/${e.name}`);
    }
    assert.doesNotMatch(flows, /passcode: \d/);
    assert.match(flows, /^ {2}pin: \$\{RANDOM\.DIGITS_4\}$/m);
    assert.match(flows, /passcode: \$\{vars\.pin\}/);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const run = await runCli(line.split(" "), { env: { BASE_URL: server.base } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(server.seen.includes("POST /api/notes undefined"), server.seen.join("\n"));
    assert.ok(server.seen.includes("POST /api/auth/login number"), server.seen.join("\n"));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
