/**
 * How the tests of tests/real/ start Etherpad, the collaborative editor
 * (npm `ep_etherpad-lite` 1.8.14, the last version published there; pure
 * JavaScript, no native build), on 127.0.0.1 with a port free a moment
 * before. Its HTTP API serves its own OpenAPI 3 document at
 * `/api/openapi.json` (every function under `/api/1.2.15/`, each as GET
 * and POST), authenticated by an `apikey` query parameter: the key in the
 * file the user gives it (`APIKEY.txt`).
 *
 * Etherpad finds its base folder as the parent of the folder its code is
 * in, which must be named `src` (its repository's layout), and keeps its
 * caches there. So each instance is a base folder of its own: `src` a
 * hard-linked copy of the package (no bytes copied), `node_modules` links
 * to the installed dependencies (`ep_etherpad-lite` itself to `../src`, so
 * its plugin loader finds the same code), its settings (the `dirty` file
 * database in the folder, no minifying), `APIKEY.txt` and `SESSIONKEY.txt`.
 * At its start Etherpad asks `static.etherpad.org` for updates; offline the
 * lookup fails and it logs that, nothing else.
 *
 * @module
 */
import type { Launch, Pinned } from "./servers.ts";

/** Etherpad's npm package. */
export const ETHERPAD: Pinned = { name: "ep_etherpad-lite", version: "1.8.14" };

/** Where Etherpad serves the OpenAPI document of its latest API version. */
export const ETHERPAD_DOCUMENT = "/api/openapi.json";

/** The API key each instance is started with: what the user writes in `APIKEY.txt`. */
export const ETHERPAD_API_KEY = "flowrun-test-etherpad-api-key-5d1c";

/** The settings of an instance in `dir`: the port comes from `PORT` (Etherpad reads `${PORT}`). */
function settings(dir: string): string {
  return JSON.stringify(
    {
      ip: "127.0.0.1",
      port: "${PORT}",
      dbType: "dirty",
      dbSettings: { filename: `${dir}/var/dirty.db` },
      minify: false,
      suppressErrorsInPadText: true,
      // INFO: the line that gives the address is an INFO one.
      loglevel: "INFO",
    },
    null,
    2,
  );
}

/** Makes `dir` an Etherpad base folder of the package installed under `prefix`. */
async function seed(prefix: string, dir: string): Promise<void> {
  const copy = await new Deno.Command("cp", {
    args: ["-al", `${prefix}/node_modules/${ETHERPAD.name}`, `${dir}/src`],
    stderr: "piped",
  }).output();
  if (!copy.success) {
    // Another file system than the cache's: a plain copy (7 MB).
    await new Deno.Command("cp", {
      args: ["-r", `${prefix}/node_modules/${ETHERPAD.name}`, `${dir}/src`],
    }).output();
  }
  await Deno.mkdir(`${dir}/node_modules`);
  await Deno.mkdir(`${dir}/var`);
  for (const entry of Deno.readDirSync(`${prefix}/node_modules`)) {
    const target = entry.name === ETHERPAD.name ? "../src" : `${prefix}/node_modules/${entry.name}`;
    await Deno.symlink(target, `${dir}/node_modules/${entry.name}`);
  }
  await Deno.writeTextFile(`${dir}/settings.json`, settings(dir));
  await Deno.writeTextFile(`${dir}/APIKEY.txt`, ETHERPAD_API_KEY);
}

/** Etherpad prints `You can access your Etherpad instance at http://127.0.0.1:N/`. */
function etherpadOrigin(out: string): string | undefined {
  const port = /your Etherpad instance at http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)?.[1];
  return port ? `http://127.0.0.1:${port}` : undefined;
}

/**
 * Etherpad installed under `prefix`, each start a base folder of its own
 * (a fresh `dirty` database, the key {@linkcode ETHERPAD_API_KEY}).
 *
 * @example
 * ```ts
 * import { etherpadLaunch } from "./etherpad.ts";
 * const launch = etherpadLaunch("/cache/prefix");
 * if (launch.command[0] !== "node" || launch.probe !== "/api/openapi.json") throw new Error();
 * ```
 */
export function etherpadLaunch(prefix: string): Launch {
  return {
    command: [
      "node",
      "DIR/src/node/server.js",
      "--settings",
      "DIR/settings.json",
      "--apikey",
      "DIR/APIKEY.txt",
      "--sessionkey",
      "DIR/SESSIONKEY.txt",
    ],
    // PATH: Etherpad runs `npm ls` at its start to list its plugins.
    env: { PORT: "PORT", NODE_ENV: "production", PATH: Deno.env.get("PATH") ?? "" },
    seed: (dir) => seed(prefix, dir),
    origin: etherpadOrigin,
    probe: ETHERPAD_DOCUMENT,
  };
}
