/**
 * How the tests of tests/real/ start the LoopBack 4 example applications the
 * LoopBack project publishes on npm: each on 127.0.0.1, a port the system
 * picks, its data in the instance's own folder.
 *
 * @module
 */
import type { Launch, Pinned } from "./servers.ts";

/** LoopBack's Todo tutorial app: a REST API over an in-memory datasource, with its own OpenAPI document. */
export const TODO: Pinned = { name: "@loopback/example-todo", version: "6.0.0" };

/** LoopBack's file upload and download app: a page that uploads, lists and downloads files. */
export const FILES: Pinned = { name: "@loopback/example-file-transfer", version: "1.7.0" };

/** LoopBack prints `Server is running at http://127.0.0.1:PORT`. */
function loopbackOrigin(out: string): string | undefined {
  return /Server is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
}

/**
 * The Todo app, installed under `prefix`: its datasource reads and writes
 * `./data/db.json`, seeded from the package's own.
 *
 * @example
 * ```ts
 * import { todoLaunch } from "./loopback.ts";
 * const launch = todoLaunch("/cache/prefix");
 * if (launch.probe !== "/openapi.json") throw new Error();
 * ```
 */
export function todoLaunch(prefix: string): Launch {
  const pkg = `${prefix}/node_modules/${TODO.name}`;
  return {
    command: ["node", `${pkg}/dist/index.js`],
    env: { PORT: "0", HOST: "127.0.0.1" },
    seed: async (dir) => {
      await Deno.mkdir(`${dir}/data`);
      await Deno.copyFile(`${pkg}/data/db.json`, `${dir}/data/db.json`);
    },
    origin: loopbackOrigin,
    probe: "/openapi.json",
  };
}

/**
 * The file app, installed under `prefix`: started by its package's own
 * `main`, its uploads in the instance's folder (by default they would go
 * inside the package, shared by every instance).
 *
 * @example
 * ```ts
 * import { filesLaunch } from "./loopback.ts";
 * if (filesLaunch("/cache/prefix").command[0] !== "node") throw new Error();
 * ```
 */
export function filesLaunch(prefix: string): Launch {
  const pkg = `${prefix}/node_modules/${FILES.name}`;
  const main = `require(${JSON.stringify(pkg)}).main({
    rest: { port: 0, host: "127.0.0.1", openApiSpec: { setServersFromRequest: true } },
    fileStorageDirectory: process.cwd() + "/uploads",
  }).catch((e) => { console.error(e); process.exit(1); })`;
  return {
    command: ["node", "-e", main],
    seed: (dir) => Deno.mkdir(`${dir}/uploads`),
    origin: loopbackOrigin,
    probe: "/openapi.json",
  };
}
