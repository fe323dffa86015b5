import assert from "node:assert/strict";
import {
  compareCodePoints,
  parseShard,
  selectShard,
  type Shard,
  shardFromEnv,
} from "../../lib/select/shard.ts";
import { usageError } from "../support/errors.ts";

Deno.test("parseShard accepts I/N with 1 <= I <= N", () => {
  assert.deepEqual(parseShard("1/1"), { index: 1, total: 1 });
  assert.deepEqual(parseShard("2/3"), { index: 2, total: 3 });
  assert.deepEqual(parseShard("3/3"), { index: 3, total: 3 });
  assert.deepEqual(parseShard("12/40"), { index: 12, total: 40 });
});

Deno.test("parseShard rejects anything else with a message quoting the value", () => {
  const cases: [string, string][] = [
    ["0/3", "Parts are numbered from 1: use 1/3 to 3/3."],
    ["4/3", "There are only 3 parts: use 1/3 to 3/3."],
    ["1/0", "N is the number of parts (machines): at least 1."],
    ["0/0", "N is the number of parts (machines): at least 1."],
    [
      "a/b",
      "For example --shard 2/4 runs the 2nd of 4 parts; --shard auto reads them from CI variables.",
    ],
    [
      "2/ 3",
      "For example --shard 2/4 runs the 2nd of 4 parts; --shard auto reads them from CI variables.",
    ],
    [
      "3",
      "For example --shard 2/4 runs the 2nd of 4 parts; --shard auto reads them from CI variables.",
    ],
    [
      "",
      "For example --shard 2/4 runs the 2nd of 4 parts; --shard auto reads them from CI variables.",
    ],
    [
      "-1/3",
      "For example --shard 2/4 runs the 2nd of 4 parts; --shard auto reads them from CI variables.",
    ],
    [
      "1.5/3",
      "For example --shard 2/4 runs the 2nd of 4 parts; --shard auto reads them from CI variables.",
    ],
    [
      "1/3/4",
      "For example --shard 2/4 runs the 2nd of 4 parts; --shard auto reads them from CI variables.",
    ],
    ["1/99999999999999999999", "The numbers are too large."],
  ];
  for (const [value, hint] of cases) {
    const error = usageError(() => parseShard(value));
    assert.equal(error.code, "bad-shard", value);
    assert.equal(
      error.message,
      `Expected --shard to be I/N with whole numbers 1 <= I <= N, got "${value}".`,
    );
    assert.equal(error.hint, hint, value);
  }
});

function envOf(vars: Record<string, string>): (name: string) => string | undefined {
  return (name) => vars[name];
}

Deno.test("shardFromEnv reads each CI system, converting 0-based indexes", () => {
  const cases: [Record<string, string>, Shard, string][] = [
    [
      { FLOWRUN_SHARD_INDEX: "2", FLOWRUN_SHARD_TOTAL: "5" },
      { index: 2, total: 5 },
      "FLOWRUN_SHARD_INDEX/FLOWRUN_SHARD_TOTAL",
    ],
    [
      { CI_NODE_INDEX: "3", CI_NODE_TOTAL: "3" },
      { index: 3, total: 3 },
      "GitLab CI_NODE_INDEX/CI_NODE_TOTAL",
    ],
    [
      { JOB_COMPLETION_INDEX: "0", FLOWRUN_SHARD_TOTAL: "4" },
      { index: 1, total: 4 },
      "Kubernetes JOB_COMPLETION_INDEX/FLOWRUN_SHARD_TOTAL",
    ],
    [
      { JOB_COMPLETION_INDEX: "3", FLOWRUN_SHARD_TOTAL: "4" },
      { index: 4, total: 4 },
      "Kubernetes JOB_COMPLETION_INDEX/FLOWRUN_SHARD_TOTAL",
    ],
    [
      { CIRCLE_NODE_INDEX: "0", CIRCLE_NODE_TOTAL: "1" },
      { index: 1, total: 1 },
      "CircleCI CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL",
    ],
    [
      { CIRCLE_NODE_INDEX: "2", CIRCLE_NODE_TOTAL: "3" },
      { index: 3, total: 3 },
      "CircleCI CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL",
    ],
    [
      { BUILDKITE_PARALLEL_JOB: "1", BUILDKITE_PARALLEL_JOB_COUNT: "2" },
      { index: 2, total: 2 },
      "Buildkite BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT",
    ],
  ];
  for (const [vars, shard, source] of cases) {
    assert.deepEqual(shardFromEnv(envOf(vars)), { shard, source }, JSON.stringify(vars));
  }
});

