/**
 * Sharding: splitting a flow set across several CI machines with
 * `flowrun run <path> --shard I/N` (or `--shard auto`), so that every flow
 * runs on exactly one machine and `flowrun merge` can join the reports.
 *
 * The split depends only on the flow files' paths relative to the path
 * arguments and on `N`, never on timings, the machine or its working
 * directory, so machines that share nothing but the checkout agree on it.
 *
 * Pure: the environment is passed in as a function.
 *
 * @module
 */
import { compareCodePoints } from "../_util/compare.ts";
import { UsageError } from "../model/errors.ts";

export { compareCodePoints };

/** One part of a sharded run: the `index`-th (1-based) of `total` parts. */
export interface Shard {
  /** This machine's part, from 1 to `total`. */
  index: number;
  /** The number of parts (machines), at least 1. */
  total: number;
}

const SHARD = /^(\d+)\/(\d+)$/;

/**
 * Parses the `--shard` value `I/N`: whole numbers without spaces, with
 * `1 <= I <= N`. Throws {@linkcode UsageError} (`bad-shard`) quoting the
 * value, with a hint for the specific mistake.
 *
 * @example
 * ```ts
 * import { parseShard } from "./shard.ts";
 * const shard = parseShard("2/4");
 * if (shard.index !== 2 || shard.total !== 4) throw new Error();
 * try {
 *   parseShard("0/4");
 *   throw new Error("accepted 0/4");
 * } catch (error) {
 *   if ((error as { code?: string }).code !== "bad-shard") throw error;
 * }
 * ```
 */
export function parseShard(text: string): Shard {
  const bad = (hint: string) =>
    new UsageError(
      "bad-shard",
      `Expected --shard to be I/N with whole numbers 1 <= I <= N, got "${text}".`,
      hint,
    );
  const match = SHARD.exec(text);
  if (!match) {
    throw bad(
      "For example --shard 2/4 runs the 2nd of 4 parts; --shard auto reads them from CI variables.",
    );
  }
  const index = Number(match[1]);
  const total = Number(match[2]);
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(total)) {
    throw bad("The numbers are too large.");
  }
  if (total < 1) throw bad("N is the number of parts (machines): at least 1.");
  if (index < 1) throw bad(`Parts are numbered from 1: use 1/${total} to ${total}/${total}.`);
  if (index > total) {
    throw bad(`There are only ${total} parts: use 1/${total} to ${total}/${total}.`);
  }
  return { index, total };
}

/** Where `--shard auto` looks, in order; the first source whose index variable is set wins. */
interface Source {
  /** Names the CI system and its variables in messages and in the `source` result. */
  label: string;
  indexVar: string;
  totalVar: string;
  /** 0 when the CI system counts from 0 (the index is then converted to 1-based). */
  base: 0 | 1;
}

const SOURCES: readonly Source[] = [
  {
    label: "FLOWRUN_SHARD_INDEX/FLOWRUN_SHARD_TOTAL",
    indexVar: "FLOWRUN_SHARD_INDEX",
    totalVar: "FLOWRUN_SHARD_TOTAL",
    base: 1,
  },
  {
    label: "GitLab CI_NODE_INDEX/CI_NODE_TOTAL",
    indexVar: "CI_NODE_INDEX",
    totalVar: "CI_NODE_TOTAL",
    base: 1,
  },
  {
    // An indexed Job has no variable for its number of completions, so the
    // Job's pod template sets FLOWRUN_SHARD_TOTAL to `spec.completions`.
    label: "Kubernetes JOB_COMPLETION_INDEX/FLOWRUN_SHARD_TOTAL",
    indexVar: "JOB_COMPLETION_INDEX",
    totalVar: "FLOWRUN_SHARD_TOTAL",
    base: 0,
  },
  {
    label: "CircleCI CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL",
    indexVar: "CIRCLE_NODE_INDEX",
    totalVar: "CIRCLE_NODE_TOTAL",
    base: 0,
  },
  {
    label: "Buildkite BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT",
    indexVar: "BUILDKITE_PARALLEL_JOB",
    totalVar: "BUILDKITE_PARALLEL_JOB_COUNT",
    base: 0,
  },
];

const SOURCES_HINT = "Set FLOWRUN_SHARD_INDEX and FLOWRUN_SHARD_TOTAL (1-based), " +
  "or run where CI sets CI_NODE_INDEX/CI_NODE_TOTAL (GitLab parallel, 1-based), " +
  "JOB_COMPLETION_INDEX (Kubernetes indexed Job, 0-based, with FLOWRUN_SHARD_TOTAL set to the completions), " +
  "CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL (CircleCI, 0-based) or " +
  "BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT (Buildkite, 0-based); " +
  "or pass --shard I/N.";

