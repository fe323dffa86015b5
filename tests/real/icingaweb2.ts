/**
 * How the tests of tests/real/ start Icinga Web 2 (Debian bookworm's
 * `icingaweb2` 2.11, PHP 8.2) without an Icinga 2 core: only its own
 * configuration pages (users, groups, roles, dashboards, preferences). Its
 * UI loads each container by XHR (`X-Requested-With`, `X-Icinga-Container`,
 * `X-Icinga-WindowId`), answered with HTML fragments and redirects told in
 * `X-Icinga-Redirect`; every form carries a `CSRFToken` its page computed.
 *
 * - **Instance**: a folder holding `etc/` (the configuration the package
 *   reads from `/etc/icingaweb2`, named by `ICINGAWEB_CONFIGDIR`: a MariaDB
 *   resource for users, groups and preferences, dashboards in ini files,
 *   one role giving {@linkcode LOGIN} every permission), `var/`
 *   (`ICINGAWEB_STORAGEDIR`), the PHP sessions and a MariaDB data folder of
 *   its own (`db/`, on a unix socket there, no TCP: tests/real/mariadb.ts).
 *   Nothing is written outside the folder. (SQLite, which the resource
 *   allows, does not do: the user and group backends call `UNIX_TIMESTAMP`.)
 * - **Seed**: MariaDB's system tables, the package's own schema and the
 *   admin (a `password_hash` PHP makes), made once into the tests' cache.
 * - **Start**: a shell starts `mariadbd`, waits for its socket, then runs
 *   `php -S 127.0.0.1:PORT` with the package's `public/index.php` as router;
 *   ready once it serves its icon.
 *
 * @module
 */
import { cacheRoot, type Launch } from "./servers.ts";
import { debianPackagesMissing } from "./debian.ts";
import { installDatabase, reachable, seedInstance, withMariadb } from "./mariadb.ts";

const PUBLIC = "/usr/share/icingaweb2/public";
const SCHEMA = "/usr/share/icingaweb2/schema";

/** The administrator of a fresh instance and the password written for it. */
export const LOGIN = { username: "keeper", password: "quiet-harbour-51" } as const;

/**
 * Why the Icinga Web 2 tests cannot run here ("" when they can): no
 * `icingaweb2`, `php-cli`, PHP's MySQL driver or MariaDB and `apt-get install` could
 * not put them there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { icingaweb2Missing } from "./icingaweb2.ts";
 * if (typeof icingaweb2Missing() !== "string") throw new Error();
 * ```
 */
export function icingaweb2Missing(): string {
  return debianPackagesMissing({
    "php-cli": "/usr/bin/php",
    "php-mysql": "/usr/share/doc/php-mysql",
    "mariadb-server": "/usr/sbin/mariadbd",
    icingaweb2: `${PUBLIC}/index.php`,
  });
}

/** The seeded MariaDB data folder every instance copies. */
const SEED = `${cacheRoot}/icingaweb2-2.11-seed/db`;

/** `password_hash()` of the admin's password, made by PHP as Icinga Web 2 checks it. */
async function adminHash(): Promise<string> {
  const out = await new Deno.Command("/usr/bin/php", {
    args: ["-r", `echo password_hash('${LOGIN.password}', PASSWORD_DEFAULT);`],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout);
}

/** The package's own schema, then the admin, as its setup wizard makes them. */
async function schema(): Promise<string> {
  const sql = await Deno.readTextFile(`${SCHEMA}/mysql.schema.sql`);
  return [
    "CREATE DATABASE icingaweb2 CHARACTER SET utf8mb4; USE icingaweb2;",
    sql,
    "INSERT INTO icingaweb_user (name, active, password_hash, ctime)",
    `  VALUES ('${LOGIN.username}', 1, '${await adminHash()}', NOW());`,
    "",
  ].join("\n");
}

/** The configuration files of `etc/`, as the package's setup wizard would write them. */
function configFiles(): Record<string, string> {
  const backend = `[icingaweb2]\nbackend = "db"\nresource = "icingaweb_db"\n`;
  return {
    "config.ini": [
      "[global]",
      'config_backend = "db"',
      'config_resource = "icingaweb_db"',
      'module_path = "/usr/share/icingaweb2/modules"',
      "[logging]",
      'log = "none"',
      "",
    ].join("\n"),
    "resources.ini": [
      "[icingaweb_db]",
      'type = "db"',
      'db = "mysql"',
      'host = "localhost"',
      'dbname = "icingaweb2"',
      'username = "root"',
      'password = ""',
      'charset = "utf8mb4"',
      "",
    ].join("\n"),
    "authentication.ini": backend,
    "groups.ini": backend,
    "roles.ini": `[Administrators]\nusers = "${LOGIN.username}"\npermissions = "*"\n`,
  };
}

/** Lays out the configuration and storage of an instance in `dir` (all but its database). */
async function layOut(dir: string): Promise<void> {
  await reachable(dir);
  for (const sub of ["etc", "var", "sessions"]) await Deno.mkdir(`${dir}/${sub}`);
  for (const [name, text] of Object.entries(configFiles())) {
    await Deno.writeTextFile(`${dir}/etc/${name}`, text);
  }
}

/** A fresh instance's folder: its configuration and a copy of the seeded database. */
function seed(dir: string): Promise<void> {
  return seedInstance(dir, {
    name: "icingaweb2",
    seed: SEED,
    install: async (work) => installDatabase(work, await schema()),
    layOut,
  });
}

/**
 * A fresh instance on 127.0.0.1, ready once it serves its icon.
 *
 * @example
 * ```ts
 * import { icingaweb2Launch } from "./icingaweb2.ts";
 * if (!icingaweb2Launch().command.some((arg) => arg.includes("127.0.0.1:PORT"))) throw new Error();
 * ```
 */
export function icingaweb2Launch(): Launch {
  return {
    command: [
      "sh",
      "-c",
      withMariadb(
        "DIR",
        `exec /usr/bin/php -d session.save_path=DIR/sessions -d pdo_mysql.default_socket=DIR/db/mysqld.sock -S 127.0.0.1:PORT -t ${PUBLIC} ${PUBLIC}/index.php`,
      ),
    ],
    env: {
      PHP_CLI_SERVER_WORKERS: "2",
      HOME: "DIR",
      TMPDIR: "DIR",
      ICINGAWEB_CONFIGDIR: "DIR/etc",
      ICINGAWEB_STORAGEDIR: "DIR/var",
    },
    seed,
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    // The login page first redirects to check cookies; a file it serves shows the server is up.
    probe: "/img/favicon.png",
  };
}
