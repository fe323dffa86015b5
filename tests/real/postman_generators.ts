/**
 * The two programs that make the Postman collections LoopBack's users
 * actually have, run as Node programs on a server's own OpenAPI document:
 * `openapi-to-postmanv2` (what Postman's importer runs when a user imports
 * the document) and Portman (`@apideck/portman`, a contract suite with test
 * scripts, chained by `assignVariables`). Installed like the servers
 * (see servers.ts), test-only.
 *
 * @module
 */
import type { Pinned } from "./servers.ts";
import { runCommandBounded } from "./bounded.ts";

/**
 * The generators at pinned versions. Portman 1.33.0 requires `tslib` at run
 * time but declares it a devDependency only ("Cannot find module 'tslib'"),
 * so it is pinned beside it.
 */
export const GENERATORS: readonly Pinned[] = [
  { name: "openapi-to-postmanv2", version: "6.3.3" },
  { name: "@apideck/portman", version: "1.33.0" },
  { name: "tslib", version: "2.9.1" },
];

/** Runs `node` with `args` in `cwd`, killed after 2 minutes; throws with its output on failure. */
async function node(args: string[], cwd: string): Promise<string> {
  const out = await runCommandBounded(["node", ...args], { ms: 120_000, cwd });
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (out.code !== 0) throw new Error(`node ${args.join(" ")} failed (exit ${out.code}):\n${text}`);
  return text;
}

/**
 * The collection Postman makes when a user imports the OpenAPI document at
 * `doc` (the importer's own options, none changed), written to `out`.
 *
 * @example
 * ```ts ignore
 * import { postmanImport } from "./postman_generators.ts";
 * await postmanImport("/cache/prefix", "/tmp/openapi.json", "/tmp/collection.json");
 * ```
 */
export async function postmanImport(prefix: string, doc: string, out: string): Promise<void> {
  const bin = `${prefix}/node_modules/openapi-to-postmanv2/bin/openapi2postmanv2.js`;
  const said = await node([bin, "-s", doc, "-o", out], prefix);
  if (!said.includes("Conversion successful")) throw new Error(`openapi2postmanv2 said:\n${said}`);
}

/**
 * Portman's collection for the document at `doc` with the Portman config at
 * `config`, written to `out`, with Portman's own `options` (the ones its
 * error messages point users to: `--ignoreCircularRefs`). Portman writes a
 * `tmp/` folder into its working folder, so it runs in `cwd` (a temp folder
 * of the test's).
 *
 * @example
 * ```ts ignore
 * import { portman } from "./postman_generators.ts";
 * await portman("/cache/prefix", "/tmp/openapi.json", "/tmp/portman.json", "/tmp/out.json", "/tmp");
 * ```
 */
export async function portman(
  prefix: string,
  doc: string,
  config: string,
  out: string,
  cwd: string,
  options: string[] = [],
): Promise<string> {
  const bin = `${prefix}/node_modules/@apideck/portman/bin/portman`;
  const said = await node([bin, "-l", doc, "-c", config, "-o", out, ...options], cwd);
  if (!said.includes("Collection written to")) throw new Error(`portman said:\n${said}`);
  return said;
}
