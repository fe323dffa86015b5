/**
 * The module graph Deno builds for an entry, as `deno info --json` prints it:
 * the one source the layer check and the run's flat import list read.
 *
 * @module
 */

/** One module of `deno info --json`, with what its dependencies resolve to. */
export interface InfoModule {
  /** The module's URL (`file:///…`, `npm:…`, `node:…`). */
  specifier: string;
  /** Its imports: what each resolves to as code or as types, and whether it is an `import()`. */
  dependencies?: {
    code?: { specifier?: string };
    type?: { specifier?: string };
    isDynamic?: boolean;
  }[];
}

/**
 * Runs `deno info --json <entry>` in the project root.
 *
 * @example
 * ```ts ignore
 * import { denoInfo } from "./deno_info.ts";
 * const { roots, modules } = await denoInfo("cli.ts");
 * if (!roots[0].endsWith("/cli.ts") || modules.length === 0) throw new Error();
 * ```
 */
export async function denoInfo(entry: string): Promise<{ roots: string[]; modules: InfoModule[] }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: new URL("../", import.meta.url),
    env: { NO_COLOR: "1" },
  }).output();
  if (!output.success) {
    throw new Error(
      `deno info --json ${entry} failed: ${new TextDecoder().decode(output.stderr).trim()}`,
    );
  }
  return JSON.parse(new TextDecoder().decode(output.stdout));
}
