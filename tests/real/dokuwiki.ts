/**
 * How the tests of tests/real/ start DokuWiki (Debian's `dokuwiki`
 * 2022-07-31a, PHP): a server-rendered wiki whose forms carry a CSRF token
 * (`sectok`) in a hidden input, that answers a form POST with a redirect
 * and keeps its session in cookies (PHP's session, `DW…` hashes,
 * `DOKU_PREFS`); its edit page locks the page and saves drafts through
 * `lib/exe/ajax.php`.
 *
 * Every start is a fresh instance run by PHP's own web server (`php -S`)
 * on the package's code as installed, with its configuration and data in
 * the instance's folder: a `prepend.php` names that configuration before
 * Debian's `preload.php` would name `/etc/dokuwiki`, `local.php` puts the
 * pages there, and `users.auth.php` holds one user (an admin) whose
 * password this file writes. Nothing is written outside the folder.
 *
 * @module
 */
import type { Launch } from "./servers.ts";
import { debianPackagesMissing } from "./debian.ts";

const CODE = "/usr/share/dokuwiki";

/** The user of a fresh instance and the password written for it. */
export const LOGIN = { username: "editor", password: "quiet-harbour-51" } as const;

/**
 * Why the DokuWiki tests cannot run here ("" when they can): no `dokuwiki`
 * or `php` and `apt-get install` could not put them there. With `CI` set
 * that is an error, like a failed install.
 *
 * @example
 * ```ts
 * import { dokuwikiMissing } from "./dokuwiki.ts";
 * if (typeof dokuwikiMissing() !== "string") throw new Error();
 * ```
 */
export function dokuwikiMissing(): string {
  return debianPackagesMissing({ "php-cli": "/usr/bin/php", dokuwiki: `${CODE}/doku.php` });
}

/** The hex SHA-1 of `text`: a password hash DokuWiki's plain auth accepts. */
async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The instance's own settings, over the package's defaults. */
function localConf(dir: string): string {
  return [
    "<?php",
    "$conf['title'] = 'Flowrun wiki';",
    "$conf['lang'] = 'en';",
    `$conf['savedir'] = '${dir}/data';`,
    "$conf['useacl'] = 1;",
    "$conf['superuser'] = '@admin';",
    "$conf['updatecheck'] = 0;",
    "$conf['dnslookups'] = 0;",
    "",
  ].join("\n");
}

/** Copies the package's configuration and seed data into `dir`, then writes its own. */
async function seed(dir: string): Promise<void> {
  const cp = (args: string[]) => new Deno.Command("cp", { args, stdout: "null" }).output();
  const conf = await cp(["-rL", "/etc/dokuwiki", `${dir}/conf`]);
  const data = await cp(["-r", "/var/lib/dokuwiki/data", `${dir}/data`]);
  if (!conf.success || !data.success) throw new Error(`could not copy DokuWiki's seed into ${dir}`);
  await Deno.writeTextFile(`${dir}/conf/local.php`, localConf(dir));
  const hash = await sha1(LOGIN.password);
  await Deno.writeTextFile(
    `${dir}/conf/users.auth.php`,
    `${LOGIN.username}:${hash}:Flow Editor:editor@example.org:admin,user\n`,
  );
  await Deno.writeTextFile(`${dir}/conf/acl.auth.php`, "*\t@ALL\t1\n*\t@user\t16\n");
  await Deno.writeTextFile(
    `${dir}/prepend.php`,
    `<?php\ndefine('DOKU_CONF', '${dir}/conf/');\ndefine('DOKU_MAIN_CONF', '${dir}/conf/');\n`,
  );
}

/**
 * A fresh instance on 127.0.0.1, ready once its start page answers.
 *
 * @example
 * ```ts
 * import { dokuwikiLaunch } from "./dokuwiki.ts";
 * if (!dokuwikiLaunch().command.includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function dokuwikiLaunch(): Launch {
  return {
    command: [
      "/usr/bin/php",
      "-d",
      "auto_prepend_file=DIR/prepend.php",
      "-S",
      "127.0.0.1:PORT",
      "-t",
      CODE,
    ],
    env: { PHP_CLI_SERVER_WORKERS: "2", HOME: "DIR", TMPDIR: "DIR" },
    seed,
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/doku.php?id=start",
  };
}
