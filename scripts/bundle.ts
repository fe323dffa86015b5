/**
 * `deno task bundle`: writes `dist/bundle/`, flowrun's code in a few dozen
 * files instead of about 430, which `cli.ts` runs instead of the source for
 * as long as no file it was made from has changed (`cli/current_bundle.ts`).
 * Optional: without it, or once it is stale, flowrun runs from source.
 *
 * The inputs (every module reachable from the entries, `deno.json`,
 * `deno.lock`) are listed with their sizes, modification times and SHA-256 before
 * `deno bundle` reads them, so an edit made while it runs makes the bundle
 * stale rather than wrong. The bundle is written to a temporary folder and
 * moved into place with its `inputs.json` last.
 *
 * Run: `deno task bundle` (or `deno run -A scripts/bundle.ts`).
 *
 * @module
 */
import { BUNDLE_DIR, type BundleInputs, fileSha256 } from "../cli/current_bundle.ts";
import { moduleGraph } from "./run_graph.ts";

const ROOT = new URL("../", import.meta.url);

/** The bundle's entries: the command line, and the module worker threads start from. */
export const BUNDLE_ENTRIES = ["cli/bundle_entry.ts", "lib/run/workers/worker_main.ts"] as const;

/**
 * The files a bundle of {@linkcode BUNDLE_ENTRIES} is made from, from the
 * project root, sorted: their module graphs (dynamic imports and imported
 * text included) and the configuration that resolves them.
 *
 * @example
 * ```ts ignore
 * import { bundleInputFiles } from "./bundle.ts";
 * if (!(await bundleInputFiles()).includes("lib/run/flows.ts")) throw new Error();
 * ```
 */
export async function bundleInputFiles(): Promise<string[]> {
  const files = new Set(["deno.json", "deno.lock"]);
  for (const entry of BUNDLE_ENTRIES) {
    for (const path of await moduleGraph(entry, { dynamic: true })) files.add(path);
  }
  return [...files].sort();
}

/** Each file with its size, modification time and SHA-256, as `inputs.json` lists them. */
async function stamped(files: readonly string[]): Promise<BundleInputs["files"]> {
  return await Promise.all(files.map(async (path) => {
    const url = new URL(path, ROOT);
    const stat = await Deno.stat(url);
    return [path, stat.size, stat.mtime?.getTime() ?? 0, await fileSha256(url)] as const;
  })) as BundleInputs["files"];
}

/**
 * `--external` for each npm package deno.json names: they stay imports that
 * Deno resolves as it does from source. Bundled, the CommonJS ones (ajv,
 * xpath) made every file of the bundle import `node:module` first, which
 * costs a run about 20 ms of Node compatibility it never needs otherwise.
 */
async function externalPackages(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  return Object.entries(config.imports as Record<string, string>)
    .filter(([, target]) => target.startsWith("npm:"))
    .flatMap(([name]) => ["--external", name, "--external", `${name}/*`]);
}

/** Runs `deno bundle` into `outdir`; throws with its output when it fails. */
async function denoBundle(outdir: string): Promise<void> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "deno",
      "--code-splitting",
      // Deno maps a stack trace through them: an internal error names lib/… lines, as from
      // source (the maps are read only then; start-up measured the same).
      "--sourcemap=linked",
      ...await externalPackages(),
      "--outdir",
      outdir,
      ...BUNDLE_ENTRIES,
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  if (!output.success) {
    const text = new TextDecoder().decode(output.stderr).trim();
    throw new Error(`deno bundle failed (exit ${output.code}):\n${text}`);
  }
}

/**
 * Writes the bundle into `dist/bundle/` and gives the number of its modules
 * (source maps beside them not counted) and of inputs.
 *
 * @example
 * ```ts ignore
 * import { writeBundle } from "./bundle.ts";
 * const { files, inputs } = await writeBundle();
 * console.log(`${files} files from ${inputs} inputs`);
 * ```
 */
export async function writeBundle(): Promise<{ files: number; inputs: number }> {
  const inputs: BundleInputs = {
    deno: Deno.version.deno,
    entry: "cli/bundle_entry.js",
    files: await stamped(await bundleInputFiles()),
  };
  const target = new URL(BUNDLE_DIR, ROOT);
  const parent = new URL("../", target);
  await Deno.mkdir(parent, { recursive: true });
  const temporary = await Deno.makeTempDir({ dir: parent.pathname, prefix: ".bundle-" });
  try {
    await denoBundle(temporary);
    await Deno.stat(`${temporary}/${inputs.entry}`);
    await Deno.stat(`${temporary}/${BUNDLE_ENTRIES[1].replace(/\.ts$/, ".js")}`);
    await Deno.writeTextFile(`${temporary}/inputs.json`, JSON.stringify(inputs));
    await Deno.remove(target, { recursive: true }).catch(() => {});
    await Deno.rename(temporary, target);
  } catch (error) {
    await Deno.remove(temporary, { recursive: true }).catch(() => {});
    throw error;
  }
  let files = 0;
  for await (const name of walk(target)) if (name.endsWith(".js")) files++;
  return { files, inputs: inputs.files.length };
}

async function* walk(dir: URL): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) yield* walk(new URL(`${entry.name}/`, dir));
    else yield entry.name;
  }
}

if (import.meta.main) {
  try {
    const { files, inputs } = await writeBundle();
    console.log(`wrote ${BUNDLE_DIR}: ${files} files from ${inputs} inputs`);
  } catch (error) {
    console.error(`deno task bundle: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
