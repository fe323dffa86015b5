/**
 * `convert har` on Basic credentials a page sends in a header of its own
 * (`X-Authorization: Basic base64(user:password)`, where RFC 7617 would use
 * `Authorization`, so the browser's own login prompt never shows), or as
 * bare base64 in a token header after a login form the user typed them
 * into. The converter asked for the header's whole value as one opaque
 * secret (`AUTHORIZATION`): the user had to base64-encode `user:password`
 * by hand. Now the step's `auth: basic` names the header (`header:`) and
 * the word before the credentials (`scheme:`, empty for bare base64), the
 * user name as recorded and the password one variable, the same one the
 * login form's password is when the page typed it there; the run builds the
 * header and masks it. A value no password was typed for and that says no
 * `Basic` is still asked whole: its colon is no evidence of a password.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const USER = "ada";
const PASSWORD = "Quill-Harbor:77 é";
const B64 = btoa(String.fromCharCode(...new TextEncoder().encode(`${USER}:${PASSWORD}`)));

/** A notes API that wants the credentials in `header`, as `prefix` + base64. */
function standIn(header: string, prefix: string) {
  const seen: string[] = [];
  let next = 40;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    const body = await req.text();
    if (pathname === "/api/login") {
      const ok = body === JSON.stringify({ username: USER, password: PASSWORD });
      seen.push(`login ${ok ? "ok" : "401"}`);
      return Response.json({ ok }, { status: ok ? 200 : 401 });
    }
    const ok = req.headers.get(header) === `${prefix}${B64}` && !req.headers.has("authorization");
    seen.push(`${req.method} ${pathname} ${ok ? "ok" : "401"}`);
    if (!ok) return Response.json({ error: "unauthorised" }, { status: 401 });
    if (req.method === "POST") return Response.json({ id: next++, title: "a" }, { status: 201 });
    if (req.method === "DELETE") return new Response(null, { status: 204 });
    return Response.json({ user: USER });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, seen, close: () => server.shutdown() };
}

/** One XHR entry as Playwright records it. */
function entry(method: string, path: string, status: number, answer: unknown, extra: object) {
  const { headers = [], body } = extra as { headers?: object[]; body?: unknown };
  return {
    startedDateTime: "2026-11-28T17:00:00.000Z",
    request: {
      method,
      url: `http://127.0.0.1:5000${path}`,
      headers: [{ name: "Accept", value: "application/json" }, ...headers],
      ...(body === undefined
        ? {}
        : { postData: { mimeType: "application/json", text: JSON.stringify(body) } }),
    },
    response: {
      status,
      headers: [{ name: "Content-Type", value: "application/json" }],
      content: { mimeType: "application/json", text: answer === "" ? "" : JSON.stringify(answer) },
    },
    _resourceType: "xhr",
  };
}

/** Logs in (when `login`), reads, creates and deletes a note sending `header: value`. */
function recording(header: string, value: string, login = false): string {
  const h = { headers: [{ name: header, value }] };
  const entries = [
    entry("GET", "/api/me", 200, { user: USER }, h),
    entry("POST", "/api/notes", 201, { id: 7, title: "a" }, { ...h, body: { title: "a" } }),
    entry("DELETE", "/api/notes/7", 204, "", h),
  ];
  if (login) {
    const body = { username: USER, password: PASSWORD };
    entries.unshift(entry("POST", "/api/login", 200, { ok: true }, { body }));
  }
  return JSON.stringify({ log: { entries } });
}

