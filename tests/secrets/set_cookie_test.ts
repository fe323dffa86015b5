/**
 * A `Set-Cookie` header is secret whole, and its cookie's value on its own; its attributes
 * (`Path=/`, `Expires=<date>`, `HttpOnly`, `SameSite=Lax`) are the protocol's. Registered whole,
 * the header's 16-character pieces came from its attributes too, and masked every other
 * cookie's attributes (`theme=dark***`) and any text holding the same date (a `date` header of
 * that second) in every report (issue 53, item 15: mask what is secret, by where it came from).
 */
import assert from "node:assert/strict";
import { secretsInRequest, secretsInResponse } from "../../lib/secrets/discover.ts";
import { Redactor } from "../../lib/secrets/redactor.ts";
import { runCli } from "../support/cli.ts";

const SESSION = "s3ss10n-8f2a9c7e";
const ATTRIBUTES = "; Path=/; Expires=Thu, 01 Jan 2037 00:00:00 GMT; HttpOnly; SameSite=Lax";

Deno.test("a Set-Cookie's attributes are not secret: another cookie's and a date stay readable", () => {
  const r = new Redactor();
  const register = (value: string, shown?: readonly string[]) => r.add(value, shown);
  for (
    const header of [`sid=${SESSION}${ATTRIBUTES}`, `a=1${ATTRIBUTES}, sid=${SESSION}${ATTRIBUTES}`]
  ) {
    secretsInResponse(
      { headers: { "set-cookie": header }, text: "", json: { ok: false } },
      register,
    );
  }
  for (
    const plain of [
      `theme=dark${ATTRIBUTES}`,
      "date: Thu, 01 Jan 2037 00:00:00 GMT",
      "lang=en; Path=/; HttpOnly; SameSite=Lax",
    ]
  ) {
    assert.equal(r.redact(plain), plain);
  }
  // The session is masked wherever it stands, the header as a whole, and a piece of the value.
  // (The space before it too: a piece of the joined header's `, sid=…`.)
  assert.match(r.redact(`set-cookie: sid=${SESSION}${ATTRIBUTES}`), /^set-cookie: ?\*\*\*$/);
  assert.match(r.redact(`cookie: sid=${SESSION}`), /^cookie:( sid=)?\*\*\*$/);
  // The cookie's name is shown: a cut value stays masked after it.
  assert.equal(r.redact(`sid=${SESSION.slice(0, 12)}…`), "sid=***…");
});

Deno.test("a session cookie is masked in every report, another cookie's attributes are not", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const login = new URL(request.url).pathname === "/login";
    const cookie = login ? `sid=${SESSION}${ATTRIBUTES}` : `theme=dark${ATTRIBUTES}`;
    return Response.json({ ok: true }, { headers: { "set-cookie": cookie } });
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-set-cookie-" });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: cookies\nsteps:\n  - name: login\n    request: {url: "${base}/login"}\n` +
        `  - name: prefs\n    request: {url: "${base}/prefs"}\n`,
    );
    const cli = await runCli([
      "run",
      `${dir}/f.yaml`,
      "-v",
      ...["--report-json", `${dir}/r.json`, "--log-file", `${dir}/r.log`],
    ]);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    const report = await Deno.readTextFile(`${dir}/r.json`);
    for (const [name, text] of [["console", cli.stdout], ["JSON report", report]]) {
      assert.ok(!text.includes(SESSION), `${name} holds the session`);
      assert.ok(text.includes(`theme=dark${ATTRIBUTES}`), `${name} masks another cookie:\n${text}`);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a cookie's name is the server's word: shown in any case, the value masked in any case", () => {
  const r = new Redactor();
  const register = (value: string, shown?: readonly string[]) => r.add(value, shown);
  const token = "f2b8c1d0e9a74b6c8d5e3f1a2b3c4d5e";
  // A name of 16 characters, as an instance names its CSRF cookie, was a piece of the whole.
  secretsInResponse(
    {
      headers: { "set-cookie": `CSRF-Token-QK7ZM=${token}${ATTRIBUTES}` },
      text: "",
      json: { ok: false },
    },
    register,
  );
  secretsInRequest(
    { url: "http://h/", headers: [["cookie", `Session-Id-QK7ZMAB=${token.slice(4)}; theme=dark`]] },
    register,
  );
  for (const name of ["x-csrf-token-qk7zm: 1", "X-CSRF-TOKEN-QK7ZM", "session-id-qk7zmab"]) {
    assert.equal(r.redact(name), name);
  }
  assert.equal(r.redact(`echo ${token.toUpperCase()}`), "echo ***");
});
