import assert from "node:assert/strict";
import { ciProvenance } from "../../lib/report/ci_provenance.ts";
import {
  buildManifest,
  type Manifest,
  type ManifestInput,
  manifestText,
  sha256Hex,
} from "../../lib/report/manifest.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

/** Every variable ciProvenance may read; reading any other is a bug. */
const CI_VARIABLES = new Set([
  "CI",
  "GITHUB_ACTIONS",
  "GITHUB_SHA",
  "GITHUB_REF",
  "GITHUB_RUN_ID",
  "GITHUB_JOB",
  "GITHUB_SERVER_URL",
  "GITHUB_REPOSITORY",
  "GITLAB_CI",
  "CI_COMMIT_SHA",
  "CI_COMMIT_REF_NAME",
  "CI_PIPELINE_ID",
  "CI_JOB_ID",
  "CI_JOB_URL",
  "CIRCLECI",
  "CIRCLE_SHA1",
  "CIRCLE_BRANCH",
  "CIRCLE_TAG",
  "CIRCLE_WORKFLOW_ID",
  "CIRCLE_BUILD_NUM",
  "CIRCLE_BUILD_URL",
  "BUILDKITE",
  "BUILDKITE_COMMIT",
  "BUILDKITE_BRANCH",
  "BUILDKITE_TAG",
  "BUILDKITE_BUILD_ID",
  "BUILDKITE_JOB_ID",
  "BUILDKITE_BUILD_URL",
  "JENKINS_URL",
  "GIT_COMMIT",
  "GIT_BRANCH",
  "BRANCH_NAME",
  "BUILD_ID",
  "BUILD_NUMBER",
  "BUILD_URL",
]);

function input(over: Partial<ManifestInput> = {}): ManifestInput {
  return {
    run_id: "20250301-101500-a1b2c3",
    runner_version: "0.1.0",
    deno_version: "2.9.6",
    os: "linux",
    arch: "x86_64",
    started_at: "2025-03-01T10:15:00.000Z",
    ended_at: "2025-03-01T10:15:02.500Z",
    exit_code: 1,
    command: ["flowrun", "run", "flows/", "--var", "token=***"],
    shard: { index: 2, total: 4, source: "CI_NODE_INDEX" },
    flows: [
      { file: "flows/b.yaml", bytes: bytes("abc") },
      { file: "flows/a.yaml", bytes: new Uint8Array() },
    ],
    env_read: ["TOKEN", "BASE_URL", "TOKEN", "API_KEY", "BASE_URL", "a_lower"],
    env: envOf({}),
    artifacts: [
      { kind: "junit", path: "out/junit.xml", bytes: bytes("<testsuites/>\n") },
      { kind: "json", path: "out/report.json", bytes: bytes("abc") },
      { kind: "log", path: "out/run.log.ndjson", bytes: new Uint8Array() },
    ],
    ...over,
  };
}

const ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/** sha256Hex gives the known digests of "abc" and of nothing, from any kind of buffer. */
async function assertKnownDigests(): Promise<void> {
  assert.equal(await sha256Hex(bytes("abc")), ABC);
  assert.equal(await sha256Hex(new Uint8Array()), EMPTY);
  // A view into a larger buffer hashes only its own bytes.
  const view = new Uint8Array(bytes("xxabcxx").buffer, 2, 3);
  assert.equal(await sha256Hex(view), ABC);
  const shared = new Uint8Array(new SharedArrayBuffer(3));
  shared.set(bytes("abc"));
  assert.equal(await sha256Hex(shared), ABC);
}

Deno.test("sha256Hex gives the known digests, as sha256sum prints them", async () => {
  await assertKnownDigests();
});

Deno.test("sha256Hex past its first 400 files (node:crypto then) gives the same digests", async () => {
  // A manifest of thousands of flow files: each Web Crypto digest costs about 70 µs of CPU.
  for (let i = 0; i < 401; i++) await sha256Hex(bytes(String(i)));
  await assertKnownDigests();
});

