/**
 * Type-checks every runnable example of the JSDoc and of the Markdown (`deno check --doc-only`
 * over the sources and every `.md` file outside the folders tests and builds write to). Part of
 * `deno task check`, so an example that no longer type-checks is caught before a commit, not by
 * CI's test run (scripts/test.ts runs the same check as one test).
 *
 * ```sh
 * deno run -A scripts/check_examples.ts
 * ```
 *
 * @module
 */

/**
 * The Markdown files under `dir`, outside the folders tests and builds write to.
 *
 * @example
 * ```ts
 * import { markdownFiles } from "./check_examples.ts";
 * import assert from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/docs/node_modules`, { recursive: true });
 * await Deno.writeTextFile(`${dir}/docs/guide.md`, "# Guide\n");
 * await Deno.writeTextFile(`${dir}/docs/node_modules/skipped.md`, "# Skipped\n");
 * assert.deepEqual(await markdownFiles(dir), [`${dir}/docs/guide.md`]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function markdownFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && !/^(\.git|node_modules|dist|out)$/.test(entry.name)) {
      found.push(...await markdownFiles(path));
    } else if (entry.isFile && entry.name.endsWith(".md")) {
      found.push(path);
    }
  }
  return found;
}

/**
 * Runs `deno check --doc-only` over `root`'s sources and Markdown; true when every example
 * type-checks (the checker's messages go to this process's output).
 *
 * @example
 * ```ts ignore
 * import { examplesTypeCheck } from "./check_examples.ts";
 * const ok = await examplesTypeCheck(".");
 * if (!ok) Deno.exit(1);
 * ```
 */
export async function examplesTypeCheck(root: string): Promise<boolean> {
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", "--doc-only", ".", ...await markdownFiles(root)],
    cwd: root,
    stdin: "null",
  }).spawn().status;
  return success;
}

if (import.meta.main) {
  const ok = await examplesTypeCheck(".");
  console.log(ok ? "examples: every one type-checks" : "examples: some do not type-check (above)");
  if (!ok) Deno.exit(1);
}
