/**
 * How the tests of tests/real/ start a RealWorld "Conduit" backend: the
 * Express + Bookshelf implementation by Tane Morgan (MIT; source vendored
 * in `fixtures/conduit/server/` from its commit 250fc25, tests left out),
 * on a throwaway PostgreSQL 15 cluster of its own (`startDatabase`, shared
 * with Unleash). Its npm dependencies are the exact versions its own
 * `package.json` pins (pure JavaScript but for bcrypt, whose package ships
 * its prebuilt addon), installed like every real server of
 * {@linkcode prepare}; the project's override of bookshelf's knex is kept.
 * `fixtures/conduit/start.cjs` applies its migrations (what its
 * `bin/start.sh` does) and starts its own `lib/server.js` on 127.0.0.1.
 *
 * The RealWorld project's own Postman collection, which every backend of
 * the project is checked with, is `fixtures/conduit/Conduit.postman_collection.json`
 * (MIT, gothinkster/realworld `api/`, commit 1fcad4a); its `run-api-tests.sh`
 * runs it with Newman and the variables `APIURL`, `USERNAME`, `EMAIL`, `PASSWORD`.
 *
 * @module
 */
import type { Instance, Launch, Pinned } from "./servers.ts";
import { withOnDatabase } from "./unleash.ts";

const FIXTURE = new URL("./fixtures/conduit/", import.meta.url).pathname;

/** The RealWorld project's own Postman collection. */
export const CONDUIT_COLLECTION = `${FIXTURE}Conduit.postman_collection.json`;

/**
 * The backend's npm dependencies at the versions its `package.json` pins
 * (`save-exact`), read from the vendored copy.
 *
 * @example
 * ```ts
 * import { conduitPackages } from "./conduit.ts";
 * if (!conduitPackages().some((p) => p.name === "pg")) throw new Error();
 * ```
 */
export function conduitPackages(): Pinned[] {
  const manifest = JSON.parse(Deno.readTextFileSync(`${FIXTURE}server/package.json`));
  return Object.entries(manifest.dependencies as Record<string, string>).map((
    [name, version],
  ) => ({
    name,
    version,
    // Its package.json gives bookshelf (which asks for knex < 0.22) the root's knex.
    ...(name === "knex" ? { overrides: { knex: "$knex" } } : {}),
  }));
}

/**
 * The backend with its dependencies under `prefix`, on the database at
 * `url` (`postgres://USER@HOST:PORT/NAME`); a port that was free a moment before.
 *
 * @example
 * ```ts
 * import { conduitLaunch } from "./conduit.ts";
 * const launch = conduitLaunch("/cache/prefix", "postgres://u@127.0.0.1:5432/db");
 * if (launch.env?.DB_NAME !== "db" || launch.probe !== "/api/tags") throw new Error();
 * ```
 */
export function conduitLaunch(prefix: string, url: string): Launch {
  const db = new URL(url);
  return {
    command: ["node", `${FIXTURE}start.cjs`],
    env: {
      // The vendored source finds its packages in the cached install.
      NODE_PATH: `${prefix}/node_modules`,
      NODE_ENV: "production",
      PORT: "PORT",
      DB_HOST: db.hostname,
      DB_PORT: db.port,
      DB_NAME: db.pathname.slice(1),
      DB_USER: db.username,
      DB_PASSWORD: "",
      SECRET: "flowrun-test-jwt-secret",
      PINO_LEVEL: "warn",
    },
    origin: (_output, port) => `http://127.0.0.1:${port}`,
    probe: "/api/tags",
  };
}

/**
 * Runs `fn` with a fresh backend on a fresh database, both stopped and
 * removed whatever happens ({@linkcode withOnDatabase}).
 */
export function withConduit<T>(
  prefix: string,
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withOnDatabase((url) => conduitLaunch(prefix, url), start, fn);
}
