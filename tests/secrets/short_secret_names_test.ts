/**
 * A name flowrun builds from a value quotes that value: a `foreach` iteration's name
 * (`login [0] (user=admin)`) and a data-driven row's (`data login [admin]`). Where the value is a
 * short secret (a password `admin`), that part of the name is a value and is masked, in every
 * artifact, while the rest of the name, every name the user wrote literally (`as admin`), and the
 * report's structure stay: JUnit testcases unique, `--filter` on the flow's name still selecting
 * its rows, and the same names on a second run, which `--history` keys on.
 */
import assert from "node:assert/strict";
import { runWritten, startEchoing, testcases, type Written } from "./short_secret_artifacts.ts";

/** Over two users, the first the password itself; the flow's and step's names hold it literally. */
const FOREACH = `name: as admin, each user
steps:
  - name: login
    foreach: ["\${ENV.PASSWORD}", viewer, 1234]
    as: user
    request:
      method: POST
      url: \${BASE_URL}/login
      body: {user: "\${vars.user}"}
    assert: {status: 200}
  - name: admin step
    request: {url: "\${BASE_URL}/items?q=x"}
    assert: {status: 200}
`;

/** Two rows named by their \`name\` column; the first's name is also its (secret) password. */
const ROWS = `name: data login
data:
  - {name: admin, password: admin}
  - {name: viewer, password: viewer-pass-2}
  - {name: test, password: other-pass-3}
steps:
  - name: login
    request:
      method: POST
      url: \${BASE_URL}/login
      body: {user: "\${vars.name}", password: "\${vars.password}"}
    assert: {status: 200}
`;

const ENV = { PASSWORD: "admin", PIN: "1234", PASSWORD_T: "test" };

async function run(dir: string, args: readonly string[] = []): Promise<Written> {
  const srv = startEchoing();
  try {
    // ENV.PIN and ENV.PASSWORD_T are read so they are the run's secrets (a PIN, a password).
    const pin = `name: pin\nsteps:\n  - name: pin\n    request: {url: "\${BASE_URL}/items?q=` +
      `\${ENV.PIN}-\${ENV.PASSWORD_T}"}\n    assert: {status: 200}\n`;
    await Deno.writeTextFile(`${dir}/pin.yaml`, pin);
    await Deno.writeTextFile(`${dir}/foreach.yaml`, FOREACH);
    await Deno.writeTextFile(`${dir}/rows.yaml`, ROWS);
    const files = ["pin.yaml", "foreach.yaml", "rows.yaml"].map((f) => `${dir}/${f}`);
    return await runWritten(files, dir, { BASE_URL: srv.base, ...ENV }, args);
  } finally {
    await srv.close();
  }
}

Deno.test("a name built from a short secret masks that part; a name written literally stays", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-names-" });
  try {
    const w = await run(dir);
    assert.equal(w.code, 0, w.console);
    const flows = w.report.flows.map((f) => f.name);
    assert.deepEqual(flows, [
      "as admin, each user",
      "pin",
      "data login [*** (row 1)]",
      "data login [viewer]",
      "data login [*** (row 3)]",
    ]);
    const each = w.report.flows[0].steps.map((s) => s.name);
    assert.deepEqual(each, [
      "login [0] (user=***)",
      "login [1] (user=viewer)",
      "login [2] (user=***)",
      "admin step",
    ]);
    // The names read the same in every artifact, the user's own words included.
    for (const name of [...flows, ...each]) {
      assert.ok(w.console.includes(name), `console: ${name}\n${w.console}`);
      assert.ok(w.texts.some((t) => t.includes(name)), name);
    }
    for (const text of w.texts) {
      for (const leak of ["(user=admin)", "(user=1234)", "[admin]", "[test]", "user=***…"]) {
        assert.ok(!text.includes(leak), `${leak} in ${text.slice(0, 300)}`);
      }
    }
    // JUnit: one testsuite per flow, each testcase name unique within it, all there.
    const suites = testcases(w.junit);
    assert.deepEqual([...suites.keys()], flows);
    for (const [suite, cases] of suites) {
      assert.equal(new Set(cases).size, cases.length, `${suite}: ${cases}`);
    }
    assert.deepEqual(suites.get("as admin, each user"), each);
    // The log and the job summary name the same steps and flows.
    const logged = new Set(w.log.map((l) => l.step).filter((s) => typeof s === "string"));
    for (const name of each) assert.ok(logged.has(name), `log: ${name}`);
    assert.ok(w.summary.includes("data login [*** (row 1)]") || !w.summary.includes("data login"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("names with a masked part filter, read the same on a second run and on worker threads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-names-" });
  try {
    const first = await run(dir, ["--filter", "data login"]);
    assert.equal(first.code, 0, first.console);
    const names = first.report.flows.map((f) => f.name);
    assert.deepEqual(names, [
      "data login [*** (row 1)]",
      "data login [viewer]",
      "data login [*** (row 3)]",
    ]);
    await Deno.copyFile(`${dir}/out/report.json`, `${dir}/first.json`);
    const second = await run(dir, ["--filter", "data login", "--history", `${dir}/first.json`]);
    assert.equal(second.code, 0, second.console);
    assert.deepEqual(second.report.flows.map((f) => f.name), names);
    // Flows run on worker threads load and name their rows there: the same names.
    const threads = await run(dir, ["--workers", "2"]);
    assert.equal(threads.code, 0, threads.console);
    assert.deepEqual(threads.report.flows.map((f) => f.name), [
      "as admin, each user",
      "pin",
      ...names,
    ]);
    assert.deepEqual(threads.report.flows[0].steps.map((s) => s.name).slice(0, 3), [
      "login [0] (user=***)",
      "login [1] (user=viewer)",
      "login [2] (user=***)",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
