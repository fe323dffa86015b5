/**
 * The run manifest (`--manifest FILE`): what ran, where, and what it
 * produced, so a CI artifact can be traced back to the exact flow files and
 * checked for tampering later. It records:
 *
 * - the run: id, runner and Deno versions, OS and architecture, start and end
 *   time, exit code, the command line (secret values already masked by the
 *   caller) and the shard, if any;
 * - the SHA-256 of every flow file that ran, in run order;
 * - the names (never the values) of the environment variables the flows read;
 * - CI provenance (provider, commit, ref, pipeline, job, job URL), read from a
 *   fixed list of well-known CI variables and nothing else;
 * - every artifact written (JUnit, JSON report, log) with its size and
 *   SHA-256, so `sha256sum` can confirm an artifact is the one this run wrote.
 *
 * The text is JSON, 2-space indented, keys in the order of
 * {@linkcode Manifest}'s declaration whatever order the object was built in,
 * so two manifests diff cleanly.
 *
 * @module
 */

/**
 * The version of the manifest format, written as `manifest_version`. Adding
 * fields keeps it; removing or renaming one, or changing its meaning,
 * increments it.
 *
 * @example
 * ```ts
 * import { MANIFEST_VERSION } from "./manifest.ts";
 * if (MANIFEST_VERSION !== 1) throw new Error();
 * ```
 */
export const MANIFEST_VERSION = 1;

/** What the manifest records about the run as it is given. */
export interface RunFacts {
  /** The run id. */
  run_id: string;
  /** The flowrun version. */
  runner_version: string;
  /** The Deno version that ran it. */
  deno_version: string;
  /** The operating system (`linux`, `darwin`, `windows`). */
  os: string;
  /** The CPU architecture (`x86_64`, `aarch64`). */
  arch: string;
  /** ISO 8601 time the run started. */
  started_at: string;
  /** ISO 8601 time the run ended (after the other artifacts were written). */
  ended_at: string;
  /** The exit code of the run. */
  exit_code: number;
  /** The command line as run; the caller has already redacted secret values. */
  command: string[];
  /** The shard this run was (`--shard 2/4`), with where it came from when detected; `null` when not sharded. */
  shard: { index: number; total: number; source?: string } | null;
}

/**
 * A flow file for the manifest: its bytes, or their SHA-256 when the run
 * released the bytes early.
 *
 * @example
 * ```ts
 * import type { ManifestFlow } from "./manifest.ts";
 * const flow: ManifestFlow = { file: "a.yaml", sha256: "ab12" };
 * if (!("sha256" in flow)) throw new Error();
 * ```
 */
export type ManifestFlow = { file: string; bytes: Uint8Array } | { file: string; sha256: string };

/**
 * What {@linkcode buildManifest} needs; the caller gathers it (this module
 * reads nothing by itself).
 *
 * @example
 * ```ts
 * import type { ManifestInput } from "./manifest.ts";
 * const input: ManifestInput = {
 *   run_id: "r1", runner_version: "0.1.0", deno_version: "2.9.6", os: "linux", arch: "x86_64",
 *   started_at: "2025-03-01T10:15:00.000Z", ended_at: "2025-03-01T10:15:02.000Z", exit_code: 0,
 *   command: ["flowrun", "run", "flows/"], shard: null, flows: [], env_read: [],
 *   env: () => undefined, artifacts: [],
 * };
 * if (input.exit_code !== 0) throw new Error();
 * ```
 */
export interface ManifestInput extends RunFacts {
  /**
   * Flow files with their bytes, or the SHA-256 of them taken during the run
   * (so a long run need not keep every file), in run order.
   */
  flows: ManifestFlow[];
  /** Names (never values) of environment variables the run read. */
  env_read: string[];
  /** Environment access for CI provenance (only well-known CI variables are read). */
  env: (name: string) => string | undefined;
  /**
   * Artifacts already written, with the bytes this run wrote (never read
   * back: another run may have replaced the file), or their SHA-256 and size
   * for a streamed artifact such as the log. These are what `lib/io.ts`
   * returns: `writeFileAtomic` gives the bytes, the log writer's `close()` a
   * `{ path, size, sha256 }` to spread in beside the kind.
   */
  artifacts: (
    | { kind: "junit" | "json" | "log" | string; path: string; bytes: Uint8Array }
    | { kind: string; path: string; sha256: string; size: number }
  )[];
}

/**
 * Where a run happened, from well-known CI variables. Every field is always
 * present; `null` when the provider does not set the variable.
 *
 * @example
 * ```ts
 * import type { CiProvenance } from "./manifest.ts";
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
 * The manifest as written. Key order of the text is the order declared here.
 *
 * @example
 * ```ts
 * import type { Manifest } from "./manifest.ts";
 * const m: Manifest = {
 *   manifest_version: 1, run_id: "r1", runner_version: "0.1.0", deno_version: "2.9.6",
 *   os: "linux", arch: "x86_64", started_at: "", ended_at: "", exit_code: 0,
 *   command: ["flowrun", "run", "flows/"], shard: null, flows: [], env_read: [], ci: null,
 *   artifacts: [],
 * };
 * if (m.manifest_version !== 1) throw new Error();
 * ```
 */
