/**
 * How the tests of tests/real/ start Platformatic DB (npm `@platformatic/db`,
 * a Fastify server that serves a REST API and its OpenAPI document made
 * from a SQL database's schema) on 127.0.0.1, as a user sets it up: a
 * folder holding `platformatic.json`, a SQLite database and the migrations
 * below, applied at the start (`migrations.autoApply`).
 *
 * Pinned at 2.61.0: the 3.x line asks for Node >= 22.19 (`engines`), the
 * machine has Node 20; 2.61.0 is the newest 2.x the registry holds. SQLite
 * through `better-sqlite3`, whose install ships a prebuilt binding.
 *
 * The schema is a user's: authors, books of an author, reviews of a book,
 * tags; NOT NULL and UNIQUE columns, foreign keys. Platformatic makes the
 * collection routes (`/books/`, with `where.FIELD.OP` filters, `limit`,
 * `offset`, `orderby.FIELD`), the item routes (`/books/{id}`) and one nested
 * route per foreign key each way (`/authors/{id}/books`, `/books/{id}/author`).
 *
 * No authorization: with an admin secret (`authorization.adminSecret`) the
 * document still declares no security scheme, so a user converting it would
 * have nothing to send (docs/real-servers.md).
 *
 * Two details of a start:
 *
 * - it listens on `0.0.0.0` whatever `server.hostname` says when it finds
 *   itself in a container (`isDocker()` of `@platformatic/service`), so a
 *   preload (`-r bind.cjs`) makes a listen on every address a listen on
 *   127.0.0.1;
 * - it is told port 0 and prints the port it got (`Server listening at`).
 *
 * @module
 */
import type { Launch, Pinned } from "./servers.ts";

/** Platformatic DB's npm package (see the module doc for why 2.61.0). */
export const PLATFORMATIC: Pinned = { name: "@platformatic/db", version: "2.61.0" };

/** The migration a user writes: four related tables. */
export const PLATFORMATIC_SCHEMA = `CREATE TABLE authors (
  id INTEGER PRIMARY KEY,
  name VARCHAR(255) NOT NULL,
  email VARCHAR(255) NOT NULL UNIQUE,
  bio TEXT
);
CREATE TABLE books (
  id INTEGER PRIMARY KEY,
  title VARCHAR(255) NOT NULL,
  isbn VARCHAR(32) NOT NULL UNIQUE,
  published_year INTEGER,
  author_id INTEGER NOT NULL REFERENCES authors(id)
);
CREATE TABLE reviews (
  id INTEGER PRIMARY KEY,
  rating INTEGER NOT NULL,
  body TEXT,
  book_id INTEGER NOT NULL REFERENCES books(id)
);
CREATE TABLE tags (
  id INTEGER PRIMARY KEY,
  name VARCHAR(64) NOT NULL UNIQUE
);
`;

/** Makes a listen on every address listen on 127.0.0.1 (the server chose `0.0.0.0`). */
const BIND = `const net = require("net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const o = args[0];
  if (o && typeof o === "object" && (o.host === "0.0.0.0" || o.host === "::")) {
    args[0] = { ...o, host: "127.0.0.1" };
  }
  return listen.apply(this, args);
};
`;

/** The configuration: the database, its migrations, the REST API (no GraphQL). */
const CONFIG = {
  server: { hostname: "127.0.0.1", port: 0, logger: { level: "info" } },
  db: { connectionString: "sqlite://./db.sqlite", graphql: false, openapi: true },
  migrations: { dir: "./migrations", autoApply: true },
};

/**
 * Platformatic DB installed under `prefix`, with the schema of
 * {@linkcode PLATFORMATIC_SCHEMA} in a fresh SQLite database.
 *
 * @example
 * ```ts
 * import { platformaticLaunch } from "./platformatic.ts";
 * const launch = platformaticLaunch("/cache/prefix");
 * if (!launch.command.includes("start")) throw new Error();
 * ```
 */
export function platformaticLaunch(prefix: string): Launch {
  return {
    command: [
      "node",
      "-r",
      "DIR/bind.cjs",
      `${prefix}/node_modules/@platformatic/db/db.mjs`,
      "start",
      "-c",
      "DIR/platformatic.json",
    ],
    env: { TZ: "UTC" },
    seed: async (dir) => {
      await Deno.writeTextFile(`${dir}/bind.cjs`, BIND);
      await Deno.writeTextFile(`${dir}/platformatic.json`, JSON.stringify(CONFIG, null, 2));
      await Deno.mkdir(`${dir}/migrations`);
      await Deno.writeTextFile(`${dir}/migrations/001.do.sql`, PLATFORMATIC_SCHEMA);
    },
    origin: (out) => {
      const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      return port ? `http://127.0.0.1:${port}` : undefined;
    },
    probe: "/documentation/json",
  };
}
