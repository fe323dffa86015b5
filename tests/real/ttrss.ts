/**
 * How the tests of tests/real/ start Tiny Tiny RSS (Debian bookworm's
 * `tt-rss` 21~git20210204, PHP 8.2, MariaDB 10.11): a Dojo single-page
 * reader whose page hands out a `csrf_token` that every `backend.php` call
 * sends back, answered in JSON (feeds, categories, labels, filters,
 * preferences); its sessions live in the database.
 *
 * - **Instance**: a folder holding a MariaDB data folder of its own (`db/`,
 *   on a unix socket there, no TCP: tests/real/mariadb.ts), `www/` (a copy of
 *   the package's `/usr/share/tt-rss/www`, its links kept, but its own
 *   `config.php` and `feed-icons/`, since the package's read `/etc/tt-rss`
 *   and `/var/lib/tt-rss`), `cache/` and `lock/`, and `feeds/`: the feeds the
 *   journey subscribes to. Nothing is written outside the folder.
 * - **Feeds**: tt-rss fetches only ports 80 and 443 and never a loopback
 *   host, so the feeds have an ordinary address (`http://feeds.example.org/`)
 *   and the instance's `_HTTP_PROXY` is a second `php -S` on 127.0.0.1 that
 *   answers every proxied request from `feeds/` (no internet).
 * - **Seed**: MariaDB's system tables and tt-rss's own schema, made once
 *   into the tests' cache; the `admin` the schema makes gets the password
 *   {@linkcode LOGIN} (tt-rss's salted SHA-256, `MODE2:`).
 * - **Start**: a shell in the instance's process group starts the feed
 *   server and `mariadbd`, waits for its socket (at most 20 s), then runs
 *   `php -S 127.0.0.1:PORT` with four workers (tt-rss fetches a feed through
 *   the proxy while the browser waits); ready once the login page answers.
 *   `SIMPLE_UPDATE_MODE` is on: the page itself asks the server to update a
 *   feed (`rpc` `updaterandomfeed`), as a user without a cron job has it.
 *
 * @module
 */
import { cacheRoot, freePort, type Launch } from "./servers.ts";
import {
  installDatabase,
  reachable,
  runOrThrow as run,
  seedInstance,
  withMariadb,
} from "./mariadb.ts";
import { debianPackagesMissing } from "./debian.ts";
import { FEED_ROUTER, FEEDS } from "./ttrss_feeds.ts";

const CODE = "/usr/share/tt-rss";
const asRoot = Deno.uid() === 0;

/** The administrator of a fresh instance and the password the seed gives it. */
export const LOGIN = { username: "admin", password: "quiet-harbour-51" } as const;

/** The seeded MariaDB data folder every instance copies. */
const SEED = `${cacheRoot}/tt-rss-21-seed/db`;

/**
 * Why the tt-rss tests cannot run here ("" when they can): no tt-rss,
 * MariaDB or PHP's MySQL and cURL drivers, and `apt-get install` could not
 * put them there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { ttrssMissing } from "./ttrss.ts";
 * if (typeof ttrssMissing() !== "string") throw new Error();
 * ```
 */
export function ttrssMissing(): string {
  return debianPackagesMissing({
    "php-cli": "/usr/bin/php",
    "php-mysql": "/usr/share/doc/php-mysql",
    "php-curl": "/usr/share/doc/php-curl",
    "mariadb-server": "/usr/sbin/mariadbd",
    "tt-rss": `${CODE}/www/backend.php`,
  });
}

/** The instance's own configuration: its database, folders, the feeds' proxy. */
function config(dir: string, feedPort: number): string {
  const defines: Record<string, string | number | boolean> = {
    DB_TYPE: "mysql",
    DB_HOST: "localhost",
    DB_PORT: "",
    DB_USER: "root",
    DB_NAME: "ttrss",
    DB_PASS: "",
    MYSQL_CHARSET: "UTF8",
    SINGLE_USER_MODE: false,
    SIMPLE_UPDATE_MODE: true,
    PHP_EXECUTABLE: "/usr/bin/php",
    LOCK_DIRECTORY: `${dir}/lock`,
    CACHE_DIR: `${dir}/cache`,
    ICONS_DIR: "feed-icons",
    ICONS_URL: "feed-icons",
    AUTH_AUTO_CREATE: true,
    AUTH_AUTO_LOGIN: true,
    FORCE_ARTICLE_PURGE: 0,
    ENABLE_REGISTRATION: false,
    REG_NOTIFY_ADDRESS: "admin@example.org",
    REG_MAX_USERS: 10,
    SESSION_COOKIE_LIFETIME: 86400,
    SMTP_FROM_NAME: "Tiny Tiny RSS",
    SMTP_FROM_ADDRESS: "noreply@example.org",
    DIGEST_SUBJECT: "[tt-rss] New headlines",
    CHECK_FOR_UPDATES: false,
    ENABLE_GZIP_OUTPUT: false,
    PLUGINS: "auth_internal, note",
    LOG_DESTINATION: "",
    CONFIG_VERSION: 26,
    _HTTP_PROXY: `127.0.0.1:${feedPort}`,
  };
  const lines = Object.entries(defines).map(([k, v]) => `define('${k}', ${JSON.stringify(v)});`);
  // The address the browser used (any port), as tt-rss checks it against SELF_URL_PATH.
  const self = "'http://' . ($_SERVER['HTTP_HOST'] ?? '127.0.0.1') . '/'";
  return ["<?php", ...lines, `define('SELF_URL_PATH', ${self});`, ""].join("\n");
}

