/**
 * `convert har` on a single-page admin whose signed-in user adds an account
 * with a password they choose, the admin authenticating with Basic
 * credentials and not a session, as RabbitMQ's management UI does
 * (tests/real/rabbitmq_har_test.ts): the page's script fetches the form's
 * template (`users.ejs`, an HTML fragment answered
 * `application/octet-stream`) with `<input type="password" name="password">`
 * and its confirmation, and sends `PUT /api/users/marina`
 * `{"password": "Tide-Lantern-58", …}` with `Authorization: Basic` of the
 * signed-in administrator. The password was asked for as a variable, though
 * nobody knows it before the run. Evidence, whatever the names: the
 * fragment declares the field a password input, the request authenticates
 * as someone else (a Basic credential with another password), and no other
 * request sends the value: the run makes one up, as for a form that adds an
 * account in a cookie session (chosen_passwords.ts).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";
import { harOf } from "../support/har_records.ts";

const ADMIN_PASSWORD = "Quill-Harbor-77";
const CHOSEN = "Tide-Lantern-58";
const BASIC = btoa(`ada:${ADMIN_PASSWORD}`);
const FORM = '<form><input type="text" name="username"/><input type="password" name="password"/>' +
  '<input type="password" name="password_confirm"/></form>';

/** A stand-in that keeps the accounts added, its API behind the administrator's Basic login. */
function standIn() {
  const users = new Map<string, string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (!path.startsWith("/api/")) return new Response(FORM);
    if (req.headers.get("authorization") !== `Basic ${BASIC}`) {
      return Response.json({ error: "not_authorised" }, { status: 401 });
    }
    const name = path.split("/").pop()!;
    if (req.method === "PUT") {
      const body = await req.json();
      if (typeof body.password !== "string" || body.password.length < 8) {
        return Response.json({ error: "bad_request" }, { status: 400 });
      }
      users.set(name, body.password);
      return new Response(null, { status: 201 });
    }
    if (req.method === "DELETE") {
      return new Response(null, { status: users.delete(name) ? 204 : 404 });
    }
    return Response.json([...users.keys()].map((n) => ({ name: n })));
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, users, close: () => server.shutdown() };
}

function recording(): string {
  const at = "http://127.0.0.1:4242";
  const login: [string, string] = ["Authorization", `Basic ${BASIC}`];
  const har = JSON.parse(harOf([
    { url: `${at}/js/tmpl/users.ejs?0.4518`, html: FORM },
    { url: `${at}/api/users`, headers: [login], json: [] },
    {
      method: "PUT",
      url: `${at}/api/users/marina`,
      headers: [login, ["Content-Type", "application/json"]],
      body: JSON.stringify({ username: "marina", password: CHOSEN, tags: "" }),
      status: 201,
      html: "",
    },
    { url: `${at}/api/users`, headers: [login], json: [{ name: "marina" }] },
    { method: "DELETE", url: `${at}/api/users/marina`, headers: [login], status: 204, html: "" },
  ]));
  // The page's script fetches the template (an XHR), answered `application/octet-stream`.
  for (const entry of har.log.entries) entry._resourceType = "xhr";
  har.log.entries[0].response.content.mimeType = "application/octet-stream";
  return JSON.stringify(har);
}

Deno.test("convert har: a password the Basic-authenticated admin chose for a new account is made up by the run, and only the admin's password is asked", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-basic-chosen-" });
  const app = standIn();
  try {
    const { converted, flow } = await convertHar(dir, recording());
    assert.match(converted.stderr, /Set before running: BASIC_PASSWORD\./, flow);
    assert.ok(!flow.includes(CHOSEN) && !flow.includes(ADMIN_PASSWORD), flow);
    assert.match(flow, /password: \$\{vars\.chosen_password\}/, flow);
    const env = { BASE_URL: app.origin, BASIC_PASSWORD: ADMIN_PASSWORD };
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
