/**
 * The test files of `deno task test`'s quick part, and how they are cut into batches
 * (scripts/test.ts): one `deno test --parallel` process over all of them grew to 3.1 GB, about
 * 6 MB for each file it had run (issue 54), while a process that ends gives all of it back.
 *
 * @module
 */

/** `deno test`'s own pattern for a test module's name. */
const TEST_NAME = /(^|[._])test\.(ts|tsx|mts|js|mjs|jsx)$/;

/** Folders no test is looked for in: the repository's own, and what builds and runs write. */
const SKIPPED = /^(\.git|node_modules|dist|out|\.ci)$/;

/**
 * Every test module under `dir` (paths relative to it, sorted), as `deno test .` finds them.
 *
 * @example
 * ```ts
 * import { testFiles } from "./test_files.ts";
 * import assert from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/tests/node_modules`, { recursive: true });
 * for (const name of ["tests/a_test.ts", "tests/b.test.js", "tests/a.ts", "tests/node_modules/c_test.ts"]) {
 *   await Deno.writeTextFile(`${dir}/${name}`, "");
 * }
 * assert.deepEqual(await testFiles(dir), ["tests/a_test.ts", "tests/b.test.js"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function testFiles(dir: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${dir}/${prefix}`)) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory && !SKIPPED.test(entry.name)) {
      found.push(...await testFiles(dir, `${path}/`));
    } else if (entry.isFile && TEST_NAME.test(entry.name)) {
      found.push(path);
    }
  }
  return found.sort();
}

/**
 * `files` cut into `count` batches, `first` at the head of the first one (the files that wait
 * longest start first) and the rest dealt in turn, so each batch holds a share of every folder's
 * files and the batches take about as long.
 *
 * @example
 * ```ts
 * import { batches } from "./test_files.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(batches(["a", "b", "c", "d", "e"], ["d"], 2), [["d", "a", "c"], ["b", "e"]]);
 * ```
 */
export function batches(
  files: readonly string[],
  first: readonly string[],
  count: number,
): string[][] {
  const cut: string[][] = Array.from({ length: count }, () => []);
  cut[0].push(...first.filter((file) => files.includes(file)));
  const rest = files.filter((file) => !first.includes(file));
  rest.forEach((file, i) => cut[i % count].push(file));
  return cut.filter((batch) => batch.length > 0);
}
