/**
 * How the tests of tests/real/ start Zabbix's web frontend (Debian
 * bookworm's `zabbix-frontend-php` 6.0.14, PHP 8.2, MariaDB) without the
 * Zabbix server daemon (its pages say it is not running): the console of a
 * network monitor (host groups, hosts and their items, users). Every form
 * carries a `_csrf_token` of its own, the session is the `zbx_session`
 * cookie, and its lists and dialogs call `zabbix.php?action=…` and
 * `jsrpc.php` by XHR.
 *
 * - **Instance**: a folder holding `app/` (a copy of the package's site: its
 *   `CConfigFile` reads `/etc/zabbix/zabbix.conf.php`, a path Debian wrote
 *   into the class, so the copy's names the folder's `zabbix.conf.php`
 *   instead), `zabbix.conf.php` written here from the package's example
 *   (its `localhost` is mysqli's default socket, which the launch line sets
 *   to the folder's), the PHP sessions and a MariaDB
 *   data folder of its own (`db/`, tests/real/mariadb.ts). Nothing is
 *   written outside the folder.
 * - **Seed**: the schema, images and data Debian's `zabbix-server-mysql`
 *   ships, then the administrator's password set to one written here, made
 *   once into the tests' cache.
 * - **Start**: a shell starts `mariadbd`, waits for its socket, then runs
 *   `php -S 127.0.0.1:PORT` on `app/`; ready once its login page answers.
 *
 * @module
 */
import { cacheRoot, type Launch } from "./servers.ts";
import { debianPackagesMissing } from "./debian.ts";
import { installDatabase, phpOnMariadb, reachable, runOrThrow, seedInstance } from "./mariadb.ts";

const SITE = "/usr/share/zabbix";
const SQL = "/usr/share/zabbix-server-mysql";
const DEBIAN_CONFIG = "/etc/zabbix/zabbix.conf.php";

/** The administrator of a fresh instance and the password written for it. */
export const LOGIN = { username: "Admin", password: "Quiet-Lantern-73" } as const;

/**
 * Why the Zabbix tests cannot run here ("" when they can): no frontend,
 * schema, `php-cli`, PHP's MySQL driver or MariaDB and `apt-get install`
 * could not put them there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { zabbixMissing } from "./zabbix.ts";
 * if (typeof zabbixMissing() !== "string") throw new Error();
 * ```
 */
export function zabbixMissing(): string {
  return debianPackagesMissing({
    "php-cli": "/usr/bin/php",
    "php-mysql": "/usr/share/doc/php-mysql",
    "mariadb-server": "/usr/sbin/mariadbd",
    "zabbix-frontend-php": `${SITE}/index.php`,
    "zabbix-server-mysql": `${SQL}/schema.sql.gz`,
  });
}

/** The seeded MariaDB data folder every instance copies. */
const SEED = `${cacheRoot}/zabbix-6.0.14-seed/db`;

/** The text of a gzipped SQL file of the package. */
async function gunzip(name: string): Promise<string> {
  const out = await new Deno.Command("gzip", { args: ["-dc", `${SQL}/${name}`], stdout: "piped" })
    .output();
  if (!out.success) throw new Error(`gzip -dc ${SQL}/${name} failed`);
  return new TextDecoder().decode(out.stdout);
}

/** The administrator's password hashed as the frontend checks it (bcrypt, PHP's own). */
async function hashed(password: string): Promise<string> {
  const out = await new Deno.Command("/usr/bin/php", {
    args: ["-r", "echo password_hash($argv[1], PASSWORD_BCRYPT);", password],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

/** The package's schema, images and data, then the administrator's password. */
async function schema(): Promise<string> {
  return [
    "CREATE DATABASE zabbix CHARACTER SET utf8mb4 COLLATE utf8mb4_bin; USE zabbix;",
    await gunzip("schema.sql.gz"),
    await gunzip("images.sql.gz"),
    await gunzip("data.sql.gz"),
    `UPDATE users SET passwd='${await hashed(LOGIN.password)}' WHERE username='${LOGIN.username}';`,
    "",
  ].join("\n");
}

/** The instance's `zabbix.conf.php`: the package's example, the database's root its user. */
async function config(): Promise<string> {
  const example = await Deno.readTextFile(`${SITE}/conf/zabbix.conf.php.example`);
  // 'localhost' is a unix socket to mysqli, and the launch line names the folder's.
  const text = example.replace(/\$DB\['USER'\]\s*= 'zabbix';/, "$DB['USER'] = 'root';");
  if (!text.includes("'root'") || !/\$DB\['SERVER'\]\s*= 'localhost';/.test(text)) {
    throw new Error("zabbix.conf.php.example no longer has the lines this instance replaces");
  }
  return text;
}

/** The site's copy, its configuration file the folder's. */
async function layOut(dir: string): Promise<void> {
  await reachable(dir);
  await runOrThrow(["cp", "-a", SITE, `${dir}/app`]);
  const classFile = `${dir}/app/include/classes/core/CConfigFile.php`;
  const source = await Deno.readTextFile(classFile);
  if (!source.includes(`'${DEBIAN_CONFIG}'`)) {
    throw new Error(`CConfigFile.php no longer names ${DEBIAN_CONFIG}`);
  }
  await Deno.writeTextFile(classFile, source.replace(DEBIAN_CONFIG, `${dir}/zabbix.conf.php`));
  await Deno.mkdir(`${dir}/sessions`);
  await Deno.writeTextFile(`${dir}/zabbix.conf.php`, await config());
}

/** A fresh instance's folder: the site's copy and a copy of the seeded database. */
function seed(dir: string): Promise<void> {
  return seedInstance(dir, {
    name: "zabbix",
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
 * import { zabbixLaunch } from "./zabbix.ts";
 * if (!zabbixLaunch().command.join(" ").includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function zabbixLaunch(): Launch {
  const flags = [
    "session.save_path=DIR/sessions",
    "mysqli.default_socket=DIR/db/mysqld.sock",
    "date.timezone=UTC",
    "memory_limit=256M",
  ];
  return phpOnMariadb(seed, flags, "app", "/index.php");
}
