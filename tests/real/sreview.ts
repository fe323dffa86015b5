/**
 * How the tests of tests/real/ start SReview's web part (Debian's
 * `sreview-web`, Perl: Mojolicious with `Mojolicious::Plugin::OpenAPI`), the
 * video review system conferences use, on a throwaway PostgreSQL 15 cluster
 * made as Unleash's is (`startDatabase` of unleash.ts). Its configuration is
 * the `config.pm` its users write, here in the instance's folder, which
 * `SREVIEW_WDIR` names: the database, the cookies' secret and the API key
 * the API's `api_key` scheme checks (header `X-SReview-Key`). SReview
 * migrates the empty database itself at its start; its OpenAPI 3 document is
 * served at the API's base path, `/api/v1`.
 *
 * @module
 */
import { debianPackagesMissing } from "./debian.ts";
import type { Instance, Launch } from "./servers.ts";
import { postgresMissing, withOnDatabase } from "./unleash.ts";

/** The Debian package, as `.ci/run` installs it, and a file it installs. */
const FILES: Record<string, string> = { "sreview-web": "/usr/bin/sreview-web" };

/** Where SReview serves its own OpenAPI 3 document: the API's base path. */
export const SREVIEW_DOCUMENT = "/api/v1";

/** The API key written in the instance's configuration (what its admin chooses). */
export const SREVIEW_API_KEY = "flowrun-test-sreview-api-key";

/**
 * Why the SReview tests cannot run here ("" when they can): no
 * `sreview-web`, or no PostgreSQL 15. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { sreviewMissing } from "./sreview.ts";
 * if (typeof sreviewMissing() !== "string") throw new Error();
 * ```
 */
export function sreviewMissing(): string {
  return debianPackagesMissing(FILES) || postgresMissing();
}

/** The Perl string literal of `text` (single-quoted: nothing in it is interpolated). */
const perl = (text: string) => `'${text.replace(/[\\']/g, "\\$&")}'`;

/**
 * SReview on the database at `url` (`postgres://user@host:port/name`), its
 * configuration written into the instance's folder; a port that was free a
 * moment before.
 *
 * @example
 * ```ts
 * import { sreviewLaunch } from "./sreview.ts";
 * const launch = sreviewLaunch("postgres://unleash@127.0.0.1:5432/unleash");
 * if (launch.command[0] !== "sreview-web" || launch.probe !== "/api/v1") throw new Error();
 * ```
 */
export function sreviewLaunch(url: string): Launch {
  const db = new URL(url);
  const dbi = `dbi:Pg:dbname=${
    db.pathname.slice(1)
  };host=${db.hostname};port=${db.port};user=${db.username}`;
  const config = [
    `$dbistring = ${perl(dbi)};`,
    `$secret = ${perl(crypto.randomUUID())};`,
    `$api_key = ${perl(SREVIEW_API_KEY)};`,
    "1;",
    "",
  ].join("\n");
  return {
    command: ["sreview-web", "daemon", "-l", "http://127.0.0.1:PORT"],
    env: { SREVIEW_WDIR: "DIR", HOME: "DIR" },
    seed: (dir) => Deno.writeTextFile(`${dir}/config.pm`, config),
    // Mojolicious prints `Listening at "http://127.0.0.1:PORT"` once it listens.
    origin: (out) => /Listening at "(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1],
    probe: SREVIEW_DOCUMENT,
  };
}

/**
 * Runs `fn` with a fresh SReview on a fresh database, both stopped and
 * removed whatever happens; the start (its migrations included) is tried
 * twice on a busy machine.
 */
export function withSReview<T>(
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withOnDatabase(sreviewLaunch, start, fn, 2);
}