/**
 * Finds this machine's shard for `--shard auto` in CI variables. The first
 * source whose index variable is set wins, in this order:
 *
 * 1. `FLOWRUN_SHARD_INDEX` / `FLOWRUN_SHARD_TOTAL` (flowrun's own, 1-based):
 *    first, so a pipeline can always override what its CI system sets;
 * 2. GitLab `parallel:`: `CI_NODE_INDEX` / `CI_NODE_TOTAL` (1-based);
 * 3. Kubernetes indexed Job: `JOB_COMPLETION_INDEX` (0-based) with
 *    `FLOWRUN_SHARD_TOTAL`: Kubernetes has no variable for the number of
 *    completions, so the Job sets `FLOWRUN_SHARD_TOTAL` to its
 *    `spec.completions` in the pod template;
 * 4. CircleCI `parallelism:`: `CIRCLE_NODE_INDEX` (0-based) / `CIRCLE_NODE_TOTAL`;
 * 5. Buildkite `parallelism:`: `BUILDKITE_PARALLEL_JOB` (0-based) /
 *    `BUILDKITE_PARALLEL_JOB_COUNT`.
 *
 * 0-based indexes are converted to 1-based. A variable set to the empty
 * string counts as unset. A total without its index is ignored (GitLab sets
 * `CI_NODE_TOTAL=1` on every job, parallel or not), except
 * `FLOWRUN_SHARD_TOTAL`, which is only ever set for sharding.
 *
 * Throws {@linkcode UsageError}: `no-shard-env` when no source is set (the
 * hint lists them); `bad-shard-env`, naming the variables and their values,
 * when a source is half set (an index without its total) or its values are
 * not whole numbers with the index in range.
 *
 * @example
 * ```ts
 * import { shardFromEnv } from "./shard.ts";
 * const env: Record<string, string> = { CIRCLE_NODE_INDEX: "0", CIRCLE_NODE_TOTAL: "3" };
 * const { shard, source } = shardFromEnv((name) => env[name]);
 * if (shard.index !== 1 || shard.total !== 3) throw new Error(JSON.stringify(shard));
 * if (source !== "CircleCI CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL") throw new Error(source);
 * ```
 */
export function shardFromEnv(
  env: (name: string) => string | undefined,
): { shard: Shard; source: string } {
  const read = (name: string) => {
    const value = env(name);
    return value === undefined || value === "" ? undefined : value;
  };
  for (const source of SOURCES) {
    const indexText = read(source.indexVar);
    if (indexText === undefined) continue;
    const totalText = read(source.totalVar);
    if (totalText === undefined) {
      throw new UsageError(
        "bad-shard-env",
        `--shard auto: ${source.indexVar} is "${indexText}" but ${source.totalVar} is not set.`,
        source.indexVar === "JOB_COMPLETION_INDEX"
          ? "Kubernetes has no variable for the number of completions: " +
            "set FLOWRUN_SHARD_TOTAL to the Job's spec.completions in its pod template."
          : `Set both, or pass --shard I/N.`,
      );
    }
    const last = source.base === 0 ? "N-1" : "N";
    const invalid = (why: string) =>
      new UsageError(
        "bad-shard-env",
        `--shard auto: ${source.indexVar}="${indexText}" and ${source.totalVar}="${totalText}" ` +
          `are not a shard: ${why}.`,
        `${source.indexVar} is ${source.base}-based (${source.base} to ${last} of N = ${source.totalVar}); ` +
          "fix the variables or pass --shard I/N.",
      );
    const index = /^\d+$/.test(indexText) ? Number(indexText) : NaN;
    const total = /^\d+$/.test(totalText) ? Number(totalText) : NaN;
    if (!Number.isSafeInteger(index) || !Number.isSafeInteger(total)) {
      throw invalid("both must be whole numbers");
    }
    if (total < 1) throw invalid(`${source.totalVar} must be at least 1`);
    if (index < source.base || index > total - 1 + source.base) {
      throw invalid(
        `${source.indexVar} must be from ${source.base} to ${total - 1 + source.base}`,
      );
    }
    return { shard: { index: index - source.base + 1, total }, source: source.label };
  }
  const total = read("FLOWRUN_SHARD_TOTAL");
  if (total !== undefined) {
    throw new UsageError(
      "bad-shard-env",
      `--shard auto: FLOWRUN_SHARD_TOTAL is "${total}" but neither FLOWRUN_SHARD_INDEX ` +
        "nor JOB_COMPLETION_INDEX is set.",
      SOURCES_HINT,
    );
  }
  throw new UsageError("no-shard-env", "--shard auto found no CI shard variables.", SOURCES_HINT);
}

/**
 * Selects one shard's part of the discovered flow files.
 *
 * The files are sorted by `key` (the path relative to the path argument it
 * was found under, in code-point order; `file` breaks ties between equal
 * keys from different path arguments), and the k-th file (0-based) goes to
 * shard `(k mod N) + 1`. Sorting on `key` rather than on `file` makes every
 * machine compute the same split from the same tree whatever its working
 * directory or checkout location.
 *
 * Why round-robin rather than contiguous ranges: the parts differ in size by
 * at most one file, and the files of one directory (which often hold the
 * slow flows of one feature) are dealt across all machines instead of
 * landing on one. A split by hash would also be stable but balances worse
 * for small sets; a split by measured duration would need timings that a
 * fresh machine does not have.
 *
 * Returns this shard's entries in sorted key order, without changing
 * `files`. Throws `RangeError` for a shard that {@linkcode parseShard} would
 * reject.
 *
 * @example
 * ```ts
 * import { selectShard } from "./shard.ts";
 * const files = ["a.yaml", "b/1.yaml", "b/2.yaml", "c.yaml", "d.yaml"]
 *   .map((key) => ({ file: `flows/${key}`, key }));
 * const keys = (index: number) => selectShard(files, { index, total: 2 }).map((f) => f.key).join();
 * if (keys(1) !== "a.yaml,b/2.yaml,d.yaml" || keys(2) !== "b/1.yaml,c.yaml") throw new Error();
 * ```
 */
export function selectShard<T extends { file: string; key: string }>(
  files: readonly T[],
  shard: Shard,
): T[] {
  const { index, total } = shard;
  if (!Number.isSafeInteger(total) || total < 1 || !Number.isSafeInteger(index)) {
    throw new RangeError(`Invalid shard ${index}/${total}.`);
  }
  if (index < 1 || index > total) throw new RangeError(`Invalid shard ${index}/${total}.`);
  const sorted = [...files].sort((a, b) =>
    compareCodePoints(a.key, b.key) || compareCodePoints(a.file, b.file)
  );
  return sorted.filter((_, k) => k % total === index - 1);
}
