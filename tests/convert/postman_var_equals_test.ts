/**
 * Checks under an `if` comparing a variable with text (a public project's
 * own data-driven Restful Booker suite, measured by hand, see
 * docs/real-servers.md: `if (pm.iterationData.get("expectResults") ===
 * "true") { pm.test(…) }`, one branch per expected outcome of a row): the
 * group is checked when the variable's value at run time equals (or differs
 * from) the text, as Newman decides per iteration. Every spelling — `===`,
 * `==`, `!==`, `!=`, the text on either side, under `!`, a data file's column
 * and a collection variable — is a check group's `if`; both stayed comments,
 * named as if no data file had been given. A number or boolean literal (typed
 * by where the value came from) stays a comment.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const TESTS = [
  "const items = pm.response.json();",
  'if (pm.iterationData.get("expect") === "some") {',
  '  pm.test("has items", () => pm.expect(items.length).to.be.above(0));',
  "}",
  'if ("none" == pm.iterationData.get("expect")) {',
  '  pm.test("is empty", () => pm.expect(items.length).to.eql(0));',
  "}",
  'if (pm.iterationData.get("expect") !== "none") pm.test("not none", () => pm.expect(items).to.not.be.empty);',
  'if (!(pm.collectionVariables.get("mode") != "strict")) pm.test("strict", () => pm.response.to.have.status(200));',
];

const collection = (base: string) => ({
  info: { name: "Filters", schema: V21 },
  variable: [{ key: "baseUrl", value: base }, { key: "mode", value: "strict" }],
  item: [{
    name: "Search",
    event: [{ listen: "test", script: { exec: TESTS } }],
    request: { method: "GET", url: "{{baseUrl}}/items?name={{name}}" },
  }],
});

/** Each row a search and what it should find. */
const ROWS = "name,expect\nJim,some\nNobody,none\nBrown,some\n";

/** Finds items named Jim or Brown; `bent` finds nothing for anyone. */
function itemServer() {
  const state = { bent: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const name = new URL(req.url).searchParams.get("name") ?? "";
    const found = !state.bent && ["Jim", "Brown"].includes(name);
    return Response.json(found ? [{ id: 1, name }] : []);
  });
  return { state, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman var equals: checks under a variable compared with text run as Newman runs them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-var-equals-" });
  const server = itemServer();
  try {
    const file = `${dir}/collection.json`;
    await Deno.writeTextFile(file, JSON.stringify(collection(server.url)));
    await Deno.writeTextFile(`${dir}/rows.csv`, ROWS);
    const counts = await runNewman(file, { baseUrl: server.url }, `${dir}/rows.csv`);
    // Rows Jim and Brown: has items, not none, strict; row Nobody: is empty, strict.
    assert.deepEqual([counts.assertions, counts.failedAssertions], [8, 0]);
    const args = ["convert", "postman", file, "-d", `${dir}/rows.csv`, "-o", `${dir}/flows`];
    const converted = await runCli(args);
    assert.equal(converted.code, 0, converted.stderr);
    const summary = converted.stdout + converted.stderr;
    const flow = await Deno.readTextFile(`${dir}/flows/1_filters.yaml`);
    assert.doesNotMatch(flow, /# untranslated/, flow);
    assert.equal([...flow.matchAll(/^ +- if: \{ value: "\$\{vars\.expect\}"/gm)].length, 3, flow);
    const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /3 passed/, run.stdout);
    // Nothing found for anyone: Newman fails "has items" and "not none" twice each; so does the flow.
    server.state.bent = true;
    const bent = await runNewman(file, { baseUrl: server.url }, `${dir}/rows.csv`);
    assert.equal(bent.failedAssertions, 4);
    const failed = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    assert.notEqual(failed.code, 0);
    const names = new Set([...failed.stdout.matchAll(/✘ ([^:\n]+): \$/g)].map((m) => m[1].trim()));
    assert.deepEqual([...names].sort(), ["has items", "not none"], failed.stdout);
    assert.match(failed.stdout, /3 steps: 1 passed, 2 failed/, failed.stdout);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman var equals: a number or boolean compared stays a comment", () => {
  // A variable read at run time, as a data file's column or a value the user sets is.
  const variable = (n: string) => ({ k: "var" as const, name: n, expr: `\${vars.${n}}` });
  for (const literal of ["1", "true"]) {
    const source =
      `if (pm.iterationData.get("n") === ${literal}) pm.test("t", () => pm.response.to.have.status(200));`;
    const t = translateScript(source, variable);
    assert.equal(t.checks.length, 0, literal);
    assert.equal(t.untranslatedAssertions, 1, literal);
  }
  const text = translateScript(
    'if (pm.iterationData.get("n") === "1") pm.test("t", () => pm.response.to.have.status(200));',
    variable,
  );
  assert.equal(text.untranslatedAssertions, 0);
});