export interface Manifest extends RunFacts {
  /** The manifest format version. */
  manifest_version: typeof MANIFEST_VERSION;
  /** Flow files in run order with the SHA-256 (lower-case hex) of their bytes. */
  flows: { file: string; sha256: string }[];
  /** Sorted by UTF-16 code units (not by locale, so every machine agrees), without duplicates. */
  env_read: string[];
  /** Where the run happened in CI, or null outside CI. */
  ci: CiProvenance | null;
  /** In the order given; `bytes` is the size. */
  artifacts: { kind: string; path: string; sha256: string; bytes: number }[];
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
 * import { ciProvenance } from "./manifest.ts";
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

/**
 * The SHA-256 of `bytes` as 64 lower-case hex digits, the form `sha256sum`
 * prints.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./manifest.ts";
 * const hex = await sha256Hex(new TextEncoder().encode("abc"));
 * if (hex !== "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") throw new Error(hex);
 * ```
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // `digest` takes an ArrayBuffer-backed view; a copy also covers views over a SharedArrayBuffer.
  const source = bytes.buffer instanceof ArrayBuffer
    ? bytes as Uint8Array<ArrayBuffer>
    : new Uint8Array(bytes);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", source));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Builds the manifest: hashes flows and artifacts, sorts and de-duplicates
 * `env_read`, reads CI provenance. Does not change `input`.
 *
 * @example
 * ```ts
 * import { buildManifest } from "./manifest.ts";
 * const bytes = new TextEncoder().encode("abc");
 * const manifest = await buildManifest({
 *   run_id: "r1", runner_version: "0.1.0", deno_version: "2.9.6", os: "linux", arch: "x86_64",
 *   started_at: "2025-03-01T10:15:00.000Z", ended_at: "2025-03-01T10:15:02.000Z", exit_code: 1,
 *   command: ["flowrun", "run", "flows/"], shard: { index: 1, total: 2 },
 *   flows: [{ file: "flows/a.yaml", bytes }], env_read: ["TOKEN", "BASE_URL", "TOKEN"],
 *   env: () => undefined, artifacts: [{ kind: "junit", path: "out/junit.xml", bytes }],
 * });
 * if (manifest.env_read.join() !== "BASE_URL,TOKEN") throw new Error();
 * if (!manifest.flows[0].sha256.startsWith("ba7816bf") || manifest.artifacts[0].bytes !== 3) throw new Error();
 * if (manifest.ci !== null) throw new Error();
 * ```
 */
export async function buildManifest(input: ManifestInput): Promise<Manifest> {
  const [flows, artifacts] = await Promise.all([
    Promise.all(input.flows.map(async (f) => ({
      file: f.file,
      sha256: "bytes" in f ? await sha256Hex(f.bytes) : f.sha256,
    }))),
    Promise.all(input.artifacts.map(async (a) => ({
      kind: a.kind,
      path: a.path,
      sha256: "bytes" in a ? await sha256Hex(a.bytes) : a.sha256,
      bytes: "bytes" in a ? a.bytes.byteLength : a.size,
    }))),
  ]);
  return {
    manifest_version: MANIFEST_VERSION,
    run_id: input.run_id,
    runner_version: input.runner_version,
    deno_version: input.deno_version,
    os: input.os,
    arch: input.arch,
    started_at: input.started_at,
    ended_at: input.ended_at,
    exit_code: input.exit_code,
    command: [...input.command],
    shard: input.shard && { ...input.shard },
    flows,
    // Default sort compares code units, unlike localeCompare, so the order is the same everywhere.
    env_read: [...new Set(input.env_read)].sort(),
    ci: ciProvenance(input.env),
    artifacts,
  };
}

/**
 * The manifest as JSON text: 2-space indented, a trailing newline, keys in
 * the declared order whatever order `manifest` was built in (optional
 * `shard.source` left out when absent).
 *
 * @example
 * ```ts
 * import { manifestText } from "./manifest.ts";
 * const text = manifestText({
 *   artifacts: [], ci: null, env_read: [], flows: [], shard: null, command: ["flowrun"],
 *   exit_code: 0, ended_at: "", started_at: "", arch: "x86_64", os: "linux", deno_version: "2.9.6",
 *   runner_version: "0.1.0", run_id: "r1", manifest_version: 1,
 * });
 * if (!text.startsWith('{\n  "manifest_version": 1,\n  "run_id": "r1",') || !text.endsWith("}\n")) {
 *   throw new Error(text);
 * }
 * ```
 */
export function manifestText(manifest: Manifest): string {
  const m = manifest;
  const ci = m.ci && {
    provider: m.ci.provider,
    commit: m.ci.commit,
    ref: m.ci.ref,
    pipeline_id: m.ci.pipeline_id,
    job_id: m.ci.job_id,
    job_url: m.ci.job_url,
  };
  // Rebuilt key by key: the object's own key order is not trusted.
  const ordered: Manifest = {
    manifest_version: m.manifest_version,
    run_id: m.run_id,
    runner_version: m.runner_version,
    deno_version: m.deno_version,
    os: m.os,
    arch: m.arch,
    started_at: m.started_at,
    ended_at: m.ended_at,
    exit_code: m.exit_code,
    command: m.command,
    shard: m.shard && { index: m.shard.index, total: m.shard.total, source: m.shard.source },
    flows: m.flows.map((f) => ({ file: f.file, sha256: f.sha256 })),
    env_read: m.env_read,
    ci,
    artifacts: m.artifacts.map((a) => ({
      kind: a.kind,
      path: a.path,
      sha256: a.sha256,
      bytes: a.bytes,
    })),
  };
  return JSON.stringify(ordered, null, 2) + "\n";
}
