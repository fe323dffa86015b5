/**
 * The bundle's entry (`deno task bundle`; see `cli/current_bundle.ts`): the
 * command line of `cli/main.ts`, with the two module locations that a
 * bundle moves named the way a bundler can follow. Each subcommand's module
 * is a literal import here, so that it becomes a file of the bundle loaded
 * only when used (from source these imports stay computed, see
 * `subcommands.ts`), and worker threads start from the bundle's own copy of
 * `lib/run/workers/worker_main.ts`. Source runs never load this module.
 *
 * @module
 */
import { setWorkerEntry } from "../lib/run/workers/entry.ts";
import { setSubcommandLoader, type SubcommandLoader, type Subcommands } from "./subcommands.ts";

export { main } from "./main.ts";

const LOADERS: { [K in keyof Subcommands]: () => Promise<Subcommands[K]> } = {
  run: () => import("./run/mod.ts"),
  merge: () => import("./merge.ts"),
  convert: () => import("./convert.ts"),
  validate: () => import("./validate.ts"),
  report: () => import("./report.ts"),
  send: () => import("./send.ts"),
  export: () => import("./export.ts"),
};

setSubcommandLoader(((name: keyof Subcommands) => LOADERS[name]()) as SubcommandLoader);
// The bundle keeps the path of each entry it is given: this module is cli/bundle_entry.js in it.
setWorkerEntry(new URL("../lib/run/workers/worker_main.js", import.meta.url));
