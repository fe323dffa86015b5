/**
 * Writes cli/run_graph.ts: one import of every module `flowrun run` loads
 * (cli/run/mod.ts's static imports, followed all the way), so Deno finds them
 * all one level below the subcommand instead of one import depth at a time.
 * Measured on a one-request run: the same 90 files load about 6 ms sooner
 * from the flat list than through flowrun's own import chains (up to 9 deep).
 * `--check` only reports drift (tests run it).
 *
 * Run: `deno run -A scripts/run_graph.ts [--check]`.
 *
 * @module
 */

import { denoInfo } from "./deno_info.ts";

const ROOT = new URL("../", import.meta.url);
/** The module this script writes, relative to the project root. */
export const RUN_GRAPH_FILE = "cli/run_graph.ts";
const ENTRY = "cli/run/mod.ts";

/**
 * The project files in an entry's module graph as `deno info` builds it,
 * reached through code imports (a type-only import never loads), dynamic
 * ones too unless `dynamic` is false; paths from the project root. The
 * imports of `skip` (a path from the root) are not followed.
 *
 * @example
 * ```ts ignore
 * import { moduleGraph } from "./run_graph.ts";
 * if (!(await moduleGraph("cli.ts", { dynamic: true })).includes("cli/output.ts")) throw new Error();
 * ```
 */
export async function moduleGraph(
  entry: string,
  options: { dynamic: boolean; skip?: string },
): Promise<string[]> {
  const info = await denoInfo(entry);
  const bySpecifier = new Map(info.modules.map((module) => [module.specifier, module]));
  const reached = new Set<string>(info.roots);
  const skip = options.skip === undefined ? undefined : new URL(options.skip, ROOT).href;
  for (const specifier of reached) {
    if (specifier === skip) continue;
    for (const dependency of bySpecifier.get(specifier)?.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (target && (options.dynamic || !dependency.isDynamic)) reached.add(target);
    }
  }
  return [...reached]
    .filter((specifier) => specifier.startsWith(ROOT.href))
    .map((specifier) => specifier.slice(ROOT.href.length));
}

/**
 * The project modules `flowrun run` evaluates: those reached from
 * cli/run/mod.ts through static imports (a dynamic import loads only when a run
 * needs it), as sorted paths from the root.
 *
 * @example
 * ```ts ignore
 * import { runModules } from "./run_graph.ts";
 * if (!(await runModules()).includes("lib/run/flows.ts")) throw new Error();
 * ```
 */
export async function runModules(): Promise<string[]> {
  const own = new Set([ENTRY, RUN_GRAPH_FILE]);
  // The list's own imports are not followed: a module it still names after a move is not loaded.
  return (await moduleGraph(ENTRY, { dynamic: false, skip: RUN_GRAPH_FILE }))
    .filter((path) => path.endsWith(".ts") && !own.has(path))
    .sort();
}

/**
 * The text of cli/run_graph.ts for these modules.
 *
 * @example
 * ```ts
 * import { renderRunGraph } from "./run_graph.ts";
 * const text = renderRunGraph(["cli/args.ts", "lib/run/flows.ts"]);
 * if (!text.includes('import "./args.ts";\nimport "../lib/run/flows.ts";\n')) throw new Error(text);
 * ```
 */
export function renderRunGraph(modules: readonly string[]): string {
  const lines = modules.map((path) =>
    `import "${path.startsWith("cli/") ? `./${path.slice(4)}` : `../${path}`}";`
  );
  return `/**
 * Every module \`flowrun run\` evaluates, imported from here so that Deno
 * finds them all one level below cli/run/mod.ts rather than one import depth at
 * a time (6 ms of a one-request run's start-up). Written by
 * scripts/run_graph.ts; a test fails when it is out of date.
 *
 * @module
 */
${lines.join("\n")}
`;
}

if (import.meta.main) {
  const text = renderRunGraph(await runModules());
  const path = new URL(RUN_GRAPH_FILE, ROOT);
  const current = await Deno.readTextFile(path).catch(() => "");
  if (Deno.args.includes("--check")) {
    if (current !== text) {
      console.error(`${RUN_GRAPH_FILE} is out of date: run deno run -A scripts/run_graph.ts`);
      Deno.exit(1);
    }
  } else if (current !== text) {
    await Deno.writeTextFile(path, text);
    console.log(`wrote ${RUN_GRAPH_FILE}`);
  }
}
