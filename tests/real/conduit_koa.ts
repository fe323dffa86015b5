/**
 * A second RealWorld "Conduit" backend for the tests of tests/real/, written
 * by other people than the first (conduit.ts): the Koa + Knex implementation
 * of the RealWorld project itself, gothinkster/koa-knex-realworld-example
 * (ISC, by Dmitrii Solovev; source vendored in `fixtures/conduit_koa/server/`
 * from its commit 602e234, seeds left out), on a throwaway PostgreSQL 15
 * cluster of its own (`startDatabase`, shared with Unleash and conduit.ts).
 * It differs from the first and from the project's OpenAPI document: a
 * create answers 200 (201 documented) and a delete 200 (204), a comment's
 * id is a UUID (an integer documented), an article's slug is its title and
 * a random suffix, made anew when an update changes the title (as the
 * RealWorld spec says), no rate limit, `Token` or `Bearer`; and its feed
 * answers 500 to everyone (knex 0.19.5 writes its subquery without
 * parentheses).
 *
 * Its npm dependencies are the versions its `yarn.lock` resolves, with three
 * changes that keep the install pure npm, no native build and no download
 * (see `fixtures/conduit_koa/SOURCE.txt`): `sqlite3` (native, for its default
 * SQLite database) is left out, as the backend runs on PostgreSQL;
 * `bcrypt` 5.0.0 (its addon is downloaded from GitHub at install) is 6.0.0,
 * which ships it, with the same `hash`/`compare`; `pg` 7.11.0 is 8.11.3,
 * as 7 never connects on Node 14 and later; `js-yaml` 3.13.1 is added, which
 * `config` reads its .yml files with (its dev dependencies brought it). `fixtures/conduit_koa/start.cjs`
 * applies its migrations and starts its own `src/bin/server.js`.
 *
 * @module
 */
import type { Instance, Launch, Pinned } from "./servers.ts";
import { withOnDatabase } from "./unleash.ts";

const FIXTURE = new URL("./fixtures/conduit_koa/", import.meta.url).pathname;

/** The RealWorld collection as the backend's repository ships it (the project's of 2019). */
export const KOA_COLLECTION = `${FIXTURE}Conduit.postman_collection.json`;

/** What its `yarn.lock` resolves the `package.json` ranges to, but for the three changes above. */
const RESOLVED: Record<string, string> = {
  bcrypt: "6.0.0",
  config: "3.2.1",
  "date-fns": "1.30.1",
  dotenv: "6.2.0",
  humps: "2.0.1",
  "join-js": "1.0.2",
  // Not in its package.json: `config` reads the .yml files with it, which the project's dev
  // dependencies brought in.
  "js-yaml": "3.13.1",
  jsonwebtoken: "8.5.1",
  kcors: "2.2.2",
  knex: "0.19.5",
  koa: "2.7.0",
  "koa-bodyparser": "4.2.1",
  "koa-helmet": "4.2.0",
  "koa-jwt": "3.6.0",
  "koa-logger": "3.2.1",
  "koa-response-time": "2.1.0",
  "koa-router": "7.4.0",
  "koa-x-request-id": "2.0.0",
  lodash: "4.17.21",
  mississippi: "3.0.0",
  "p-event": "2.3.1",
  pg: "8.11.3",
  pino: "5.13.0",
  "pino-colada": "1.4.5",
  qs: "6.7.0",
  request: "2.88.0",
  "request-promise": "4.2.4",
  slug: "0.9.4",
  stoppable: "1.1.0",
  uuid: "3.3.3",
  validator: "10.11.0",
  yup: "0.26.10",
};

/**
 * The backend's npm dependencies, pinned: every one its `package.json`
 * names, at the version in {@linkcode RESOLVED}, but `sqlite3`, and the
 * `js-yaml` its `config` needs.
 *
 * @example
 * ```ts
 * import { conduitKoaPackages } from "./conduit_koa.ts";
 * if (conduitKoaPackages().some((p) => p.name === "sqlite3")) throw new Error();
 * ```
 */
export function conduitKoaPackages(): Pinned[] {
  const manifest = JSON.parse(Deno.readTextFileSync(`${FIXTURE}server/package.json`));
  return Object.keys(manifest.dependencies as Record<string, string>)
    .filter((name) => name !== "sqlite3")
    .concat("js-yaml")
    .map((name) => {
      if (!RESOLVED[name]) throw new Error(`No pinned version for "${name}"`);
      return { name, version: RESOLVED[name] };
    });
}

/**
 * The backend with its dependencies under `prefix`, on the database at
 * `url` (`postgres://USER@HOST:PORT/NAME`), on 127.0.0.1 and a port that
 * was free a moment before.
 *
 * @example
 * ```ts
 * import { conduitKoaLaunch } from "./conduit_koa.ts";
 * const launch = conduitKoaLaunch("/cache/prefix", "postgres://u@127.0.0.1:5432/db");
 * if (launch.env?.DB_CLIENT !== "pg" || launch.probe !== "/api/tags") throw new Error();
 * ```
 */
export function conduitKoaLaunch(prefix: string, url: string): Launch {
  return {
    command: ["node", `${FIXTURE}start.cjs`],
    env: {
      // The vendored source finds its packages in the cached install.
      NODE_PATH: `${prefix}/node_modules`,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "PORT",
      DB_CLIENT: "pg",
      DB_CONNECTION: url,
      SECRET: "flowrun-test-jwt-secret",
      LOG_LEVEL: "warn",
    },
    origin: (_output, port) => `http://127.0.0.1:${port}`,
    probe: "/api/tags",
  };
}

/**
 * Runs `fn` with a fresh backend on a fresh database, both stopped and
 * removed whatever happens ({@linkcode withOnDatabase}).
 */
export function withConduitKoa<T>(
  prefix: string,
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withOnDatabase((url) => conduitKoaLaunch(prefix, url), start, fn);
}
