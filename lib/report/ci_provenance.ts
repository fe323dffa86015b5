/**
 * Where a run happened in CI: the provider, commit, ref, pipeline, job and a
 * link to the job, read from a fixed list of well-known CI variables and
 * nothing else. The run manifest records it, and every run's reports carry it
 * as properties; it has its own module so a run without a manifest does not
 * load the manifest's.
 *
 * @module
 */

/**
 * Where a run happened, from well-known CI variables. Every field is always
 * present; `null` when the provider does not set the variable.
 *
 * @example
 * ```ts
 * import type { CiProvenance } from "./ci_provenance.ts";
 * const ci: CiProvenance = {
 *   provider: "generic", commit: null, ref: null, pipeline_id: null, job_id: null, job_url: null,
 * };
 * if (ci.provider !== "generic") throw new Error();
 * ```
 */
export interface CiProvenance {
  /** Which CI system, or `generic` when only `CI` is set. */
  provider: "github-actions" | "gitlab-ci" | "circleci" | "buildkite" | "jenkins" | "generic";
  /** The commit built (full SHA). */
  commit: string | null;
  /** The branch, tag or ref built. */
  ref: string | null;
  /** The pipeline, workflow or build that holds the job. */
  pipeline_id: string | null;
  /** The job within it. */
  job_id: string | null;
  /** A link to the job's page, without any credentials the URL held. */
  job_url: string | null;
}

/**
 * Each provider: the variable that says the run is on it, then the variables
 * each field is copied from (the first one set wins). These are the only
 * variables read, and the only values ever copied.
 */
const PROVIDERS = [
  {
    provider: "github-actions",
    marker: "GITHUB_ACTIONS",
    commit: ["GITHUB_SHA"],
    ref: ["GITHUB_REF"],
    pipeline_id: ["GITHUB_RUN_ID"],
    job_id: ["GITHUB_JOB"],
    job_url: [],
  },
  {
    provider: "gitlab-ci",
    marker: "GITLAB_CI",
    commit: ["CI_COMMIT_SHA"],
    ref: ["CI_COMMIT_REF_NAME"],
    pipeline_id: ["CI_PIPELINE_ID"],
    job_id: ["CI_JOB_ID"],
    job_url: ["CI_JOB_URL"],
  },
  {
    provider: "circleci",
    marker: "CIRCLECI",
    commit: ["CIRCLE_SHA1"],
    ref: ["CIRCLE_BRANCH", "CIRCLE_TAG"],
    pipeline_id: ["CIRCLE_WORKFLOW_ID"],
    job_id: ["CIRCLE_BUILD_NUM"],
    job_url: ["CIRCLE_BUILD_URL"],
  },
  {
    provider: "buildkite",
    marker: "BUILDKITE",
    commit: ["BUILDKITE_COMMIT"],
    ref: ["BUILDKITE_BRANCH", "BUILDKITE_TAG"],
    pipeline_id: ["BUILDKITE_BUILD_ID"],
    job_id: ["BUILDKITE_JOB_ID"],
    job_url: ["BUILDKITE_BUILD_URL"],
  },
  {
    provider: "jenkins",
    marker: "JENKINS_URL",
    commit: ["GIT_COMMIT"],
    ref: ["GIT_BRANCH", "BRANCH_NAME"],
    pipeline_id: ["BUILD_ID"],
    job_id: ["BUILD_NUMBER"],
    job_url: ["BUILD_URL"],
  },
] as const;

type Field = "commit" | "ref" | "pipeline_id" | "job_id" | "job_url";
const FIELDS: readonly Field[] = ["commit", "ref", "pipeline_id", "job_id", "job_url"];

/** GitHub has no job URL variable; this builds the run's page from the parts it does set. */
function githubRunUrl(get: (name: string) => string | null): string | null {
  const server = get("GITHUB_SERVER_URL");
  const repository = get("GITHUB_REPOSITORY");
  const run = get("GITHUB_RUN_ID");
  if (!server || !repository || !run) return null;
  return `${server.replace(/\/+$/, "")}/${repository}/actions/runs/${run}`;
}

/**
 * A URL with any `user:password@` removed: some Jenkins set-ups put
 * credentials into `BUILD_URL`, and the manifest is shared widely.
 */
function withoutCredentials(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.username === "" && parsed.password === "") return url;
  parsed.username = "";
  parsed.password = "";
  return parsed.href;
}