/** Converts, checks no secret is written, runs with `env`; the flow, the run and the server's log. */
async function convertThenRun(
  header: string,
  prefix: string,
  har: string,
  env: (password: string) => Record<string, string>,
) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-basic-header-" });
  const app = standIn(header, prefix);
  try {
    const { converted, flow } = await convertHar(dir, har);
    for (const secret of [PASSWORD, B64, B64.slice(0, 12)]) {
      assert.ok(!flow.includes(secret) && !converted.stderr.includes(secret), `${secret}\n${flow}`);
    }
    const run = await runCli(["run", `${dir}/flow.yaml`], {
      env: { BASE_URL: app.origin, ...env(PASSWORD) },
    });
    const report = `${dir}/report.json`;
    const wrong = await runCli(["run", `${dir}/flow.yaml`, "-v", "--report-json", report], {
      env: { BASE_URL: app.origin, ...env("Wrong:pw 9") },
    });
    const wrongB64 = btoa(`${USER}:Wrong:pw 9`);
    const json = await Deno.readTextFile(report);
    for (const secret of [PASSWORD, B64, "Wrong:pw 9", wrongB64, wrongB64.slice(4, 16)]) {
      assert.ok(!run.stdout.includes(secret) && !wrong.stdout.includes(secret), secret);
      assert.ok(!json.includes(secret), `${secret} in the JSON report`);
    }
    assert.notEqual(wrong.code, 0, wrong.stdout);
    return { flow, summary: converted.stderr, run, seen: app.seen };
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert har: Basic credentials in a header of the page's own (X-Authorization) are the step's auth basic naming that header: the password asked, never the base64", async () => {
  const { flow, summary, run, seen } = await convertThenRun(
    "x-authorization",
    "Basic ",
    recording("X-Authorization", `Basic ${B64}`),
    (password) => ({ BASIC_PASSWORD: password }),
  );
  assert.match(summary, /Set before running: BASIC_PASSWORD\./);
  assert.doesNotMatch(flow, /AUTHORIZATION|x-authorization: /, flow);
  const auths = flow.match(
    /auth:\n\s+basic:\n\s+username: ada\n\s+password: \$\{ENV\.BASIC_PASSWORD\}\n\s+header: x-authorization\n/g,
  );
  assert.equal(auths?.length, 3, flow);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  assert.deepEqual(seen.slice(0, 3), [
    "GET /api/me ok",
    "POST /api/notes ok",
    "DELETE /api/notes/40 ok",
  ]);
});

Deno.test("convert har: bare base64 of user:password in a token header, after a login form that sent the password, is built from the form's one password variable (scheme empty)", async () => {
  const { flow, summary, run, seen } = await convertThenRun(
    "x-auth-token",
    "",
    recording("X-Auth-Token", B64, true),
    (password) => ({ LOGIN_PASSWORD: password }),
  );
  assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
  const auths = flow.match(
    /auth:\n\s+basic:\n\s+username: ada\n\s+password: \$\{ENV\.LOGIN_PASSWORD\}\n\s+header: x-auth-token\n\s+scheme: ""\n/g,
  );
  assert.equal(auths?.length, 3, flow);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  assert.deepEqual(seen.slice(0, 4), [
    "login ok",
    "GET /api/me ok",
    "POST /api/notes ok",
    "DELETE /api/notes/40 ok",
  ]);
});

Deno.test("convert har: the class, whatever the header's name: `basic` in lower case in another header is kept as written", async () => {
  const { flow, run } = await convertThenRun(
    "api-credentials",
    "basic ",
    recording("Api-Credentials", `basic ${B64}`),
    (password) => ({ BASIC_PASSWORD: password }),
  );
  assert.match(flow, /header: api-credentials\n\s+scheme: basic\n/, flow);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
});

Deno.test("convert har: bare base64 with a colon inside that no form typed, or that an answer gave, is no password: asked whole, or captured", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-basic-header-" });
  try {
    const token = btoa("id7:1764345600:f00dfeed");
    const asked = await convertHar(dir, recording("X-Auth-Token", token));
    assert.doesNotMatch(asked.flow, /basic:/, asked.flow);
    assert.match(asked.flow, /x-auth-token: \$\{ENV\.AUTH_TOKEN\}/, asked.flow);
    const har = JSON.parse(recording("X-Authorization", `Basic ${B64}`));
    // The server handed the page its credentials (a sign-in answer): a capture, not a password.
    har.log.entries.unshift(entry("POST", "/api/session", 200, { token: B64 }, {}));
    const given = await convertHar(dir, JSON.stringify(har));
    assert.doesNotMatch(given.flow, /basic:|BASIC_PASSWORD/, given.flow);
    assert.match(given.flow, /x-authorization: Basic \$\{steps\.\w+\.capture\.\w+\}/, given.flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
