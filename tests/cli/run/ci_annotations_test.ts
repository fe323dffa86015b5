import assert from "node:assert/strict";
import { ciAnnotations } from "../../../cli/run/ci_annotations.ts";
import { invalidRunResult } from "../../../lib/run/invalid_run.ts";

/**
 * An environment of these variables only: the process's own is shared by every test file
 * `deno test --parallel` runs beside this one and inherited by the CLIs they start.
 */
const envOf = (vars: Record<string, string | undefined>) => (name: string) => vars[name];

const result = invalidRunResult({
  run_id: "r",
  started_at: "2026-01-01T00:00:00.000Z",
  problems: [{ file: "a.yaml", line: 2, column: 1, code: "bad-key", message: "Bad key." }],
  files: ["a.yaml"],
});

Deno.test("on GitHub Actions the job summary is appended; elsewhere, or turned off, nothing is", async () => {
  const dir = await Deno.makeTempDir();
  const summary = `${dir}/summary.md`;
  try {
    await ciAnnotations(result, [], {
      enabled: true,
      env: envOf({ GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: summary }),
    });
    await assert.rejects(Deno.stat(summary), Deno.errors.NotFound);
    const env = envOf({ GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary });
    await ciAnnotations(result, [], { enabled: false, env });
    await assert.rejects(Deno.stat(summary), Deno.errors.NotFound);
    await Deno.writeTextFile(summary, "before\n");
    await ciAnnotations(result, [], { enabled: true, env });
    const text = await Deno.readTextFile(summary);
    assert.ok(text.startsWith("before\n") && text.length > "before\n".length, text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
