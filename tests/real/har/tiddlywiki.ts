/**
 * A real TiddlyWiki (npm `tiddlywiki`, pinned): the single-file wiki served
 * by its own Node.js server, whose browser client syncs each tiddler over a
 * REST API (`GET /recipes/default/tiddlers.json`, `PUT
 * /recipes/default/tiddlers/TITLE` with its CSRF guard `X-Requested-With:
 * TiddlyWiki`, `DELETE /bags/default/tiddlers/TITLE`, an `Etag` revision on
 * each save). Installed from the npm registry into a cache outside the
 * repository by the real servers' harness (`../servers.ts`) and started
 * fresh on 127.0.0.1 for each use: `--init server` into the instance's own
 * folder, then `--listen` on port 0 (it prints the address it got).
 *
 * @module
 */
import { type Install, install, type Instance, type Pinned, prefixOf, start } from "../servers.ts";

/** The exact version the tests pin. */
export const TIDDLYWIKI_VERSION = "5.4.1";

const PINNED: Pinned[] = [{ name: "tiddlywiki", version: TIDDLYWIKI_VERSION }];

/** Where the pinned package is installed: outside the repository, kept between runs. */
export const tiddlyWikiPrefix: string = prefixOf(PINNED);

/** Installs the pinned TiddlyWiki unless a complete install is in the cache. */
export async function installTiddlyWiki(): Promise<Install> {
  return await install(PINNED);
}

const BIN = () => `${tiddlyWikiPrefix}/node_modules/tiddlywiki/tiddlywiki.js`;

/** Makes DIR/wiki a new wiki of the `server` edition, as its documentation says to. */
async function init(dir: string): Promise<void> {
  const out = await new Deno.Command("node", {
    args: [BIN(), `${dir}/wiki`, "--init", "server"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
}

/**
 * Starts a fresh TiddlyWiki on 127.0.0.1 with a port the system picks; ready
 * once it printed `Serving on http://127.0.0.1:PORT` and `/status` answers.
 */
export async function startTiddlyWiki(): Promise<Instance> {
  await installTiddlyWiki();
  return await start({
    command: ["node", BIN(), "DIR/wiki", "--listen", "host=127.0.0.1", "port=0"],
    seed: init,
    origin: (out) => /Serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1],
    probe: "/status",
  });
}