Deno.test("buildManifest hashes flows and artifacts and sorts the names of variables read", async () => {
  const given = input();
  const { env: _, ...data } = given;
  const before = structuredClone(data);
  const manifest = await buildManifest(given);
  assert.deepEqual(manifest, {
    manifest_version: 1,
    run_id: "20250301-101500-a1b2c3",
    runner_version: "0.1.0",
    deno_version: "2.9.6",
    os: "linux",
    arch: "x86_64",
    started_at: "2025-03-01T10:15:00.000Z",
    ended_at: "2025-03-01T10:15:02.500Z",
    exit_code: 1,
    command: ["flowrun", "run", "flows/", "--var", "token=***"],
    shard: { index: 2, total: 4, source: "CI_NODE_INDEX" },
    // Run order, not sorted.
    flows: [{ file: "flows/b.yaml", sha256: ABC }, { file: "flows/a.yaml", sha256: EMPTY }],
    // Code-unit order: upper case before lower case, whatever the locale.
    env_read: ["API_KEY", "BASE_URL", "TOKEN", "a_lower"],
    ci: null,
    artifacts: [
      {
        kind: "junit",
        path: "out/junit.xml",
        sha256: await sha256Hex(bytes("<testsuites/>\n")),
        bytes: 14,
      },
      { kind: "json", path: "out/report.json", sha256: ABC, bytes: 3 },
      { kind: "log", path: "out/run.log.ndjson", sha256: EMPTY, bytes: 0 },
    ],
  });
  assert.deepEqual({ ...given, env: undefined }, { ...before, env: undefined }, "input unchanged");
  assert.notEqual(manifest.command, given.command, "the command is copied");
  assert.equal((await buildManifest(input({ shard: null }))).shard, null);
});

Deno.test("manifestText: fixed key order, 2-space indent, trailing newline, same text every time", async () => {
  const gitlab = envOf({ GITLAB_CI: "true", CI_COMMIT_SHA: "abc123" });
  const manifest = await buildManifest(input({ env: gitlab }));
  const text = manifestText(manifest);
  assert.ok(text.endsWith("}\n") && !text.endsWith("\n\n"));
  assert.ok(text.startsWith('{\n  "manifest_version": 1,\n  "run_id": '));
  assert.deepEqual(JSON.parse(text), manifest);
  assert.deepEqual(Object.keys(JSON.parse(text)), [
    "manifest_version",
    "run_id",
    "runner_version",
    "deno_version",
    "os",
    "arch",
    "started_at",
    "ended_at",
    "exit_code",
    "command",
    "shard",
    "flows",
    "env_read",
    "ci",
    "artifacts",
  ]);
  assert.deepEqual(Object.keys(JSON.parse(text).ci), [
    "provider",
    "commit",
    "ref",
    "pipeline_id",
    "job_id",
    "job_url",
  ]);
  // The same manifest built with every key in reverse order writes the same text.
  const reversed = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(reversed);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]));
  };
  assert.equal(manifestText(reversed(manifest) as Manifest), text);
  // Building again from the same input gives the same bytes.
  assert.equal(manifestText(await buildManifest(input({ env: gitlab }))), text);
  assert.match(text, /\n {6}"file": "flows\/b.yaml",\n/, "2-space indent");
  // A shard without a source leaves the key out rather than writing null.
  const unsourced = manifestText({ ...manifest, shard: { index: 1, total: 2 } });
  assert.match(unsourced, /"shard": \{\n {4}"index": 1,\n {4}"total": 2\n {2}\}/);
});

Deno.test("manifestText of a small manifest, byte for byte", async () => {
  const manifest = await buildManifest(input({
    command: ["flowrun", "run", "a.yaml"],
    shard: null,
    flows: [{ file: "a.yaml", bytes: bytes("abc") }],
    env_read: [],
    artifacts: [{ kind: "log", path: "run.log.ndjson", bytes: new Uint8Array() }],
  }));
  assert.equal(
    manifestText(manifest),
    `{
  "manifest_version": 1,
  "run_id": "20250301-101500-a1b2c3",
  "runner_version": "0.1.0",
  "deno_version": "2.9.6",
  "os": "linux",
  "arch": "x86_64",
  "started_at": "2025-03-01T10:15:00.000Z",
  "ended_at": "2025-03-01T10:15:02.500Z",
  "exit_code": 1,
  "command": [
    "flowrun",
    "run",
    "a.yaml"
  ],
  "shard": null,
  "flows": [
    {
      "file": "a.yaml",
      "sha256": "${ABC}"
    }
  ],
  "env_read": [],
  "ci": null,
  "artifacts": [
    {
      "kind": "log",
      "path": "run.log.ndjson",
      "sha256": "${EMPTY}",
      "bytes": 0
    }
  ]
}
`,
  );
});

