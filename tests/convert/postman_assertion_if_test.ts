/**
 * A test script that compares an assertion with a value, `if
 * (pm.response.to.have.header("X-Mode") === "fast") { … }` (a teacher's folder script writes it so,
 * meaning to read the header), stayed a comment. In Postman's sandbox the assertion gives chai's
 * assertion object, never a text, so `===` is false and `!==` true whatever the header holds,
 * while the assertion itself throws when the header is missing, which stops the script and fails
 * the run. Such an `if` is the assertion (an unnamed check, as written alone) and the branch the
 * comparison always takes.
 *
 * Newman 6.2.1 (by hand, this collection against a server that sends `X-Mode` on `/with` only):
 * `/with` runs `always` and `after` (both pass), neither `never` nor `never either`; `/without` fails with
 * "AssertionError in test-script: expected response to have header with key 'X-Mode'" and runs
 * no test after it.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const TESTS = [
  "if (pm.response.to.have.header('X-Mode') === 'fast') {",
  "  pm.test('never', () => pm.response.to.have.status(500));",
  "}",
  "if (pm.response.to.have.header('X-Mode') !== 'fast') pm.test('always', () => pm.response.to.have.status(200));",
  "if (pm.expect(pm.response.code).to.equal(200) === true) pm.test('never either', () => {});",
  "pm.test('after', () => pm.response.to.have.status(200));",
];

/** Two reads under a collection test script, one answered with the header and one without. */
function collection(base: string) {
  const read = (name: string) => ({ name, request: { method: "GET", url: `${base}/${name}` } });
  return {
    info: { name: "Compared assertion", schema: V21 },
    event: [{ listen: "test", script: { exec: TESTS } }],
    item: [read("with"), read("without")],
  };
}

/** The report's checks of one step: name (or path) and verdict. */
// deno-lint-ignore no-explicit-any
const checksOf = (step: any) => step.assertions.map((a: any) => [a.message ?? a.path, a.passed]);

Deno.test("postman assertion compared in an if: the assertion, and the branch always taken", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const headers = new URL(req.url).pathname === "/with" ? { "X-Mode": "fast" } : undefined;
    return Response.json({ ok: true }, { headers });
  });
  const dir = await Deno.makeTempDir();
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const { files, summary } = convertPostman(JSON.stringify(collection(base)));
    const text = formatPostmanSummary(summary, dir);
    assert.match(text, /Assertions: 10 translated, 0 untranslated/, text);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /never|# untranslated/, flow.text);
    for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout + run.stderr + flow.text);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const [withHeader, without] = report.flows[0].steps;
    assert.equal(withHeader.status, "passed", JSON.stringify(withHeader));
    const names = checksOf(withHeader).map((c: unknown[]) => String(c[0]).split(":")[0]);
    // The named tests Newman runs; the assertions alone are unnamed checks (their paths).
    assert.deepEqual(
      names.filter((n: string) => !n.startsWith("$")),
      ["always", "after"],
      JSON.stringify(names),
    );
    assert.equal(names.length, 5, JSON.stringify(names));
    assert.equal(without.status, "failed");
    assert.ok(
      checksOf(without).some((c: unknown[]) => /x-mode/.test(String(c[0])) && c[1] === false),
      JSON.stringify(checksOf(without)),
    );
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
