/**
 * How the tests of tests/real/ start phpMyAdmin 5.2 from Debian bookworm
 * (`phpmyadmin`, PHP 8.2, MariaDB 10.11): a login form (cookie auth) whose
 * page hands out a `token` in a hidden input, sent back in nearly every URL,
 * form and XHR after it; a session cookie, per-server cookies
 * (`pmaUser-1`, `pmaAuth-1`) and AJAX answers in JSON that hold HTML.
 *
 * - **Instance**: a folder holding a MariaDB data folder of its own (`db/`,
 *   tests/real/mariadb.ts) and `pma/`: links to each entry of the package's
 *   `/usr/share/phpmyadmin` but `libraries/`, which is a folder of links to
 *   the package's but its `vendor_config.php`: the package's own, naming
 *   the instance's `config.inc.php` (cookie auth, a new `blowfish_secret`,
 *   the instance's socket, no version check) and temporary folder instead
 *   of `/etc/phpmyadmin` and `/var/lib/phpmyadmin`. A `prepend.php` names
 *   `pma/` as its `ROOT_PATH`, so that file is read; sessions are kept in
 *   the folder. Nothing is written outside it.
 * - **Seed**: `mariadb-install-db` and the user {@linkcode LOGIN} (all
 *   privileges) are made once into a data folder kept in the tests' cache;
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

const CODE = "/usr/share/phpmyadmin";

/** The MariaDB user a fresh instance has, and its password (what the user types at the login). */
export const LOGIN = { username: "keeper", password: "amber-lantern-62" } as const;

/** The seeded MariaDB data folder every instance copies. */
const SEED = `${cacheRoot}/phpmyadmin-5.2-seed/db`;

/**
 * Why the phpMyAdmin tests cannot run here ("" when they can): no
 * phpMyAdmin, MariaDB or PHP's MySQL driver, and `apt-get install` could
 * not put them there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { phpmyadminMissing } from "./phpmyadmin.ts";
 * if (typeof phpmyadminMissing() !== "string") throw new Error();
 * ```
 */
export function phpmyadminMissing(): string {
  return debianPackagesMissing({
    "php-cli": "/usr/bin/php",
    "php-mysql": "/usr/share/doc/php-mysql",
    "mariadb-server": "/usr/sbin/mariadbd",
    phpmyadmin: `${CODE}/libraries/vendor_config.php`,
  });
}

/** The instance's configuration: cookie auth on its own socket, nothing fetched from outside. */
function config(dir: string): string {
  const secret = [...crypto.getRandomValues(new Uint8Array(16))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  return [
    "<?php",
    `$cfg['blowfish_secret'] = '${secret}';`,
    "$cfg['Servers'][1]['auth_type'] = 'cookie';",
    "$cfg['Servers'][1]['host'] = 'localhost';",
    `$cfg['Servers'][1]['socket'] = '${dir}/db/mysqld.sock';`,
    `$cfg['TempDir'] = '${dir}/tmp';`,
    "$cfg['VersionCheck'] = false;",
    "$cfg['SendErrorReports'] = 'never';",
    "",
  ].join("\n");
}

/** The package's `vendor_config.php`, its configuration file and temporary folder the instance's. */
async function vendorConfig(dir: string): Promise<string> {
  const text = await Deno.readTextFile(`${CODE}/libraries/vendor_config.php`);
  return text
    .replace(/'configFile' => [^,]+,/, `'configFile' => '${dir}/config.inc.php',`)
    .replace(/'tempDir' => [^,]+,/, `'tempDir' => '${dir}/tmp/',`);
}

/** Links each entry of `from` into `to`, but those `but` names. */
async function linkEntries(from: string, to: string, but: string[]): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (!but.includes(entry.name)) {
      await Deno.symlink(`${from}/${entry.name}`, `${to}/${entry.name}`);
    }
  }
}

/** Lays out the code and configuration of an instance in `dir` (all but its database). */
async function layOut(dir: string): Promise<void> {
  await reachable(dir);
  await linkEntries(CODE, `${dir}/pma`, ["libraries", "config.inc.php"]);
  await linkEntries(`${CODE}/libraries`, `${dir}/pma/libraries`, ["vendor_config.php"]);
  await Deno.writeTextFile(`${dir}/pma/libraries/vendor_config.php`, await vendorConfig(dir));
  await Deno.writeTextFile(`${dir}/config.inc.php`, config(dir));
  await Deno.writeTextFile(`${dir}/prepend.php`, `<?php\ndefine('ROOT_PATH', '${dir}/pma/');\n`);
  for (const sub of ["tmp", "sessions"]) await Deno.mkdir(`${dir}/${sub}`);
}

const USER = `CREATE USER '${LOGIN.username}'@'localhost' IDENTIFIED BY '${LOGIN.password}';
GRANT ALL PRIVILEGES ON *.* TO '${LOGIN.username}'@'localhost' WITH GRANT OPTION;`;

/** A fresh instance's folder: its code, configuration and a copy of the seeded database. */
function seed(dir: string): Promise<void> {
  return seedInstance(dir, {
    name: "phpmyadmin",
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
 * import { phpmyadminLaunch } from "./phpmyadmin.ts";
 * if (!phpmyadminLaunch().command.join(" ").includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function phpmyadminLaunch(): Launch {
  const flags = ["auto_prepend_file=DIR/prepend.php", "session.save_path=DIR/sessions"];
  return phpOnMariadb(seed, flags, "pma", "/index.php");
}
