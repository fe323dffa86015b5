import assert from "node:assert/strict";
import { ciProvenance } from "../../lib/report/ci_provenance.ts";

const from = (env: Record<string, string>) => (name: string) => env[name];

Deno.test("GitLab: the provider's own variables, a job URL without credentials", () => {
  const ci = ciProvenance(from({
    GITLAB_CI: "true",
    CI_COMMIT_SHA: "abc",
    CI_COMMIT_REF_NAME: "main",
    CI_PIPELINE_ID: "7",
    CI_JOB_ID: "8",
    CI_JOB_URL: "https://user:pw@gitlab.example/g/p/-/jobs/8",
  }));
  assert.deepEqual(ci, {
    provider: "gitlab-ci",
    commit: "abc",
    ref: "main",
    pipeline_id: "7",
    job_id: "8",
    job_url: "https://gitlab.example/g/p/-/jobs/8",
  });
});

Deno.test("only CI set is a generic CI; CI=false, empty variables or nothing is none", () => {
  assert.equal(ciProvenance(from({ CI: "1" }))?.provider, "generic");
  assert.equal(ciProvenance(from({ CI: "false" })), null);
  assert.equal(ciProvenance(from({ GITLAB_CI: "" })), null);
  assert.equal(ciProvenance(from({})), null);
});

Deno.test("credentials beside the CI variables are never read", () => {
  const read = new Set<string>();
  ciProvenance((name) => {
    read.add(name);
    return name === "GITHUB_ACTIONS" ? "true" : undefined;
  });
  assert.ok(read.has("GITHUB_SHA"));
  for (const secret of ["GITHUB_TOKEN", "CI_JOB_TOKEN", "HOME", "PATH"]) {
    assert.ok(!read.has(secret), secret);
  }
});
