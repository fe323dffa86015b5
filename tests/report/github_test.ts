import assert from "node:assert/strict";
import {
  githubAnnotations,
  githubProblemAnnotations,
  githubSummary,
  MAX_ANNOTATIONS,
} from "../../lib/report/github.ts";
import type { RunResult } from "../../lib/model/result.ts";

const c = (passed: number, failed: number) => ({
  total: passed + failed,
  passed,
  failed,
  error: 0,
  skipped: 0,
});

function run(failures: number): RunResult {
  const steps = Array.from({ length: failures }, (_, i) => ({
    name: `s${i}`,
    status: "failed",
    line: 3,
    column: 5,
    assertions: [{ passed: false, message: `check ${i} | *broke*`, line: 10 + i, column: 7 }],
  }));
  return {
    run_id: "r`1",
    status: failures ? "failed" : "passed",
    duration_ms: 1234,
    totals: {
      flows: c(0, 1),
      steps: c(0, failures),
      assertions: { total: 0, passed: 0, failed: 0 },
    },
    flows: [{ file: "a,b:c.yaml", name: "A", status: "failed", steps }],
  } as unknown as RunResult;
}

Deno.test("an annotation per failed step, its properties escaped; past the limit one warning", () => {
  const [first] = githubAnnotations(run(1));
  assert.equal(first, "::error file=a%2Cb%3Ac.yaml,line=10,col=7,title=A › s0::check 0 | *broke*");
  const many = githubAnnotations(run(MAX_ANNOTATIONS + 3));
  assert.equal(many.length, MAX_ANNOTATIONS + 1);
  assert.equal(
    many.at(-1),
    "::warning title=flowrun::3 more failures are not annotated; see the reports.",
  );
});

Deno.test("the summary's table escapes Markdown; a reproduce block gets a fence no name closes", () => {
  const text = githubSummary(run(1), (file) => `flowrun run '${file}' # \`\`\``);
  assert.match(text, /^### ❌ flowrun: 0 of 1 flow passed\n/);
  assert.match(text, /Run `r'1` · 1\.23 s/);
  assert.match(text, /\| `a,b:c\.yaml:10:7` \| A › s0 \| check 0 \\\| \\\*broke\\\* \|/);
  assert.match(text, /\n````sh\nflowrun run 'a,b:c.yaml' # ```\n````\n/);
});

Deno.test("problems are annotated like compiler errors, the hint on a second line", () => {
  assert.deepEqual(
    githubProblemAnnotations([{
      code: "bad",
      message: "50% wrong",
      file: "a.yaml",
      line: 1,
      column: 2,
    }]),
    ["::error file=a.yaml,line=1,col=2,title=error[bad]::50%25 wrong"],
  );
});
