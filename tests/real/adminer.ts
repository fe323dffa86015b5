/**
 * How the tests of tests/real/ start Adminer 4.8 from Debian bookworm
 * (`adminer`, one PHP application, PHP 8.2, MariaDB 10.11): a login form
 * posting `auth[driver]`, `auth[server]`, `auth[username]`, `auth[password]`
 * and `auth[db]`, a session cookie, and a CSRF `token` in a hidden input of
 * every form after it.
 *
 * - **Instance**: a folder holding a MariaDB data folder of its own (`db/`,
 *   tests/real/mariadb.ts) and `www/index.php`, which includes the package's
 *   `/etc/adminer/conf.php` (Adminer with its `version-noverify` plugin, so
 *   the page never asks adminer.org for a newer version). PHP's MySQL
 *   driver is pointed at the instance's socket (`mysqli.default_socket`), so
 *   the user logs in to server `localhost` and no path of this machine is
 *   typed or recorded. Sessions are kept in the folder.
 * - **Seed**: `mariadb-install-db`, an empty database {@linkcode DATABASE}
 *   and the user {@linkcode LOGIN} (all privileges) are made once into a data folder kept in the tests' cache;
 *   every instance starts from a copy of it.
 * - **Start**: MariaDB (its socket waited for), then
 *   `php -S 127.0.0.1:PORT` with two workers; ready once the login page
 *   answers.
 *
 * @module
 */
import { cacheRoot, type Launch } from "./servers.ts";
import { debianPackagesMissing } from "./debian.ts";
import { installDatabase, phpOnMariadb, reachable, seedInstance } from "./mariadb.ts";

/** The MariaDB user a fresh instance has, and its password (what the user types at the login). */
export const LOGIN = { username: "warden", password: "copper-heron-48" } as const;

/** The seeded MariaDB data folder every instance copies. */
const SEED = `${cacheRoot}/adminer-4.8-seed/db`;

/**
 * Why the Adminer tests cannot run here ("" when they can): no Adminer,
 * MariaDB or PHP's MySQL driver, and `apt-get install` could not put them
 * there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { adminerMissing } from "./adminer.ts";
 * if (typeof adminerMissing() !== "string") throw new Error();
 * ```
 */
export function adminerMissing(): string {
  return debianPackagesMissing({
    "php-cli": "/usr/bin/php",
    "php-mysql": "/usr/share/doc/php-mysql",
    "mariadb-server": "/usr/sbin/mariadbd",
    adminer: "/usr/share/adminer/adminer.php",
  });
}

/** Lays out the code of an instance in `dir` (all but its database). */
async function layOut(dir: string): Promise<void> {
  await reachable(dir);
  for (const sub of ["www", "sessions"]) await Deno.mkdir(`${dir}/${sub}`);
  await Deno.writeTextFile(`${dir}/www/index.php`, "<?php\ninclude '/etc/adminer/conf.php';\n");
}

/** The empty database the user works in (the journey makes and drops its table there). */
export const DATABASE = "ledger";

const USER = `CREATE DATABASE ${DATABASE};
CREATE USER '${LOGIN.username}'@'localhost' IDENTIFIED BY '${LOGIN.password}';
GRANT ALL PRIVILEGES ON *.* TO '${LOGIN.username}'@'localhost' WITH GRANT OPTION;`;

/** A fresh instance's folder: its code and a copy of the seeded database. */
function seed(dir: string): Promise<void> {
  return seedInstance(dir, {
    name: "adminer",
    seed: SEED,
    install: (work) => installDatabase(work, USER),
    layOut,
  });
}

/**
 * A fresh instance on 127.0.0.1, ready once its login page answers.
 *
 * @example
 * ```ts
 * import { adminerLaunch } from "./adminer.ts";
 * if (!adminerLaunch().command.join(" ").includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function adminerLaunch(): Launch {
  const flags = ["mysqli.default_socket=DIR/db/mysqld.sock", "session.save_path=DIR/sessions"];
  return phpOnMariadb(seed, flags, "www", "/index.php");
}