/**
 * CI provenance from common CI variables, or `null` when not in CI.
 *
 * The provider is the first whose marker variable is set: `GITHUB_ACTIONS`
 * (github-actions), `GITLAB_CI` (gitlab-ci), `CIRCLECI` (circleci),
 * `BUILDKITE` (buildkite), `JENKINS_URL` (jenkins). Its own variables fill the
 * fields (commit, ref, pipeline_id, job_id, job_url; unset ones are `null`):
 *
 * - github-actions: commit `GITHUB_SHA`, ref `GITHUB_REF`, pipeline_id
 *   `GITHUB_RUN_ID`, job_id `GITHUB_JOB`, job_url
 *   `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID` (when
 *   all three are set)
 * - gitlab-ci: `CI_COMMIT_SHA`, `CI_COMMIT_REF_NAME`, `CI_PIPELINE_ID`,
 *   `CI_JOB_ID`, `CI_JOB_URL`
 * - circleci: `CIRCLE_SHA1`, `CIRCLE_BRANCH` (else `CIRCLE_TAG`),
 *   `CIRCLE_WORKFLOW_ID`, `CIRCLE_BUILD_NUM`, `CIRCLE_BUILD_URL`
 * - buildkite: `BUILDKITE_COMMIT`, `BUILDKITE_BRANCH` (else `BUILDKITE_TAG`),
 *   `BUILDKITE_BUILD_ID`, `BUILDKITE_JOB_ID`, `BUILDKITE_BUILD_URL`
 * - jenkins: `GIT_COMMIT`, `GIT_BRANCH` (else `BRANCH_NAME`), `BUILD_ID`,
 *   `BUILD_NUMBER`, `BUILD_URL`
 *
 * With no marker set, the run counts as CI (provider `generic`) when `CI` is
 * set to anything but `false` or `0`, or when any field above can be filled;
 * each field is then the first one that can be filled, providers taken in
 * the order listed. Otherwise the result is `null`. Empty variables count as
 * unset. Credentials in a job URL are removed. No other variable is read,
 * and only these values are copied.
 *
 * @example
 * ```ts
 * import { ciProvenance } from "./ci_provenance.ts";
 * const env: Record<string, string> = {
 *   GITHUB_ACTIONS: "true", GITHUB_SHA: "0123abc", GITHUB_REF: "refs/heads/main", GITHUB_RUN_ID: "42",
 *   GITHUB_JOB: "test", GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "acme/api",
 *   GITHUB_TOKEN: "never copied",
 * };
 * const ci = ciProvenance((name) => env[name]);
 * if (ci?.job_url !== "https://github.com/acme/api/actions/runs/42") throw new Error(JSON.stringify(ci));
 * if (ciProvenance(() => undefined) !== null) throw new Error();
 * ```
 */
export function ciProvenance(env: (name: string) => string | undefined): CiProvenance | null {
  const get = (name: string): string | null => {
    const value = env(name);
    return value === undefined || value === "" ? null : value;
  };
  const first = (names: readonly string[]): string | null => {
    for (const name of names) {
      const value = get(name);
      if (value !== null) return value;
    }
    return null;
  };
  const build = (
    provider: CiProvenance["provider"],
    pick: (field: Field) => string | null,
  ): CiProvenance => {
    const jobUrl = pick("job_url");
    return {
      provider,
      commit: pick("commit"),
      ref: pick("ref"),
      pipeline_id: pick("pipeline_id"),
      job_id: pick("job_id"),
      job_url: jobUrl === null ? null : withoutCredentials(jobUrl),
    };
  };
  const url = (p: (typeof PROVIDERS)[number]): string | null =>
    p.provider === "github-actions" ? githubRunUrl(get) : first(p.job_url);

  const found = PROVIDERS.find((p) => get(p.marker) !== null);
  if (found) {
    return build(found.provider, (field) => field === "job_url" ? url(found) : first(found[field]));
  }

  // No known provider: a generic CI, if anything says this is CI at all.
  const ci = get("CI");
  const generic = build("generic", (field) => {
    for (const p of PROVIDERS) {
      const value = field === "job_url" ? url(p) : first(p[field]);
      if (value !== null) return value;
    }
    return null;
  });
  const anySet = FIELDS.some((field) => generic[field] !== null);
  const ciSet = ci !== null && ci.toLowerCase() !== "false" && ci !== "0";
  return anySet || ciSet ? generic : null;
}
