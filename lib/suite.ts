/**
 * Loading a flow set: paths → every flow file, loaded and checked. All
 * problems of all files come back together so they can be reported at once,
 * before any request is sent.
 *
 * @module
 */
import type { Problem } from "./errors.ts";
import type { Flow } from "./flow.ts";
import { discoverFlowFiles, readText } from "./io.ts";
import { loadFlow, type LoadOptions } from "./load.ts";

/** The flows of a set, or the problems that prevent running it. */
export interface LoadFlowsResult {
  /** Every flow that loaded, in sorted path order. */
  flows: Flow[];
  /** Every problem of every file; when not empty, nothing should be run. */
  problems: Problem[];
  /** The flow files found, in sorted path order. */
  files: string[];
}

/**
 * Finds, reads and checks flow files. Paths may be files or directories
 * (searched recursively for `*.yaml`/`*.yml`). Throws `UsageError` for a
 * missing path; problems inside files are returned, never thrown.
 *
 * @example
 * ```ts
 * import { loadFlows } from "./suite.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/ok.yaml`, "name: ok\nsteps:\n  - name: a\n    request: {url: http://x.test}\n");
 * await Deno.writeTextFile(`${dir}/bad.yaml`, "name: bad\nstep: []\n");
 * const { flows, problems } = await loadFlows([dir]);
 * await Deno.remove(dir, { recursive: true });
 * if (flows.length !== 1 || problems.map((p) => p.code).join() !== "missing-key,unknown-key") throw new Error();
 * ```
 */
export async function loadFlows(
  paths: readonly string[],
  options: LoadOptions = {},
): Promise<LoadFlowsResult> {
  const files = await discoverFlowFiles(paths);
  const flows: Flow[] = [];
  const problems: Problem[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readText(file);
    } catch (error) {
      problems.push({
        code: "file-read",
        message: `Could not read the flow file: ${(error as Error).message}.`,
        file,
        line: 1,
        column: 1,
        hint: "Check that the file exists, is readable and is UTF-8 text.",
      });
      continue;
    }
    const result = loadFlow(text, file, options);
    if (result.flow) flows.push(result.flow);
    problems.push(...result.problems);
  }
  return { flows, problems, files };
}
