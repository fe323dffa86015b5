/**
 * How the tests of tests/real/ start WordPress 6.1 from Debian bookworm
 * (`wordpress` with `wordpress-theme-twentytwentythree`, PHP 8.2, MariaDB
 * 10.11): a login form (`wp-login.php`, a test cookie, a redirect), an admin
 * whose block editor talks REST with a nonce the page hands out inside inline
 * JavaScript, admin-ajax nonces in hidden inputs and links, server-made post
 * ids, autosaves and heartbeats.
 *
 * - **Instance**: a folder holding a MariaDB data folder of its own (`db/`,
 *   served on a unix socket there, no TCP: tests/real/mariadb.ts), and `wp/`: links to each entry
 *   of the package's `/usr/share/wordpress` but its `wp-config.php` (which
 *   reads `/etc/wordpress`), the instance's own `wp-config.php`, and a
 *   `wp-content/` of its own (the package's themes and plugins linked,
 *   uploads in the folder). A `prepend.php` names `wp/` as WordPress's
 *   `ABSPATH`, so its own `wp-config.php` is read; its home is the host the
 *   request names (any port), its salts are new for each instance (so are
 *   its nonces), outgoing HTTP is blocked and WP-Cron is off (nothing runs
 *   but what the journey asks). Nothing is written outside the folder.
 * - **Seed**: `mariadb-install-db` and WordPress's own `wp_install` (the
 *   site, the administrator {@linkcode LOGIN}) are made once into a data
 *   folder kept in the tests' cache (a few seconds); every instance starts
 *   from a copy of it.
 * - **Start**: a shell in the instance's process group starts `mariadbd`
 *   (as the `mysql` user when the tests run as root), waits for its socket
 *   (at most 20 s), then runs `php -S 127.0.0.1:PORT` with two workers;
 *   ready once `wp-login.php` answers.
 *
 * @module
 */
import { cacheRoot, type Launch } from "./servers.ts";
import {
  installDatabase,
  phpOnMariadb,
  reachable,
  runOrThrow as run,
  seedInstance,
} from "./mariadb.ts";
import { debianPackagesMissing } from "./debian.ts";

const CODE = "/usr/share/wordpress";

/** The administrator of a fresh instance and the password the seed gives it. */
export const LOGIN = { username: "editor", password: "quiet-harbour-51" } as const;

/** The seeded MariaDB data folder every instance copies. */
const SEED = `${cacheRoot}/wordpress-6.1-seed/db`;

/**
 * Why the WordPress tests cannot run here ("" when they can): no WordPress,
 * its theme, MariaDB or PHP's MySQL driver, and `apt-get install` could not
 * put them there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { wordpressMissing } from "./wordpress.ts";
 * if (typeof wordpressMissing() !== "string") throw new Error();
 * ```
 */
export function wordpressMissing(): string {
  return debianPackagesMissing({
    "php-cli": "/usr/bin/php",
    "php-mysql": "/usr/share/doc/php-mysql",
    "mariadb-server": "/usr/sbin/mariadbd",
    wordpress: `${CODE}/wp-login.php`,
    "wordpress-theme-twentytwentythree": `${CODE}/wp-content/themes/twentytwentythree`,
  });
}

/** The instance's own configuration: its database, salts, and nothing run unasked. */
function wpConfig(dir: string): string {
  const salt = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  const salts = ["AUTH", "SECURE_AUTH", "LOGGED_IN", "NONCE"].flatMap((k) => [
    `define('${k}_KEY', '${salt()}');`,
    `define('${k}_SALT', '${salt()}');`,
  ]);
  return [
    "<?php",
    "define('DB_NAME', 'wordpress');",
    "define('DB_USER', 'root');",
    "define('DB_PASSWORD', '');",
    `define('DB_HOST', 'localhost:${dir}/db/mysqld.sock');`,
    "define('WP_HOME', 'http://' . ($_SERVER['HTTP_HOST'] ?? '127.0.0.1'));",
    "define('WP_SITEURL', WP_HOME);",
    `define('WP_CONTENT_DIR', '${dir}/wp/wp-content');`,
    "define('WP_HTTP_BLOCK_EXTERNAL', true);",
    "define('DISABLE_WP_CRON', true);",
    "define('AUTOMATIC_UPDATER_DISABLED', true);",
    "define('WP_AUTO_UPDATE_CORE', false);",
    ...salts,
    "$table_prefix = 'wp_';",
    "require_once ABSPATH . 'wp-settings.php';",
    "",
  ].join("\n");
}

/** Lays out the code and configuration of an instance in `dir` (all but its database). */
async function layOut(dir: string): Promise<void> {
  await reachable(dir);
  await Deno.mkdir(`${dir}/wp/wp-content/uploads`, { recursive: true });
  for await (const entry of Deno.readDir(CODE)) {
    if (["wp-config.php", "wp-content", ".htaccess"].includes(entry.name)) continue;
    await Deno.symlink(`${CODE}/${entry.name}`, `${dir}/wp/${entry.name}`);
  }
  for (const sub of ["themes", "plugins"]) {
    await Deno.symlink(`${CODE}/wp-content/${sub}`, `${dir}/wp/wp-content/${sub}`);
  }
  await Deno.writeTextFile(`${dir}/wp/wp-config.php`, wpConfig(dir));
  await Deno.writeTextFile(`${dir}/prepend.php`, `<?php\ndefine('ABSPATH', '${dir}/wp/');\n`);
}

const INSTALL = `<?php
$_SERVER['HTTP_HOST'] = '127.0.0.1';
define('WP_INSTALLING', true);
require_once ABSPATH . 'wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
wp_install('Flowrun site', ${JSON.stringify(LOGIN.username)}, 'editor@example.org', true, '',
  ${JSON.stringify(LOGIN.password)});
`;

/** Makes the seeded data folder in `work/db`: MariaDB's system tables, then WordPress installed. */
async function install(work: string): Promise<void> {
  await layOut(work);
  await installDatabase(work, "CREATE DATABASE wordpress;", async () => {
    await Deno.writeTextFile(`${work}/install.php`, INSTALL);
    await run([
      "/usr/bin/php",
      "-d",
      `auto_prepend_file=${work}/prepend.php`,
      `${work}/install.php`,
    ]);
  });
}

/** A fresh instance's folder: its code, configuration and a copy of the seeded database. */
function seed(dir: string): Promise<void> {
  return seedInstance(dir, { name: "wordpress", seed: SEED, install: install, layOut });
}

/**
 * A fresh instance on 127.0.0.1, ready once its login page answers.
 *
 * @example
 * ```ts
 * import { wordpressLaunch } from "./wordpress.ts";
 * if (!wordpressLaunch().command.join(" ").includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function wordpressLaunch(): Launch {
  return phpOnMariadb(seed, ["auto_prepend_file=DIR/prepend.php"], "wp", "/wp-login.php");
}