Deno.test("shardFromEnv takes the first source in the documented order", () => {
  const all = {
    FLOWRUN_SHARD_INDEX: "1",
    FLOWRUN_SHARD_TOTAL: "7",
    CI_NODE_INDEX: "2",
    CI_NODE_TOTAL: "6",
    JOB_COMPLETION_INDEX: "2",
    CIRCLE_NODE_INDEX: "3",
    CIRCLE_NODE_TOTAL: "5",
    BUILDKITE_PARALLEL_JOB: "3",
    BUILDKITE_PARALLEL_JOB_COUNT: "4",
  };
  const without = (...names: string[]) =>
    envOf(Object.fromEntries(Object.entries(all).filter(([k]) => !names.includes(k))));
  assert.equal(shardFromEnv(without()).source, "FLOWRUN_SHARD_INDEX/FLOWRUN_SHARD_TOTAL");
  assert.deepEqual(shardFromEnv(without()).shard, { index: 1, total: 7 });
  // FLOWRUN_SHARD_TOTAL alone does not select flowrun's own pair: it is also the k8s total.
  assert.deepEqual(shardFromEnv(without("FLOWRUN_SHARD_INDEX")), {
    shard: { index: 2, total: 6 },
    source: "GitLab CI_NODE_INDEX/CI_NODE_TOTAL",
  });
  assert.deepEqual(shardFromEnv(without("FLOWRUN_SHARD_INDEX", "CI_NODE_INDEX")), {
    shard: { index: 3, total: 7 },
    source: "Kubernetes JOB_COMPLETION_INDEX/FLOWRUN_SHARD_TOTAL",
  });
  assert.deepEqual(
    shardFromEnv(without("FLOWRUN_SHARD_INDEX", "CI_NODE_INDEX", "JOB_COMPLETION_INDEX")),
    { shard: { index: 4, total: 5 }, source: "CircleCI CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL" },
  );
  assert.deepEqual(
    shardFromEnv(
      without("FLOWRUN_SHARD_INDEX", "CI_NODE_INDEX", "JOB_COMPLETION_INDEX", "CIRCLE_NODE_INDEX"),
    ),
    {
      shard: { index: 4, total: 4 },
      source: "Buildkite BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT",
    },
  );
});

Deno.test("shardFromEnv ignores empty variables and a lone GitLab CI_NODE_TOTAL", () => {
  // GitLab sets CI_NODE_TOTAL=1 on every job; only `parallel:` sets CI_NODE_INDEX.
  assert.deepEqual(
    shardFromEnv(
      envOf({
        FLOWRUN_SHARD_INDEX: "",
        CI_NODE_TOTAL: "1",
        CIRCLE_NODE_INDEX: "1",
        CIRCLE_NODE_TOTAL: "2",
      }),
    ),
    { shard: { index: 2, total: 2 }, source: "CircleCI CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL" },
  );
  assert.equal(usageError(() => shardFromEnv(envOf({ CI_NODE_TOTAL: "1" }))).code, "no-shard-env");
});

Deno.test("shardFromEnv names the variables of a half-set pair", () => {
  const cases: [Record<string, string>, string, string][] = [
    [
      { FLOWRUN_SHARD_INDEX: "2" },
      '--shard auto: FLOWRUN_SHARD_INDEX is "2" but FLOWRUN_SHARD_TOTAL is not set.',
      "Set both, or pass --shard I/N.",
    ],
    [
      { CI_NODE_INDEX: "1", CIRCLE_NODE_INDEX: "0", CIRCLE_NODE_TOTAL: "2" },
      '--shard auto: CI_NODE_INDEX is "1" but CI_NODE_TOTAL is not set.',
      "Set both, or pass --shard I/N.",
    ],
    [
      { JOB_COMPLETION_INDEX: "0" },
      '--shard auto: JOB_COMPLETION_INDEX is "0" but FLOWRUN_SHARD_TOTAL is not set.',
      "Kubernetes has no variable for the number of completions: " +
      "set FLOWRUN_SHARD_TOTAL to the Job's spec.completions in its pod template.",
    ],
    [
      { CIRCLE_NODE_INDEX: "0" },
      '--shard auto: CIRCLE_NODE_INDEX is "0" but CIRCLE_NODE_TOTAL is not set.',
      "Set both, or pass --shard I/N.",
    ],
    [
      { BUILDKITE_PARALLEL_JOB: "0", BUILDKITE_PARALLEL_JOB_COUNT: "" },
      '--shard auto: BUILDKITE_PARALLEL_JOB is "0" but BUILDKITE_PARALLEL_JOB_COUNT is not set.',
      "Set both, or pass --shard I/N.",
    ],
  ];
  for (const [vars, message, hint] of cases) {
    const error = usageError(() => shardFromEnv(envOf(vars)));
    assert.equal(error.code, "bad-shard-env");
    assert.equal(error.message, message);
    assert.equal(error.hint, hint);
  }
  const lone = usageError(() => shardFromEnv(envOf({ FLOWRUN_SHARD_TOTAL: "3" })));
  assert.equal(lone.code, "bad-shard-env");
  assert.equal(
    lone.message,
    '--shard auto: FLOWRUN_SHARD_TOTAL is "3" but neither FLOWRUN_SHARD_INDEX nor JOB_COMPLETION_INDEX is set.',
  );
});

