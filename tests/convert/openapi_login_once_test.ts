/**
 * `convert openapi` signs in once per run, not once per flow. A document
 * split into several flows (one per tag) gave each flow its own copy of the
 * sign-up and the login; a real server limiting sign-ins (tududi: 5 per 15
 * minutes, `RATE_LIMIT_AUTH_MAX`) refused the sixth flow's login 429 and
 * every later read of that flow answered 401. Newman and a person sign in
 * once: the sign-up and the login now go into one setup flow the printed
 * command passes with `--setup`, whose outputs hand the token to every flow.
 * The setup file is hidden (`.sign_in.yaml`), so `flowrun run OUT/` never
 * reads it as a flow: run alone, the flows say they need `--setup`. A
 * cookie session (tududi's `connect.sid`, named by a cookie apiKey scheme)
 * hands on its cookie the same way.
 *
 * The stand-in runs on 127.0.0.1 and refuses any second sign-in 429, as a
 * rate limit of one would.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const account = json({
  type: "object",
  required: ["email", "password"],
  properties: {
    email: { type: "string", format: "email" },
    password: { type: "string", format: "password" },
  },
});
const list = (tag: string, path: string) => ({
  [path]: {
    get: {
      tags: [tag],
      operationId: `list_${tag}`,
      responses: { "200": { description: "ok", ...json({ type: "array", items: {} }) } },
    },
  },
});

/** Bearer tokens, or a session cookie `sid` (a cookie apiKey scheme) that the login sets. */
const document = (cookie: boolean) => ({
  openapi: "3.0.3",
  info: { title: "Notes", version: "1" },
  security: [{ [cookie ? "sid" : "bearer"]: [] }],
  components: {
    securitySchemes: cookie
      ? { sid: { type: "apiKey", in: "cookie", name: "sid" } }
      : { bearer: { type: "http", scheme: "bearer" } },
  },
  tags: [{ name: "auth" }, { name: "notes" }, { name: "labels" }, { name: "folders" }],
  paths: {
    "/users": {
      post: {
        tags: ["auth"],
        operationId: "register",
        security: [],
        requestBody: account,
        responses: { "201": { description: "made", ...json({ type: "object" }) } },
      },
    },
    "/login": {
      post: {
        tags: ["auth"],
        operationId: "login",
        security: [],
        requestBody: account,
        responses: {
          "200": {
            description: "signed in",
            ...json({
              type: "object",
              properties: cookie ? { ok: { type: "boolean" } } : { token: { type: "string" } },
            }),
          },
        },
      },
    },
    ...list("notes", "/notes"),
    ...list("labels", "/labels"),
    ...list("folders", "/folders"),
  },
});

/** Registers anyone, signs in once (429 after), and lists only for the token (or cookie) it gave. */
function rateLimited(cookie: boolean) {
  const counts = { signIns: 0, signUps: 0 };
  const accounts = new Map<string, string>();
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "POST" && pathname === "/users") {
      const body = await req.json();
      counts.signUps++;
      accounts.set(body.email, body.password);
      return Response.json({ email: body.email }, { status: 201 });
    }
    if (req.method === "POST" && pathname === "/login") {
      const body = await req.json();
      if (++counts.signIns > 1) {
        return Response.json({ error: "Too many sign-ins" }, { status: 429 });
      }
      if (accounts.get(body.email) !== body.password) {
        return Response.json({ error: "Bad credentials" }, { status: 401 });
      }
      if (!cookie) return Response.json({ token: "tok-1" });
      return Response.json({ ok: true }, { headers: { "set-cookie": "sid=tok-1; Path=/" } });
    }
    if (req.method === "GET" && ["/notes", "/labels", "/folders"].includes(pathname)) {
      const sent = cookie ? req.headers.get("cookie") : req.headers.get("authorization");
      if (sent !== (cookie ? "sid=tok-1" : "Bearer tok-1")) {
        return Response.json({ error: "unauthorized" }, { status: 401 });
      }
      return Response.json([]);
    }
    return new Response(null, { status: 404 });
  });
  return { server, counts };
}

for (const cookie of [false, true]) {
  Deno.test(
    `convert openapi: the suite signs in once per run, in a setup flow the printed command passes (${
      cookie ? "a session cookie" : "a bearer token"
    })`,
    () => signsInOnce(cookie),
  );
}

async function signsInOnce(cookie: boolean) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-login-once-" });
  const { server, counts } = rateLimited(cookie);
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document(cookie)));
    const out = `${dir}/flows`;
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", out]);
    assert.equal(converted.code, 0, converted.stderr);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line && line.includes("--setup"), converted.stderr);
    const report = `${dir}/report.json`;
    const run = await runCli([...line.split(" "), "--report-json", report], {
      env: { BASE_URL: server.base },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(counts.signIns, 1);
    assert.equal(counts.signUps, 1);
    const flows: { steps: { name: string; status: string }[] }[] =
      JSON.parse(await Deno.readTextFile(report)).flows;
    const steps = flows.flatMap((f) => f.steps);
    // The three lists and the sign-up and login, each once, all passed.
    assert.deepEqual(steps.map((s) => s.status), Array(5).fill("passed"), JSON.stringify(steps));
    // No literal credential in what was written.
    for (const entry of Deno.readDirSync(out)) {
      const text = await Deno.readTextFile(`${out}/${entry.name}`);
      assert.ok(!/password: (?!\$\{)/.test(text), text);
    }
    // Run alone, the folder's flows are read (not the setup file), and they say they need it.
    const alone = await runCli(["run", out], { env: { BASE_URL: server.base } });
    assert.equal(alone.code, 2, alone.stdout + alone.stderr);
    assert.match(alone.stdout + alone.stderr, /--setup/);
    assert.equal(counts.signIns, 1);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}
