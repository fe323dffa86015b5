/**
 * How the tests of tests/real/ start PostfixAdmin (Debian bookworm's
 * `postfixadmin` 3.3.13, PHP 8.2, SQLite): the web admin of a virtual mail
 * host (domains, mailboxes, aliases, domain admins), PHP forms whose every
 * page carries the session's CSRF `token` (a hidden input in each form, and
 * in the query of its delete and enable/disable links), its session in PHP's
 * `postfixadmin_session` cookie.
 *
 * - **Instance**: a folder holding `app/` (a copy of the package's code:
 *   the package resolves its configuration, its `templates_c` and its
 *   models from the real path of its files, so links would reach `/etc`
 *   and `/var/cache`), the package's `config.inc.php` with its Debian
 *   `dbconfig.inc.php` line replaced, a `config.local.php` written here
 *   (SQLite in the folder, no DNS check of the domains typed: no network
 *   here), the SQLite database and the PHP sessions. Nothing is written
 *   outside the folder.
 * - **Seed**: as a new user sets it up, on a first `php -S` of the folder:
 *   the setup page makes the setup password's hash (written into
 *   `config.local.php`), logging in there makes the tables, and its form
 *   makes the superadmin {@linkcode LOGIN}; then that server stops.
 * - **Start**: `php -S 127.0.0.1:PORT` on `app/public`; ready once the
 *   login page answers.
 *
 * @module
 */
import { freePort, type Launch } from "./servers.ts";
import { debianPackagesMissing } from "./debian.ts";

const CODE = "/usr/share/postfixadmin";

/** The superadmin of a fresh instance and the password its setup page was given. */
export const LOGIN = { username: "postmaster@example.org", password: "Quiet-Harbour-51" } as const;

/** The setup password the seed gives the setup page (only the seed uses it). */
const SETUP_PASSWORD = "setup-harbour-77";

/**
 * Why the PostfixAdmin tests cannot run here ("" when they can): no
 * `postfixadmin`, `php-cli` or PHP's SQLite driver and `apt-get install`
 * could not put them there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { postfixadminMissing } from "./postfixadmin.ts";
 * if (typeof postfixadminMissing() !== "string") throw new Error();
 * ```
 */
export function postfixadminMissing(): string {
  return debianPackagesMissing({
    "php-cli": "/usr/bin/php",
    "php-sqlite3": "/usr/share/doc/php-sqlite3",
    postfixadmin: `${CODE}/public/setup.php`,
  });
}

/** The PHP server of the instance in `dir` on `port`, the command {@linkcode postfixadminLaunch} runs. */
function php(dir: string, port: string): string[] {
  return [
    "/usr/bin/php",
    "-d",
    `session.save_path=${dir}/sessions`,
    "-S",
    `127.0.0.1:${port}`,
    "-t",
    `${dir}/app/public`,
  ];
}

/** The instance's own settings, beside the package's defaults. */
function localConfig(dir: string, setupHash: string): string {
  return [
    "<?php",
    "$CONF['configured'] = true;",
    "$CONF['database_type'] = 'sqlite';",
    `$CONF['database_name'] = '${dir}/postfixadmin.db';`,
    "$CONF['encrypt'] = 'php_crypt:SHA512';",
    // The domains typed are example names: no DNS here to find them in.
    "$CONF['emailcheck_resolve_domain'] = 'NO';",
    // Quotas shown, so a mailbox's quota can be edited.
    "$CONF['quota'] = 'YES';",
    `$CONF['setup_password'] = '${setupHash}';`,
    "",
  ].join("\n");
}

/** The code's copy, the package's configuration read from the folder, the empty database. */
async function layOut(dir: string): Promise<void> {
  const copy = await new Deno.Command("cp", { args: ["-r", CODE, `${dir}/app`] }).output();
  if (!copy.success) throw new Error(`cp -r ${CODE}: ${new TextDecoder().decode(copy.stderr)}`);
  for (const link of ["config.inc.php", "config.local.php", "templates_c"]) {
    await Deno.remove(`${dir}/app/${link}`);
  }
  for (const sub of ["app/templates_c", "sessions"]) await Deno.mkdir(`${dir}/${sub}`);
  const conf = await Deno.readTextFile("/etc/postfixadmin/config.inc.php");
  const line = "require_once('dbconfig.inc.php');";
  if (!conf.includes(line)) throw new Error(`config.inc.php no longer reads ${line}`);
  const own = conf.replace(line, "$dbtype = 'sqlite'; $dbuser = $dbpass = $dbname = '';");
  await Deno.writeTextFile(`${dir}/app/config.inc.php`, own);
  await Deno.writeTextFile(`${dir}/app/config.local.php`, localConfig(dir, "changeme"));
  await Deno.writeTextFile(`${dir}/postfixadmin.db`, "");
}

/** POSTs the setup page's form `fields`: its HTML. */
async function setupPage(origin: string, fields: Record<string, string>): Promise<string> {
  const res = await fetch(`${origin}/setup.php`, {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  return await res.text();
}

/** The setup page's three forms, as a new user fills them: the hash, the tables, the superadmin. */
async function setUp(dir: string, origin: string): Promise<void> {
  const page = await setupPage(origin, {
    form: "setuppw",
    setup_password: SETUP_PASSWORD,
    setup_password2: SETUP_PASSWORD,
    submit: "setuppw",
  });
  const hash = /\$CONF\['setup_password'\] = '([^']+)'/.exec(page)?.[1];
  if (!hash) throw new Error(`the setup page made no setup_password hash:\n${page.slice(-2000)}`);
  await Deno.writeTextFile(`${dir}/app/config.local.php`, localConfig(dir, hash));
  await setupPage(origin, { setup_password: SETUP_PASSWORD, submit: "login" });
  const done = await setupPage(origin, {
    setup_password: SETUP_PASSWORD,
    submit: "createadmin",
    username: LOGIN.username,
    password: LOGIN.password,
    password2: LOGIN.password,
  });
  if (!done.includes(`The admin ${LOGIN.username} has been added`)) {
    throw new Error(`the setup page did not add the superadmin:\n${done.slice(-3000)}`);
  }
}

/** A fresh instance's folder, set up through its setup page on a first server, stopped after. */
async function seed(dir: string): Promise<void> {
  await layOut(dir);
  const port = String(freePort());
  // `php -S` caches compiled files for 2 s (opcache): it would not see the hash just written.
  const [program, ...args] = [...php(dir, port), "-d", "opcache.enable=0"];
  const child = new Deno.Command(program, { args, stdout: "null", stderr: "null" }).spawn();
  try {
    const origin = `http://127.0.0.1:${port}`;
    let up = false;
    for (let poll = 0; poll < 300 && !up; poll++) {
      // Its login page fails until the setup page has made the tables.
      up = await fetch(`${origin}/setup.php`).then(async (r) => {
        await r.body?.cancel();
        return r.ok;
      }, () => false);
      if (!up) await new Promise((r) => setTimeout(r, 100));
    }
    if (!up) throw new Error("PostfixAdmin's first server did not answer within 30 s");
    await setUp(dir, origin);
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

/**
 * A fresh instance on 127.0.0.1, ready once its login page answers.
 *
 * @example
 * ```ts
 * import { postfixadminLaunch } from "./postfixadmin.ts";
 * if (!postfixadminLaunch().command.includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function postfixadminLaunch(): Launch {
  return {
    command: php("DIR", "PORT"),
    env: { PHP_CLI_SERVER_WORKERS: "2", HOME: "DIR", TMPDIR: "DIR" },
    seed,
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/login.php",
  };
}