Deno.test("ciProvenance on GitHub Actions derives the run URL and copies nothing else", () => {
  const read = new Set<string>();
  const vars: Record<string, string> = {
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_SHA: "0123456789abcdef0123456789abcdef01234567",
    GITHUB_REF: "refs/heads/main",
    GITHUB_RUN_ID: "9876543210",
    GITHUB_JOB: "e2e",
    GITHUB_SERVER_URL: "https://github.com/",
    GITHUB_REPOSITORY: "acme/api",
    GITHUB_TOKEN: "ghs_secret_token_value",
    ACTIONS_RUNTIME_TOKEN: "another-secret",
  };
  const ci = ciProvenance((name) => {
    read.add(name);
    return vars[name];
  });
  assert.deepEqual(ci, {
    provider: "github-actions",
    commit: "0123456789abcdef0123456789abcdef01234567",
    ref: "refs/heads/main",
    pipeline_id: "9876543210",
    job_id: "e2e",
    job_url: "https://github.com/acme/api/actions/runs/9876543210",
  });
  for (const name of read) assert.ok(CI_VARIABLES.has(name), `read ${name}`);
  assert.ok(!JSON.stringify(ci).includes("secret"));
  // Without the parts of the URL there is no URL, not a broken one.
  const partial = ciProvenance(envOf({ GITHUB_ACTIONS: "true", GITHUB_RUN_ID: "1" }));
  assert.equal(partial?.job_url, null);
  assert.equal(partial?.commit, null);
});

Deno.test("ciProvenance on GitLab CI", () => {
  const ci = ciProvenance(envOf({
    CI: "true",
    GITLAB_CI: "true",
    CI_COMMIT_SHA: "abc123",
    CI_COMMIT_REF_NAME: "feature/x",
    CI_PIPELINE_ID: "555",
    CI_JOB_ID: "777",
    CI_JOB_URL: "https://gitlab.example.com/acme/api/-/jobs/777",
    CI_JOB_TOKEN: "glcbt-secret",
    // Variables of another provider do not leak into this one's fields.
    BUILD_URL: "https://jenkins.example.com/job/1/",
  }));
  assert.deepEqual(ci, {
    provider: "gitlab-ci",
    commit: "abc123",
    ref: "feature/x",
    pipeline_id: "555",
    job_id: "777",
    job_url: "https://gitlab.example.com/acme/api/-/jobs/777",
  });
});

Deno.test("ciProvenance on CircleCI, Buildkite and Jenkins", () => {
  assert.deepEqual(
    ciProvenance(envOf({
      CIRCLECI: "true",
      CIRCLE_SHA1: "c1",
      CIRCLE_TAG: "v1.2.0",
      CIRCLE_WORKFLOW_ID: "wf",
      CIRCLE_BUILD_NUM: "12",
      CIRCLE_BUILD_URL: "https://circleci.com/gh/acme/api/12",
    })),
    {
      provider: "circleci",
      commit: "c1",
      ref: "v1.2.0",
      pipeline_id: "wf",
      job_id: "12",
      job_url: "https://circleci.com/gh/acme/api/12",
    },
  );
  assert.deepEqual(
    ciProvenance(envOf({
      BUILDKITE: "true",
      BUILDKITE_COMMIT: "b1",
      BUILDKITE_BRANCH: "main",
      BUILDKITE_BUILD_ID: "bid",
      BUILDKITE_JOB_ID: "jid",
      BUILDKITE_BUILD_URL: "https://buildkite.com/acme/api/builds/3",
    })),
    {
      provider: "buildkite",
      commit: "b1",
      ref: "main",
      pipeline_id: "bid",
      job_id: "jid",
      job_url: "https://buildkite.com/acme/api/builds/3",
    },
  );
  assert.deepEqual(
    ciProvenance(envOf({
      JENKINS_URL: "https://jenkins.example.com/",
      GIT_COMMIT: "j1",
      BRANCH_NAME: "PR-4",
      BUILD_ID: "41",
      BUILD_NUMBER: "41",
      // Credentials in a job URL never reach the manifest.
      BUILD_URL: "https://bot:hunter2@jenkins.example.com/job/api/41/",
    })),
    {
      provider: "jenkins",
      commit: "j1",
      ref: "PR-4",
      pipeline_id: "41",
      job_id: "41",
      job_url: "https://jenkins.example.com/job/api/41/",
    },
  );
});

