import assert from "node:assert/strict";
import { nothingSelected, problemsText, replay } from "../../../cli/run/invalid.ts";
import { invalidRunResult } from "../../../lib/run/invalid_run.ts";

Deno.test("a selection that matched nothing says which selectors, over how many files", () => {
  const [both] = nothingSelected(["a", "b*"], "smoke", 1);
  assert.equal(
    both.message,
    '--filter "a", "b*" and --tag "smoke" matched none of the 1 flow file, so nothing would run.',
  );
  assert.equal(both.code, "no-match");
  assert.match(both.hint!, /^Check the pattern: /);
  const [tags] = nothingSelected([], "smoke", 0);
  assert.equal(
    tags.message,
    '--tag "smoke" matched none of the 0 flow files, so nothing would run.',
  );
  assert.match(tags.hint!, /^Check the tag names /);
  assert.equal(
    problemsText([tags], true),
    `error[no-match]: ${tags.message}\n  hint: ${tags.hint}\n`,
  );
});

Deno.test("flow-file problems are listed by file", () => {
  const text = problemsText(
    [{ file: "a.yaml", line: 3, column: 5, code: "bad-key", message: "Bad key.", hint: "Fix." }],
    false,
  );
  assert.match(text, /a\.yaml/);
  assert.match(text, /bad-key/);
});

Deno.test("replay drives every hook in order: start, each flow, end", async () => {
  const seen: string[] = [];
  const result = invalidRunResult({
    run_id: "r",
    started_at: "2026-01-01T00:00:00.000Z",
    problems: [{ file: "b.yaml", line: 1, column: 1, code: "x", message: "X." }],
    files: ["a.yaml", "b.yaml"],
  });
  await replay({
    onRunStart: (start) => void seen.push(`start ${start.run_id} ${start.files.join(",")}`),
    onFlowEnd: (flow) => void seen.push(flow.file),
    onRunEnd: (end) => void seen.push(`end ${end.status}`),
  }, result);
  assert.deepEqual(seen, ["start r a.yaml,b.yaml", "a.yaml", "b.yaml", "end failed"]);
});
