/**
 * The summary of a suite that registers its own account says how to sign in
 * as an account the user already has: its email and password in a
 * `--vars-file`. Where the sign-up and the login go into the run's one setup
 * flow (`.sign_in.yaml`), a sign-up the server refuses failed that flow, and a
 * setup flow that does not pass skips every flow: the hint's way never ran a
 * step. Seen on a hapi sales API whose sign-up checks a national tax number
 * its document types as a bare string (400 for every made-up value), where an
 * account made by hand signed in and still nothing ran.
 *
 * The setup's sign-up now runs only for the account the run made: the vars
 * it sends are the run's own values (a twin var keeps the made one), and a
 * password given by the user is not the one the run made. Checked against a
 * server the test starts whose sign-up refuses everyone 400.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const DOCUMENT = `openapi: 3.0.3
info: {title: Shop, version: '1'}
security: [{jwt: []}]
paths:
  /accounts:
    post:
      operationId: signUp
      tags: [accounts]
      security: []
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [email, password, taxNumber]
              properties:
                email: {type: string, format: email}
                password: {type: string}
                taxNumber: {type: string}
      responses: {'201': {description: the account}}
  /sessions:
    post:
      operationId: logIn
      tags: [accounts]
      security: []
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [email, password]
              properties: {email: {type: string}, password: {type: string}}
      responses:
        '200':
          description: a token
          content:
            application/json:
              schema: {type: object, properties: {token: {type: string}}}
  /orders:
    get:
      operationId: listOrders
      tags: [orders]
      responses: {'200': {description: the account's orders}}
  /invoices:
    get:
      operationId: listInvoices
      tags: [invoices]
      responses: {'200': {description: the account's invoices}}
components:
  securitySchemes:
    jwt: {type: http, scheme: bearer}
`;

const ACCOUNT = { email: "bob@example.org", password: "Hand-Made-Pass-9" };

/** A sign-up no made-up value passes; the login knows one account; the lists want its token. */
function strictSignUp(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/accounts") {
      await req.body?.cancel();
      return Response.json({ message: '"taxNumber" is invalid' }, { status: 400 });
    }
    if (path === "/sessions") {
      const body = await req.json();
      const known = body.email === ACCOUNT.email && body.password === ACCOUNT.password;
      return known ? Response.json({ token: "tok-bob" }) : new Response(null, { status: 404 });
    }
    const auth = req.headers.get("authorization");
    return auth === "Bearer tok-bob" ? Response.json([]) : new Response(null, { status: 401 });
  });
}

type Report = {
  flows: { file: string; status: string; steps: { name: string; status: string }[] }[];
};

/** Each step's status in a run's JSON report, by step name. */
async function statuses(file: string): Promise<Map<string, string>> {
  const report: Report = JSON.parse(await Deno.readTextFile(file));
  return new Map(report.flows.flatMap((f) => f.steps.map((s) => [s.name, s.status])));
}

Deno.test("convert openapi: the setup flow signs in as the user's own account from --vars-file when the sign-up refuses", async () => {
  const server = strictSignUp();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/shop.yaml`, DOCUMENT);
    const converted = await runCli(["convert", "openapi", `${dir}/shop.yaml`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /--setup .*\.sign_in\.yaml/);
    assert.match(converted.stderr, /give its email and password in a --vars-file/);
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    const setup = ["--setup", `${dir}/out/.sign_in.yaml`];
    // As printed: the made-up account is refused, so the setup fails and nothing runs.
    const made = await runCli(
      ["run", `${dir}/out`, ...setup, "--report-json", `${dir}/made.json`],
      {
        env,
      },
    );
    assert.equal(made.code, 1);
    const first = await statuses(`${dir}/made.json`);
    assert.equal(first.get("sign_up"), "failed", made.stdout);
    assert.notEqual(first.get("list_orders"), "passed");
    await Deno.writeTextFile(
      `${dir}/account.yaml`,
      `email: ${ACCOUNT.email}\npassword: ${ACCOUNT.password}\n`,
    );
    const own = await runCli(
      [
        "run",
        `${dir}/out`,
        ...setup,
        "--vars-file",
        `${dir}/account.yaml`,
        "--report-json",
        `${dir}/own.json`,
      ],
      { env },
    );
    assert.equal(own.code, 0, own.stdout + own.stderr);
    const second = await statuses(`${dir}/own.json`);
    assert.equal(second.get("sign_up"), "skipped", own.stdout);
    assert.equal(second.get("log_in"), "passed", own.stdout);
    assert.equal(second.get("list_orders"), "passed", own.stdout);
    assert.equal(second.get("list_invoices"), "passed", own.stdout);
    const text = await Deno.readTextFile(`${dir}/own.json`);
    assert.ok(!text.includes(ACCOUNT.password), "the password is masked");
    // The run's made password, which the skip's reason compares it with, is masked too.
    assert.match(text, /equals \\"\*\*\*\\" does not hold/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
