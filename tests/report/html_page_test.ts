import assert from "node:assert/strict";
import { esc, pageTop } from "../../lib/report/html_page.ts";
import type { RunResult } from "../../lib/model/result.ts";

const counts = (passed: number, failed: number) => ({
  total: passed + failed,
  passed,
  failed,
  error: 0,
  skipped: 0,
});

const result = {
  run_id: "r<1>",
  runner_version: "0.1.0",
  started_at: "2025-01-01T10:00:00.123Z",
  duration_ms: 125_000,
  status: "failed",
  interrupted: "SIGINT",
  totals: {
    flows: counts(2, 1),
    steps: counts(5, 1),
    assertions: { total: 4, passed: 3, failed: 1 },
  },
  flows: [],
} as unknown as RunResult;

Deno.test("the top of the page: verdict, facts, an interruption, bars and the empty flow list", () => {
  const html = pageTop(result, { shard: { index: 1, total: 2 } });
  assert.ok(html.startsWith("<!doctype html>\n"));
  assert.match(html, /<title>✗ flowrun report · r&lt;1&gt;<\/title>/);
  assert.match(html, /<b>2025-01-01 10:00:00 UTC<\/b>/);
  assert.match(html, /Took <b>2 min 5 s<\/b>/);
  assert.match(html, /Shard <b>1\/2<\/b>/);
  assert.match(html, /<strong>Interrupted<\/strong> by SIGINT/);
  assert.match(html, /aria-label="Flows: 2 passed, 1 failed of 3"/);
  assert.match(html, /data-filter="failed" aria-pressed="false">Failed \(1\)/);
  assert.ok(html.endsWith("</footer>\n"));
});

Deno.test("where the run happened: labelled entries, a short commit, only http(s) job links", () => {
  const html = pageTop(result, {
    provenance: {
      provider: "gitlab-ci",
      commit: "0123456789abcdef",
      job_url: "javascript:alert(1)",
      custom: "<b>",
    },
  });
  assert.match(html, /<span>CI <b>gitlab-ci<\/b><\/span>/);
  assert.match(html, /title="0123456789abcdef">0123456789ab<\/b>/);
  assert.match(html, /<span>custom <b>&lt;b&gt;<\/b><\/span>/);
  assert.doesNotMatch(html, /javascript:/);
  const linked = pageTop(result, { provenance: { job_url: "https://ci.example/1" } });
  assert.match(linked, /<a href="https:\/\/ci.example\/1" rel="noreferrer noopener">CI job<\/a>/);
});

Deno.test("text is escaped for element content and quoted attributes", () => {
  assert.equal(
    esc(`<a href="x" title='y'>&`),
    "&lt;a href=&quot;x&quot; title=&apos;y&apos;&gt;&amp;",
  );
});