/** Copies the package's web folder to `to`; its links (relative, into `/usr/share`) made absolute. */
async function copyCode(to: string): Promise<void> {
  await run(["cp", "-r", `${CODE}/www`, to]);
  const links = await new Deno.Command("find", { args: [to, "-type", "l"], stdout: "piped" })
    .output();
  for (const link of new TextDecoder().decode(links.stdout).split("\n").filter(Boolean)) {
    const original = `${CODE}/www${link.slice(to.length)}`;
    const target = await Deno.realPath(original).catch(() => "");
    await Deno.remove(link);
    // The package's config.php and feed-icons/ are in /etc and /var: the instance has its own.
    if (target && !target.startsWith("/etc/") && !target.startsWith("/var/")) {
      await Deno.symlink(target, link);
    }
  }
}

/** Lays out the code, configuration and feeds of an instance in `dir` (all but its database). */
async function layOut(dir: string): Promise<void> {
  await reachable(dir);
  await copyCode(`${dir}/www`);
  for (const sub of ["www/feed-icons", "cache/images", "cache/upload", "cache/export", "lock"]) {
    await Deno.mkdir(`${dir}/${sub}`, { recursive: true });
  }
  await Deno.mkdir(`${dir}/feeds`);
  for (const [name, xml] of Object.entries(FEEDS)) {
    await Deno.writeTextFile(`${dir}/feeds/${name}`, xml);
  }
  await Deno.writeTextFile(`${dir}/feeds/router.php`, FEED_ROUTER);
  const feedPort = freePort();
  await Deno.writeTextFile(`${dir}/feeds/port`, `${feedPort}`);
  await Deno.writeTextFile(`${dir}/www/config.php`, config(dir, feedPort));
  if (asRoot) {
    await run([
      "chown",
      "-R",
      "-h",
      "www-data:www-data",
      ...["www", "cache", "lock", "feeds"].map((d) => `${dir}/${d}`),
    ]);
  }
}

/** The hex SHA-256 of `text`. */
async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** tt-rss's schema, then the admin's password as tt-rss stores it. */
async function schema(): Promise<string> {
  const sql = await Deno.readTextFile(`${CODE}/schema/ttrss_schema_mysql.sql`);
  const salt = "flowrun-instance-salt";
  const hash = `MODE2:${await sha256(salt + LOGIN.password)}`;
  return [
    "CREATE DATABASE ttrss CHARACTER SET utf8mb4; USE ttrss;",
    sql,
    `UPDATE ttrss_users SET pwd_hash = '${hash}', salt = '${salt}' WHERE login = 'admin';`,
    "",
  ].join("\n");
}

/** A fresh instance's folder: its code, configuration and a copy of the seeded database. */
function seed(dir: string): Promise<void> {
  return seedInstance(dir, {
    name: "tt-rss",
    seed: SEED,
    install: async (work) => installDatabase(work, await schema()),
    layOut,
  });
}

/**
 * A fresh instance on 127.0.0.1, ready once its login page answers.
 *
 * @example
 * ```ts
 * import { ttrssLaunch } from "./ttrss.ts";
 * if (!ttrssLaunch().command.join(" ").includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function ttrssLaunch(): Launch {
  // tt-rss refuses to run as root: as root, PHP runs as www-data (what Debian's web server uses).
  const asUser = asRoot ? "setpriv --reuid=www-data --regid=www-data --clear-groups " : "";
  const php = `${asUser}/usr/bin/php -d max_execution_time=120`;
  const feeds = `${php} -S 127.0.0.1:$(cat DIR/feeds/port) DIR/feeds/router.php >/dev/null 2>&1 &`;
  const app =
    `cd DIR/www && exec ${php} -d pdo_mysql.default_socket=DIR/db/mysqld.sock -S 127.0.0.1:PORT -t DIR/www`;
  return {
    command: ["sh", "-c", `${feeds} ${withMariadb("DIR", app)}`],
    env: { PHP_CLI_SERVER_WORKERS: "4", HOME: "DIR", TMPDIR: "DIR" },
    seed,
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/index.php",
  };
}