Deno.test("shardFromEnv rejects values that are not a shard, naming variables and values", () => {
  const cases: [Record<string, string>, string, string][] = [
    [
      { CIRCLE_NODE_INDEX: "3", CIRCLE_NODE_TOTAL: "3" },
      '--shard auto: CIRCLE_NODE_INDEX="3" and CIRCLE_NODE_TOTAL="3" are not a shard: ' +
      "CIRCLE_NODE_INDEX must be from 0 to 2.",
      "CIRCLE_NODE_INDEX is 0-based (0 to N-1 of N = CIRCLE_NODE_TOTAL); fix the variables or pass --shard I/N.",
    ],
    [
      { CI_NODE_INDEX: "0", CI_NODE_TOTAL: "3" },
      '--shard auto: CI_NODE_INDEX="0" and CI_NODE_TOTAL="3" are not a shard: ' +
      "CI_NODE_INDEX must be from 1 to 3.",
      "CI_NODE_INDEX is 1-based (1 to N of N = CI_NODE_TOTAL); fix the variables or pass --shard I/N.",
    ],
    [
      { FLOWRUN_SHARD_INDEX: "1", FLOWRUN_SHARD_TOTAL: "0" },
      '--shard auto: FLOWRUN_SHARD_INDEX="1" and FLOWRUN_SHARD_TOTAL="0" are not a shard: ' +
      "FLOWRUN_SHARD_TOTAL must be at least 1.",
      "FLOWRUN_SHARD_INDEX is 1-based (1 to N of N = FLOWRUN_SHARD_TOTAL); fix the variables or pass --shard I/N.",
    ],
    [
      { BUILDKITE_PARALLEL_JOB: "one", BUILDKITE_PARALLEL_JOB_COUNT: "2" },
      '--shard auto: BUILDKITE_PARALLEL_JOB="one" and BUILDKITE_PARALLEL_JOB_COUNT="2" are not a shard: ' +
      "both must be whole numbers.",
      "BUILDKITE_PARALLEL_JOB is 0-based (0 to N-1 of N = BUILDKITE_PARALLEL_JOB_COUNT); fix the variables or pass --shard I/N.",
    ],
    [
      { JOB_COMPLETION_INDEX: "-1", FLOWRUN_SHARD_TOTAL: "2" },
      '--shard auto: JOB_COMPLETION_INDEX="-1" and FLOWRUN_SHARD_TOTAL="2" are not a shard: ' +
      "both must be whole numbers.",
      "JOB_COMPLETION_INDEX is 0-based (0 to N-1 of N = FLOWRUN_SHARD_TOTAL); fix the variables or pass --shard I/N.",
    ],
  ];
  for (const [vars, message, hint] of cases) {
    const error = usageError(() => shardFromEnv(envOf(vars)));
    assert.equal(error.code, "bad-shard-env");
    assert.equal(error.message, message);
    assert.equal(error.hint, hint);
  }
});

Deno.test("shardFromEnv without any shard variable lists them all", () => {
  const error = usageError(() => shardFromEnv(envOf({ CI: "true", GITHUB_ACTIONS: "true" })));
  assert.equal(error.code, "no-shard-env");
  assert.equal(error.message, "--shard auto found no CI shard variables.");
  for (
    const name of [
      "FLOWRUN_SHARD_INDEX",
      "FLOWRUN_SHARD_TOTAL",
      "CI_NODE_INDEX/CI_NODE_TOTAL",
      "JOB_COMPLETION_INDEX",
      "CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL",
      "BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT",
      "--shard I/N",
    ]
  ) {
    assert.ok(error.hint?.includes(name), `the hint names ${name}: ${error.hint}`);
  }
});

