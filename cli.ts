/**
 * The flowrun command (`deno run … cli.ts`). It starts the command line
 * (`cli/main.ts`) from the bundle `deno task bundle` wrote when that is
 * current (`cli/current_bundle.ts`: the same code in fewer files, which
 * Deno loads sooner), else from source; either way the same program.
 *
 * Exit codes: 0 every flow passed; 1 at least one flow failed; 2 usage or
 * flow-file error, nothing sent; 3 internal error of the runner; 4 the run
 * finished but a requested artifact could not be written; 130/143
 * interrupted by SIGINT/SIGTERM (artifacts still written).
 *
 * @module
 */
import { currentBundle } from "./cli/current_bundle.ts";

/**
 * Runs the command line from source and returns the exit code; user errors
 * are printed without a stack trace.
 *
 * @example
 * ```ts ignore
 * import { main } from "./cli.ts";
 * Deno.exit(await main(["run", "examples/flows"]));
 * ```
 */
export async function main(args: string[]): Promise<number> {
  return await (await import("./cli/main.ts")).main(args);
}

/** The bundle's command line, or undefined when it cannot be loaded (a file of it deleted). */
async function bundled(
  bundle: URL | undefined,
): Promise<typeof import("./cli/main.ts") | undefined> {
  try {
    return bundle ? await import(bundle.href) : undefined;
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  const cli = await bundled(await currentBundle()) ?? await import("./cli/main.ts");
  Deno.exit(await cli.main(Deno.args));
}
