import assert from "node:assert/strict";
import { renderReport } from "../../cli/report.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { toJsonReport } from "../../lib/report/json.ts";
import { invalidRunResult } from "../../lib/run/invalid_run.ts";

Deno.test("report html renders a JSON report as one HTML file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const result = invalidRunResult({
      run_id: "r",
      started_at: "2026-01-01T00:00:00.000Z",
      problems: [{ file: "a.yaml", line: 1, column: 1, code: "bad-key", message: "Bad key." }],
      files: ["a.yaml"],
    });
    await Deno.writeTextFile(`${dir}/r.json`, JSON.stringify(toJsonReport(result)));
    assert.equal(await renderReport(["html", `${dir}/r.json`, "-o", `${dir}/r.html`]), 0);
    const html = await Deno.readTextFile(`${dir}/r.html`);
    assert.ok(
      html.startsWith("<!DOCTYPE html>") || html.startsWith("<!doctype html>"),
      html.slice(0, 40),
    );
    assert.ok(html.includes("a.yaml"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("report: an unknown format, no reports or no -o is a usage error", async () => {
  const code = (args: string[]) =>
    renderReport(args).then(
      () => "none",
      (e) => (e instanceof UsageError ? e.code : String(e)),
    );
  assert.equal(await code([]), "bad-command");
  assert.equal(await code(["pdf", "r.json"]), "bad-command");
  assert.equal(await code(["html"]), "no-paths");
  assert.equal(await code(["html", "r.json"]), "no-output");
});