/** A deterministic pseudo-random generator (mulberry32), so failures reproduce. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** `count` flow files in nested directories, keyed relative to the root argument `root`. */
function tree(count: number, root: string): { file: string; key: string }[] {
  const dirs = ["", "auth/", "items/", "items/slow/", "ünïcode/", "Z/"];
  return Array.from({ length: count }, (_, i) => {
    const key = `${dirs[i % dirs.length]}flow_${String((i * 7) % 53).padStart(2, "0")}_${i}.yaml`;
    return { file: root === "" ? key : `${root}/${key}`, key };
  });
}

Deno.test("selectShard splits into disjoint, complete, balanced and stable parts", () => {
  const next = random(42);
  for (let total = 1; total <= 7; total++) {
    for (let count = 0; count <= 50; count++) {
      const files = tree(count, "flows");
      const parts = Array.from(
        { length: total },
        (_, i) => selectShard(files, { index: i + 1, total }),
      );
      const label = `${count} files, ${total} shards`;
      const all = parts.flat().map((f) => f.file);
      assert.equal(all.length, count, `${label}: every file once`);
      assert.deepEqual(new Set(all), new Set(files.map((f) => f.file)), `${label}: complete`);
      const sizes = parts.map((p) => p.length);
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `${label}: sizes ${sizes}`);
      for (const part of parts) {
        const keys = part.map((f) => f.key);
        assert.deepEqual(keys, [...keys].sort(compareCodePoints), `${label}: sorted by key`);
      }
      // The input order (directory listing order differs between machines) does not matter.
      for (let round = 0; round < 3; round++) {
        const again = shuffled(files, next);
        for (let i = 0; i < total; i++) {
          assert.deepEqual(selectShard(again, { index: i + 1, total }), parts[i], label);
        }
      }
      // Another checkout location gives other `file`s but the same keys, so the same split.
      const elsewhere = tree(count, "../../builds/x9/project/flows");
      for (let i = 0; i < total; i++) {
        assert.deepEqual(
          selectShard(shuffled(elsewhere, next), { index: i + 1, total }).map((f) => f.key),
          parts[i].map((f) => f.key),
          `${label}: same split elsewhere`,
        );
      }
    }
  }
});

Deno.test("selectShard deals files round-robin in key order", () => {
  const files = ["e", "a", "d", "b", "c", "f", "g"].map((k) => ({
    file: `x/${k}.yaml`,
    key: `${k}.yaml`,
  }));
  const keys = (index: number) =>
    selectShard(files, { index, total: 3 }).map((f) => f.key.slice(0, 1)).join("");
  assert.deepEqual([keys(1), keys(2), keys(3)], ["adg", "be", "cf"]);
  // Equal keys (the same name under two path arguments) are ordered by file.
  const twins = [{ file: "b/x.yaml", key: "x.yaml" }, { file: "a/x.yaml", key: "x.yaml" }];
  assert.deepEqual(selectShard(twins, { index: 1, total: 2 }), [twins[1]]);
  // The input is left alone.
  const before = files.map((f) => f.key).join();
  selectShard(files, { index: 1, total: 1 });
  assert.equal(files.map((f) => f.key).join(), before);
  // Entries come back as given, extra fields included.
  const rich = [{ file: "a.yaml", key: "a.yaml", root: "." }];
  assert.equal(selectShard(rich, { index: 1, total: 1 })[0], rich[0]);
});

Deno.test("selectShard sorts keys by code point, not UTF-16 code unit", () => {
  const files = ["\u{1F600}.yaml", "\uFF5E.yaml", "a.yaml"].map((key) => ({ file: key, key }));
  assert.deepEqual(selectShard(files, { index: 1, total: 1 }).map((f) => f.key), [
    "a.yaml",
    "\uFF5E.yaml",
    "\u{1F600}.yaml",
  ]);
});

Deno.test("selectShard rejects a shard parseShard would reject", () => {
  for (const shard of [{ index: 0, total: 3 }, { index: 4, total: 3 }, { index: 1, total: 0 }]) {
    assert.throws(() => selectShard([], shard), RangeError);
  }
});
