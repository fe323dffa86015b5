/**
 * Where each subcommand lives, imported only when it is used. The specifiers
 * are not string literals on purpose: for a literal `import("…")` Deno
 * prepares that module's whole graph as soon as the importing module loads, so
 * `flowrun --version` read and resolved all 125 of flowrun's files (18 now),
 * and `flowrun run` the files of every other subcommand too. `deno task
 * compile` passes each module as `--include`, as `deno compile` cannot see
 * them either.
 *
 * @module
 */

/**
 * Each subcommand's module, relative to this file.
 *
 * @example
 * ```ts
 * import { SUBCOMMANDS } from "./subcommands.ts";
 * if (SUBCOMMANDS.run !== "./run/mod.ts") throw new Error();
 * ```
 */
export const SUBCOMMANDS = {
  run: "./run/mod.ts",
  merge: "./merge.ts",
  convert: "./convert.ts",
  validate: "./validate.ts",
  report: "./report.ts",
  send: "./send.ts",
  export: "./export.ts",
} as const;

/** What each subcommand's module exports (types only: nothing is loaded for them). */
export interface Subcommands {
  /** `flowrun run`. */
  run: typeof import("./run/mod.ts");
  /** `flowrun merge`. */
  merge: typeof import("./merge.ts");
  /** `flowrun convert`. */
  convert: typeof import("./convert.ts");
  /** `flowrun validate`. */
  validate: typeof import("./validate.ts");
  /** `flowrun report`. */
  report: typeof import("./report.ts");
  /** `flowrun send`. */
  send: typeof import("./send.ts");
  /** `flowrun export`. */
  export: typeof import("./export.ts");
}

/**
 * The subcommands' modules as paths from the project root, as
 * `deno compile --include` takes them.
 *
 * @example
 * ```ts
 * import { SUBCOMMAND_FILES } from "./subcommands.ts";
 * if (!SUBCOMMAND_FILES.includes("cli/run/mod.ts")) throw new Error();
 * ```
 */
export const SUBCOMMAND_FILES: readonly string[] = Object.values(SUBCOMMANDS).map((path) =>
  `cli/${path.slice(2)}`
);

/**
 * Imports one subcommand's module.
 *
 * @example
 * ```ts ignore
 * import { subcommand } from "./subcommands.ts";
 * const code = await (await subcommand("validate")).validate(["examples/flows"]);
 * ```
 */
export function subcommand<K extends keyof Subcommands>(name: K): Promise<Subcommands[K]> {
  return loader(name);
}

/** Imports a subcommand's module by name. */
export type SubcommandLoader = <K extends keyof Subcommands>(name: K) => Promise<Subcommands[K]>;

let loader: SubcommandLoader = (name) => import(SUBCOMMANDS[name]);

/**
 * Replaces how {@linkcode subcommand} imports a module: the bundle
 * (`cli/bundle_entry.ts`) names each subcommand's module with a literal
 * import, so that the bundler puts each in a file of its own, where this
 * file's relative paths point at nothing.
 *
 * @example
 * ```ts ignore
 * import { setSubcommandLoader, SUBCOMMANDS } from "./subcommands.ts";
 * setSubcommandLoader((name) => import(SUBCOMMANDS[name]));
 * ```
 */
export function setSubcommandLoader(load: SubcommandLoader): void {
  loader = load;
}
