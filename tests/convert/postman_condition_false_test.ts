/**
 * `pm.expect(pm.cookies.has("JSESSIONID")).to.be.false`, as a tester's store collection asks
 * after each refused request: a condition (a cookie in the jar, a comparison) asserted not to
 * hold. Only `.to.be.true` and `.ok` of a condition were translated, so twelve such checks were
 * comments. Now `.false`, `.not.true` and `.not.ok` are the condition's negation (the cookie not
 * in the jar: `exists: false`), and `.not.false` the condition, where one condition has a
 * negation; a schema validated `false` (no negation) stays a comment. Proven against Newman on a
 * server the test starts, one check written to fail in both.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import { runNewman } from "../support/newman_counts.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const nothing = () => ({ k: "lit" as const, value: undefined });
const conds = (source: string) =>
  translateScript(source, nothing).checks.map((c) => "cond" in c ? c.cond : c);

Deno.test("postman condition false: false, not.true and not.ok are the negation; not.false the condition", () => {
  const absent = { path: "$.jar.sid", op: "exists", value: false };
  const present = { path: "$.jar.sid", op: "exists", value: true };
  assert.deepEqual(conds("pm.expect(pm.cookies.has('sid')).to.be.false;"), [absent]);
  assert.deepEqual(conds("pm.expect(pm.cookies.has('sid')).to.not.be.true;"), [absent]);
  assert.deepEqual(conds("pm.expect(pm.cookies.has('sid')).not.ok;"), [absent]);
  assert.deepEqual(conds("pm.expect(pm.cookies.has('sid')).to.not.be.false;"), [present]);
  assert.deepEqual(conds("pm.expect(pm.cookies.has('sid')).to.be.true;"), [present]);
  const schema = translateScript(
    "pm.expect(tv4.validate(pm.response.json(), { type: 'array' })).to.be.false;",
    nothing,
  );
  assert.deepEqual([schema.translated, schema.untranslatedAssertions], [0, 1]);
});

Deno.test("postman condition false: a cookie asserted absent gets Newman's verdicts", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const headers: Record<string, string> = new URL(req.url).pathname === "/login"
      ? { "set-cookie": "sid=s-1; Path=/" }
      : {};
    return Response.json({ ok: true }, { headers });
  });
  const item = (name: string, path: string, exec: string[]) => ({
    name,
    event: [{ listen: "test", script: { exec } }],
    request: { method: "GET", url: `{{baseUrl}}${path}`, header: [] },
  });
  const collection = {
    info: { name: "Absent cookie", schema: V21 },
    variable: [{ key: "baseUrl", value: `http://127.0.0.1:${server.addr.port}` }],
    item: [
      item("Refused", "/refused", [
        "pm.test('no session', () => pm.expect(pm.cookies.has('sid')).to.be.false);",
      ]),
      item("Login", "/login", [
        "pm.test('a session', () => pm.expect(pm.cookies.has('sid')).to.not.be.false);",
        "pm.test('no session yet', () => pm.expect(pm.cookies.has('sid')).to.be.false);",
      ]),
    ],
  };
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/c.json`;
    await Deno.writeTextFile(file, JSON.stringify(collection));
    const newman = await runNewman(file);
    assert.deepEqual([newman.requests, newman.assertions, newman.failedAssertions], [2, 3, 1]);
    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/out`]);
    const summary = converted.stdout + converted.stderr;
    assert.match(summary, /3 translated, 0 untranslated/, summary);
    const run = await runCli([
      ...summary.match(/^Run: flowrun (.*)$/m)![1].split(" "),
      "--report-json",
      `${dir}/r.json`,
    ]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const verdicts = report.flows[0].steps.flatMap((
      s: { assertions: { message: string; passed: boolean }[] },
    ) => s.assertions.map((a) => [a.message.split(":")[0], a.passed]));
    assert.deepEqual(verdicts, [["no session", true], ["a session", true], [
      "no session yet",
      false,
    ]]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
