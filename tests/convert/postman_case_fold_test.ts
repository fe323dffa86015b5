/**
 * `pm.expect(json.detail.toLowerCase()).to.include("permission")`: a second Django course
 * project's own permissions collection checks an error message so, whatever its case. It was a
 * comment (a flow has no case folding), as was `json.detail.toLowerCase().includes("permission")`.
 * A part's text in one case compared with a literal is a pattern on the part, each letter a class
 * of the characters that fold to it: it matches where the folded text holds the literal. A
 * literal the fold cannot give (a capital after `toLowerCase()`, which never matches in Newman)
 * stays a comment. A small server answers each message; the verdicts are the ones chai gives.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import type { Sym } from "../../lib/convert/postman/script/sym.ts";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const variable = (name: string): Sym => ({ k: "var", name, expr: `\${vars.${name}}` });

const CHECKS = [
  "const json = pm.response.json();",
  "pm.test('says permission', () => pm.expect(json.detail.toLowerCase()).to.include('permission'));",
  "pm.test('state open', () => pm.expect(json.state.toUpperCase()).to.eql('OPEN'));",
  "pm.test('state ===', () => pm.expect(json.state.toLowerCase() === 'open').to.be.true);",
  "tests['has it'] = json.detail.toLowerCase().includes('permission');",
];

Deno.test("postman case fold: a folded part compared with a literal is a pattern on the part", () => {
  const t = translateScript(CHECKS.join("\n"), variable);
  assert.deepEqual(t.untranslated, []);
  const conds = t.checks.map((c) => "cond" in c ? c.cond : c) as { path: string; op: string }[];
  assert.deepEqual(conds.map((c) => [c.path, c.op]), [
    ["$.json.detail", "matches"],
    ["$.json.state", "matches"],
    ["$.json.state", "matches"],
    ["$.json.detail", "matches"],
  ]);
  // A capital after toLowerCase() is never there: no check says it, the line stays a comment.
  const never = translateScript(
    "pm.test('x', () => pm.expect(pm.response.json().detail.toLowerCase()).to.include('Permission'));",
    variable,
  );
  assert.equal(never.translated, 0);
});

Deno.test("postman case fold: the checks give chai's verdicts on each answer", async () => {
  const answers: Record<string, unknown> = {
    "/a": { detail: "You do not have PERMISSION to do this.", state: "Open" },
    "/b": { detail: "Not found.", state: "closed" },
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => Response.json(answers[new URL(req.url).pathname]),
  );
  const dir = await Deno.makeTempDir();
  try {
    const get = (name: string, path: string) => ({
      name,
      event: [{ listen: "test", script: { exec: CHECKS } }],
      request: { method: "GET", url: `{{base}}${path}` },
    });
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Case fold", schema: V21 },
      variable: [{ key: "base", value: `http://127.0.0.1:${server.addr.port}` }],
      item: [get("a", "/a"), get("b", "/b")],
    }));
    for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const verdicts = report.flows[0].steps.map((
      s: { assertions: { passed: boolean; name?: string }[] },
    ) => s.assertions.filter((a) => a.name !== undefined).map((a) => [a.name, a.passed]));
    assert.deepEqual(verdicts, [
      [["says permission", true], ["state open", true], ["state ===", true], ["has it", true]],
      [["says permission", false], ["state open", false], ["state ===", false], ["has it", false]],
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
