/**
 * How the tests of tests/real/ start Shaarli (Debian bookworm's `shaarli`
 * 0.12.1, PHP, a flat-file datastore): a bookmarking app whose every form
 * carries a single-use `token` (the server forgets it once a request
 * spends it, and each page hands out a new one), whose links to actions
 * (pin, delete, log out) carry one in their query, and whose session is
 * PHP's `shaarli` cookie plus a `shaarli_staySignedIn` cookie.
 *
 * - **Instance**: a folder holding `www/` (links to the package's code,
 *   but its own `index.php`: the package's names its configuration
 *   `/var/lib/shaarli/data/config` in the code, this copy names the
 *   folder's), `data/config.json.php` (one admin, {@linkcode LOGIN}, whose
 *   salted hash this file writes; every resource path in the folder; no
 *   plugins, thumbnails, update checks or metadata fetched from the
 *   network), and the template cache, page cache and PHP sessions. Nothing
 *   is written outside the folder.
 * - **Start**: `php -S 127.0.0.1:PORT` on `www/`; ready once the start
 *   page answers.
 *
 * @module
 */
import type { Launch } from "./servers.ts";
import { debianPackagesMissing } from "./debian.ts";

const CODE = "/usr/share/shaarli";

/** The admin of a fresh instance and the password written for it. */
export const LOGIN = { username: "curator", password: "quiet-harbour-51" } as const;

/**
 * Why the Shaarli tests cannot run here ("" when they can): no `shaarli`
 * or `php` and `apt-get install` could not put them there. With `CI` set
 * that is an error.
 *
 * @example
 * ```ts
 * import { shaarliMissing } from "./shaarli.ts";
 * if (typeof shaarliMissing() !== "string") throw new Error();
 * ```
 */
export function shaarliMissing(): string {
  return debianPackagesMissing({ "php-cli": "/usr/bin/php", shaarli: `${CODE}/index.php` });
}

/** The hex SHA-1 of `text`: Shaarli's password hash is sha1(password . login . salt). */
async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The instance's configuration, as Shaarli's own install page would write it. */
async function config(dir: string): Promise<string> {
  const salt = "flowrun-instance-salt";
  const data = `${dir}/data`;
  const conf = {
    credentials: {
      login: LOGIN.username,
      hash: await sha1(`${LOGIN.password}${LOGIN.username}${salt}`),
      salt,
    },
    general: {
      title: "Flowrun links",
      timezone: "UTC",
      enabled_plugins: [],
      retrieve_description: false,
      enable_async_metadata: false,
    },
    resource: {
      data_dir: data,
      config: `${data}/config.php`,
      datastore: `${data}/datastore.php`,
      ban_file: `${data}/ipbans.php`,
      updates: `${data}/updates.txt`,
      log: `${data}/log.txt`,
      update_check: `${data}/lastupdatecheck.txt`,
      history: `${data}/history.php`,
      raintpl_tmp: `${dir}/tmp/`,
      thumbnails_cache: `${dir}/cache`,
      page_cache: `${dir}/pagecache`,
    },
    updates: { check_updates: false },
    thumbnails: { mode: "none" },
    api: { enabled: false, secret: "" },
  };
  return `<?php /*\n${JSON.stringify(conf, null, 2)}\n*/ ?>\n`;
}

/** The instance's folder: the code's links, its own `index.php`, the configuration. */
async function seed(dir: string): Promise<void> {
  for (const sub of ["www", "data", "tmp", "cache", "pagecache", "sessions"]) {
    await Deno.mkdir(`${dir}/${sub}`);
  }
  for await (const entry of Deno.readDir(CODE)) {
    if (entry.name === "index.php" || entry.name === "cache") continue;
    await Deno.symlink(`${CODE}/${entry.name}`, `${dir}/www/${entry.name}`);
  }
  await Deno.symlink(`${dir}/cache`, `${dir}/www/cache`);
  const index = await Deno.readTextFile(`${CODE}/index.php`);
  const own = index.replace("new ConfigManager()", `new ConfigManager('${dir}/data/config')`);
  if (own === index) throw new Error(`${CODE}/index.php no longer makes its ConfigManager as read`);
  await Deno.writeTextFile(`${dir}/www/index.php`, own);
  await Deno.writeTextFile(`${dir}/data/config.json.php`, await config(dir));
}

/**
 * A fresh instance on 127.0.0.1, ready once its start page answers.
 *
 * @example
 * ```ts
 * import { shaarliLaunch } from "./shaarli.ts";
 * if (!shaarliLaunch().command.includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function shaarliLaunch(): Launch {
  return {
    command: [
      "/usr/bin/php",
      "-d",
      "session.save_path=DIR/sessions",
      "-S",
      "127.0.0.1:PORT",
      "-t",
      "DIR/www",
    ],
    env: { PHP_CLI_SERVER_WORKERS: "2", HOME: "DIR", TMPDIR: "DIR/tmp" },
    seed,
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/",
  };
}