Deno.test("ciProvenance outside CI is null; a generic CI gets what is known", () => {
  assert.equal(ciProvenance(envOf({})), null);
  assert.equal(ciProvenance(envOf({ HOME: "/home/me", PATH: "/usr/bin" })), null);
  assert.equal(ciProvenance(envOf({ CI: "false" })), null);
  assert.equal(ciProvenance(envOf({ CI: "0" })), null);
  assert.equal(ciProvenance(envOf({ CI: "" })), null);
  assert.deepEqual(ciProvenance(envOf({ CI: "true" })), {
    provider: "generic",
    commit: null,
    ref: null,
    pipeline_id: null,
    job_id: null,
    job_url: null,
  });
  // A known variable without its provider's marker still means CI.
  assert.deepEqual(ciProvenance(envOf({ GIT_COMMIT: "g1", BUILD_URL: "https://ci.example/7" })), {
    provider: "generic",
    commit: "g1",
    ref: null,
    pipeline_id: null,
    job_id: null,
    job_url: "https://ci.example/7",
  });
});

Deno.test("buildManifest reads only CI variables through env, and never copies other values", async () => {
  const read = new Set<string>();
  const vars: Record<string, string> = {
    GITHUB_ACTIONS: "true",
    GITHUB_SHA: "s",
    DEMO_PASSWORD: "pa55word",
    BASE_URL: "http://api",
  };
  const manifest = await buildManifest(input({
    env_read: ["DEMO_PASSWORD", "BASE_URL"],
    env: (name) => {
      read.add(name);
      return vars[name];
    },
  }));
  for (const name of read) assert.ok(CI_VARIABLES.has(name), `read ${name}`);
  const text = manifestText(manifest);
  assert.ok(!text.includes("pa55word") && !text.includes("http://api"));
  assert.deepEqual(manifest.env_read, ["BASE_URL", "DEMO_PASSWORD"]);
  assert.equal(manifest.ci?.provider, "github-actions");
});

Deno.test("the manifest hashes what the io writers return, not what the files hold later", async () => {
  const { openStreamWriter, writeFileAtomic } = await import("../../lib/io/mod.ts");
  const dir = await Deno.makeTempDir({ prefix: "flowrun-manifest-" });
  try {
    const json = await writeFileAtomic(`${dir}/report.json`, '{"run":1}\n');
    const log = await openStreamWriter(`${dir}/run.log.ndjson`);
    await log.write('{"event":"run_start"}\n');
    await log.write('{"event":"run_end"}\n');
    const summary = await log.close();
    // Another run writes the same paths before this run's manifest is built.
    await Deno.writeTextFile(`${dir}/report.json`, '{"run":2}\n');
    await Deno.writeTextFile(`${dir}/run.log.ndjson`, "other\n");
    const manifest = await buildManifest(input({
      artifacts: [
        { kind: "json", path: `${dir}/report.json`, bytes: json },
        { kind: "log", path: summary.path, size: summary.size, sha256: summary.sha256! },
      ],
    }));
    const digest = async (text: string) => await sha256Hex(bytes(text));
    assert.deepEqual(
      manifest.artifacts.map((a) => [a.kind, a.sha256, a.bytes]),
      [
        ["json", await digest('{"run":1}\n'), 10],
        ["log", await digest('{"event":"run_start"}\n{"event":"run_end"}\n'), 42],
      ],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
