/**
 * The last stages of a set load: schema problems at the check that holds
 * the schema, the problems of a set capped with one that counts the rest
 * (and the files they are in), and a warning for each `--var` no flow
 * reads, with the close name when there is one.
 */
import assert from "node:assert/strict";
import {
  capTotal,
  MAX_PROBLEMS_TOTAL,
  schemaProblems,
  unusedVars,
} from "../../lib/load/set_finish.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import type { Problem } from "../../lib/model/errors.ts";
import "../support/engines.ts";

const problem = (file: string, omitted?: number): Problem => ({
  code: "x",
  message: "m",
  hint: "h",
  file,
  line: 2,
  column: 3,
  ...(omitted ? { omitted } : {}),
});

Deno.test("past the cap, one problem counts the rest and the other files", () => {
  const few = [problem("a.yaml")];
  assert.equal(capTotal(few), few);
  const many = [
    // Problems at different places: the same problem twice is listed once.
    ...Array.from(
      { length: MAX_PROBLEMS_TOTAL },
      (_, i) => ({ ...problem("a.yaml"), line: i + 1 }),
    ),
    problem("b.yaml", 40),
    problem("c.yaml"),
    problem("d.yaml"),
  ];
  const capped = capTotal(many);
  assert.equal(capped.length, MAX_PROBLEMS_TOTAL + 1);
  const last = capped.at(-1)!;
  assert.equal(last.code, "too-many-problems");
  assert.equal(last.file, "b.yaml");
  assert.deepEqual([last.line, last.column, last.omitted, last.omittedFiles], [2, 3, 42, 2]);
  assert.equal(
    last.message,
    "42 more problems, in this file and 2 more, are not listed (the first 1000 of the flow set are).",
  );
});

Deno.test("the same problem from several flows (a check file they share) is listed once", () => {
  const twice = [problem("checks/a.yaml"), problem("checks/a.yaml"), problem("b.yaml")];
  assert.deepEqual(capTotal(twice).map((p) => p.file), ["checks/a.yaml", "b.yaml"]);
});

Deno.test("unused --var: one warning each, with the close name", () => {
  const params = new Map([["user", "a"], ["uesr", "b"], ["zzz", "c"]]);
  const warnings = unusedVars(params, new Set(["user"]), 1);
  assert.deepEqual(warnings.map((w) => w.name), ["uesr", "zzz"]);
  assert.equal(
    warnings[0].message,
    "--var uesr is not used by any of the 1 flow (no var, ${uesr} or ${vars.uesr}).",
  );
  assert.equal(warnings[0].hint, "Did you mean --var user=…? Names are case-sensitive.");
  assert.equal(
    warnings[1].hint,
    "Check the name against the flows' vars, or leave the option out.",
  );
  assert.match(unusedVars(params, new Set(), 2)[0].message, /of the 2 flows /);
});

Deno.test("a schema that refers to itself is a bad-schema problem at its check", async () => {
  const { flow } = loadFlow(
    "name: s\nsteps:\n  - name: a\n    request: {url: http://x.test}\n" +
      '    assert:\n      schema: {allOf: [{$ref: "#"}]}\n',
    "s.yaml",
  );
  const problems = await schemaProblems({ setup: [], flows: [flow!], teardown: [] });
  assert.equal(problems.length, 1);
  assert.equal(problems[0].code, "bad-schema");
  assert.equal(problems[0].file, "s.yaml");
  assert.equal(problems[0].line, 6);
  assert.match(
    problems[0].message,
    /^The JSON Schema "the inline schema" cannot be used: the schema at # → #\/allOf\/0 → # refers to itself/,
  );
  assert.equal(problems[0].hint, "Fix the schema: it must be valid JSON Schema (draft 2020-12).");
});
