/**
 * How the tests of tests/real/ start Cacti (Debian bookworm's `cacti`
 * 1.2.24, PHP 8.2, MariaDB) without its poller: the web console of a
 * network grapher (devices, graph trees, users, settings). Its pages load
 * their main part by XHR (`header=false`), and every form carries
 * CSRF-magic's `__csrf_magic` token (`sid:HASH,TIMESTAMP`), also sent as
 * `X-CSRF-Token` by its AJAX calls.
 *
 * - **Instance**: a folder holding `app/` (a copy of the package's site:
 *   Cacti finds `include/config.php` and its paths from the real path of its
 *   files, and the package links them to `/etc/cacti`, `/var/lib/cacti` and
 *   `/var/log/cacti`), `include/config.php` written here (the database on
 *   the folder's socket, URLs from the root, the CSRF secret in the
 *   folder), its own `cache/`, `log/` and `rra/`, the PHP sessions and a
 *   MariaDB data folder of its own (`db/`, tests/real/mariadb.ts). Nothing
 *   is written outside the folder.
 * - **Seed**: the package's own `cacti.sql`, then what Debian's postinst
 *   does after it (the admin's password, no forced change, the version
 *   filled in so the install wizard does not start, rrdtool's version),
 *   made once into the tests' cache.
 * - **Start**: a shell starts `mariadbd`, waits for its socket, then runs
 *   `php -S 127.0.0.1:PORT` on `app/`; ready once its login page answers.
 *
 * @module
 */
import { cacheRoot, type Launch } from "./servers.ts";
import { debianPackagesMissing } from "./debian.ts";
import { installDatabase, phpOnMariadb, reachable, runOrThrow, seedInstance } from "./mariadb.ts";

const SITE = "/usr/share/cacti/site";

/** The administrator of a fresh instance and the password written for it. */
export const LOGIN = { username: "admin", password: "Quiet-Harbour-51" } as const;

/**
 * Why the Cacti tests cannot run here ("" when they can): no `cacti`,
 * `php-cli`, PHP's MySQL driver or MariaDB and `apt-get install` could not
 * put them there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { cactiMissing } from "./cacti.ts";
 * if (typeof cactiMissing() !== "string") throw new Error();
 * ```
 */
export function cactiMissing(): string {
  return debianPackagesMissing({
    "php-cli": "/usr/bin/php",
    "php-mysql": "/usr/share/doc/php-mysql",
    "mariadb-server": "/usr/sbin/mariadbd",
    cacti: `${SITE}/auth_login.php`,
  });
}

/** The seeded MariaDB data folder every instance copies. */
const SEED = `${cacheRoot}/cacti-1.2.24-seed/db`;

/** The package's schema, then what Debian's postinst runs after loading it (rrdtool's version as the settings page names bookworm's). */
async function schema(): Promise<string> {
  const sql = await Deno.readTextFile("/usr/share/cacti/conf_templates/cacti.sql");
  const version = (await Deno.readTextFile(`${SITE}/include/cacti_version`)).trim();
  return [
    "CREATE DATABASE cacti CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci; USE cacti;",
    sql,
    `UPDATE user_auth SET password=md5('${LOGIN.password}'), must_change_password='' WHERE id=1;`,
    `UPDATE version SET cacti='${version}';`,
    "INSERT INTO settings SET name='rrdtool_version', value='1.7.2';",
    "",
  ].join("\n");
}

/** The instance's `include/config.php`: the package's template with the folder's values. */
async function config(dir: string): Promise<string> {
  const template = await Deno.readTextFile("/usr/share/cacti/conf_templates/debian.php.dist");
  const values: Record<string, string> = {
    _DBC_DBNAME_: "cacti",
    _DBC_DBSERVER_: `${dir}/db/mysqld.sock`,
    _DBC_DBUSER_: "root",
    _DBC_DBPASS_: "",
    _DBC_DBPORT_: "3306",
  };
  let text = template.replace(/_DBC_[A-Z]+_/g, (name) => values[name] ?? name);
  text = text.replace("$url_path = '/cacti/';", "$url_path = '/';");
  text = text.replace("/var/lib/cacti/csrf/secret.php", `${dir}/csrf/secret.php`);
  if (text.includes("/cacti/'") || !text.includes(`${dir}/csrf`)) {
    throw new Error("debian.php.dist no longer has the lines this instance replaces");
  }
  return text;
}

/** The site's copy; its links made absolute, those to the system's own folders the instance's. */
async function layOut(dir: string): Promise<void> {
  await reachable(dir);
  await runOrThrow(["cp", "-a", SITE, `${dir}/app`]);
  const listed = await new Deno.Command("find", {
    args: [SITE, "-type", "l", "-printf", "%P\n"],
    stdout: "piped",
  }).output();
  const own = ["cache", "log", "rra", "include/config.php", "CHANGELOG"];
  for (const link of new TextDecoder().decode(listed.stdout).split("\n").filter(Boolean)) {
    await Deno.remove(`${dir}/app/${link}`);
    if (own.includes(link)) continue;
    const target = await Deno.realPath(`${SITE}/${link}`).catch(() => "");
    if (target) await Deno.symlink(target, `${dir}/app/${link}`);
  }
  for (const sub of ["app/cache", "app/log", "app/rra", "csrf", "sessions"]) {
    await Deno.mkdir(`${dir}/${sub}`);
  }
  await Deno.writeTextFile(`${dir}/app/log/cacti.log`, "");
  await Deno.writeTextFile(`${dir}/app/include/config.php`, await config(dir));
}

/** A fresh instance's folder: the site's copy and a copy of the seeded database. */
function seed(dir: string): Promise<void> {
  return seedInstance(dir, {
    name: "cacti",
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
 * import { cactiLaunch } from "./cacti.ts";
 * if (!cactiLaunch().command.join(" ").includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function cactiLaunch(): Launch {
  return phpOnMariadb(seed, ["session.save_path=DIR/sessions"], "app", "/index.php");
}
