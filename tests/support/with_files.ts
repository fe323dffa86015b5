/**
 * A temporary folder holding a test's files (flows, auth and vars files,
 * data), given to the test and removed after, whether it passed or threw.
 *
 * @module
 */

/**
 * Runs `body` in a new temporary folder holding `files` (name → text; a name
 * may hold folders, made as needed) and removes the folder after; gives what
 * `body` gives.
 *
 * @example
 * ```ts
 * import { withFiles } from "./with_files.ts";
 * const text = await withFiles(
 *   { "f.yaml": "name: f\n", "flows/g.yaml": "name: g\n" },
 *   (dir) => Deno.readTextFile(`${dir}/flows/g.yaml`),
 * );
 * if (text !== "name: g\n") throw new Error(text);
 * ```
 */
export async function withFiles<T>(
  files: Record<string, string>,
  body: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-files-" });
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.mkdir(`${dir}/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    return await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
