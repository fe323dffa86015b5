/**
 * A suite that registers its own account (a sign-up beside the login) can
 * sign in as an account the user already has, where the server's sign-up is
 * closed (FastAPI's project template before 2024: `USERS_OPEN_REGISTRATION`
 * off; an admin makes the users): the summary says how, and the run does
 * it. The made-up account is the flows' vars (`email`, `password`), and a
 * `--vars-file` gives them, as run parameters override vars. Checked against
 * a server the test starts whose sign-up answers 403 to everyone.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const DOCUMENT = `openapi: 3.0.3
info: {title: Notes, version: '1'}
security: [{jwt: []}]
paths:
  /users:
    post:
      operationId: signUp
      security: []
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [email, password]
              properties: {email: {type: string, format: email}, password: {type: string}}
      responses: {'201': {description: the account}}
  /login:
    post:
      operationId: logIn
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
              schema: {type: object, properties: {access_token: {type: string}}}
  /notes:
    get:
      operationId: listNotes
      responses: {'200': {description: the account's notes}}
components:
  securitySchemes:
    jwt: {type: http, scheme: bearer}
`;

const ACCOUNT = { email: "alice@example.com", password: "Existing-Pass-7" };

/** Sign-up closed; the login knows one account; the notes want its token. */
function closedSignUp(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/users") {
      return Response.json({ detail: "Open sign-up is forbidden" }, { status: 403 });
    }
    if (path === "/login") {
      const body = await req.json();
      const known = body.email === ACCOUNT.email && body.password === ACCOUNT.password;
      return known
        ? Response.json({ access_token: "tok-alice" })
        : new Response(null, { status: 400 });
    }
    const auth = req.headers.get("authorization");
    return auth === "Bearer tok-alice" ? Response.json([]) : new Response(null, { status: 401 });
  });
}

Deno.test("convert openapi: a suite that registers its account signs in as the user's own with --vars-file, where sign-up is closed", async () => {
  const server = closedSignUp();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/notes.yaml`, DOCUMENT);
    const converted = await runCli([
      "convert",
      "openapi",
      `${dir}/notes.yaml`,
      "-o",
      `${dir}/flows`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(
      converted.stderr,
      /signed in as the account POST \/users registers; to sign in as an account of yours instead \(a server whose sign-up is closed\), give its email and password in a --vars-file/,
    );
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    // As printed: the made-up account is refused its sign-up, so nothing signs in.
    const made = await runCli(["run", `${dir}/flows`, "--report-json", `${dir}/made.json`], {
      env,
    });
    assert.equal(made.code, 1);
    await Deno.writeTextFile(
      `${dir}/account.yaml`,
      `email: ${ACCOUNT.email}\npassword: ${ACCOUNT.password}\n`,
    );
    const own = await runCli(
      [
        "run",
        `${dir}/flows`,
        "--vars-file",
        `${dir}/account.yaml`,
        "--report-json",
        `${dir}/own.json`,
      ],
      { env },
    );
    const report = JSON.parse(await Deno.readTextFile(`${dir}/own.json`));
    const steps = report.flows.flatMap((f: { steps: { name: string; status: string }[] }) =>
      f.steps
    );
    const status = (name: string) => steps.find((s: { name: string }) => s.name === name)?.status;
    assert.equal(status("list_notes"), "passed", own.stdout + own.stderr);
    assert.equal(status("log_in"), "passed", own.stdout);
    // The sign-up is the server's to refuse: it is the one step that fails.
    assert.equal(status("sign_up"), "failed");
    assert.ok(!JSON.stringify(report).includes(ACCOUNT.password), "the password is masked");
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
