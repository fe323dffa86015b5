import assert from "node:assert/strict";
import { ciAnnotations } from "../../../cli/run/ci_annotations.ts";
import { invalidRunResult } from "../../../lib/run/invalid_run.ts";

/** Runs `body` with these environment variables set (undefined: unset), then restores them. */
async function withEnv(vars: Record<string, string | undefined>, body: () => Promise<void>) {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, Deno.env.get(k)]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    }
  };
  set(vars);
  try {
    await body();
  } finally {
    set(before);
  }
}

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
    await withEnv({ GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: summary }, async () => {
      await ciAnnotations(result, [], { enabled: true });
    });
    await assert.rejects(Deno.stat(summary), Deno.errors.NotFound);
    await withEnv({ GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary }, async () => {
      await ciAnnotations(result, [], { enabled: false });
      await assert.rejects(Deno.stat(summary), Deno.errors.NotFound);
      await Deno.writeTextFile(summary, "before\n");
      await ciAnnotations(result, [], { enabled: true });
    });
    const text = await Deno.readTextFile(summary);
    assert.ok(text.startsWith("before\n") && text.length > "before\n".length, text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
