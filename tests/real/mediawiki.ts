/**
 * How the tests of tests/real/ start MediaWiki 1.39 from Debian bookworm
 * (`mediawiki`, PHP 8.2 with SQLite): a login form with a hidden
 * `wpLoginToken`, edit forms whose `wpEditToken` ends in `+\`, tokens handed
 * out by `api.php?action=query&meta=tokens`, session cookies named for the
 * wiki's database, a redirect after each save, and page and revision ids
 * (`oldid`, `wpEditTime`, `wpStarttime`, `baseRevId`) the next forms send back.
 *
 * - **Instance**: a folder holding `w/` (links to each entry of the
 *   package's `/usr/share/mediawiki` but its `LocalSettings.php` and
 *   `images`, which lead to `/etc/mediawiki` and `/var/lib/mediawiki`), its
 *   own `images/`, `cache/`, the SQLite database in `data/` and its own
 *   `LocalSettings.php`, named to MediaWiki by `MW_CONFIG_FILE`. Its server
 *   is the host the request names (any port) and its secret key is new for
 *   each instance. Nothing is written outside the folder.
 * - **Seed**: MediaWiki's own CLI installer (`maintenance/install.php`,
 *   SQLite, the administrator {@linkcode LOGIN}) runs once into the tests'
 *   cache; every instance starts from a copy of its database and settings.
 * - **Start**: `php -S 127.0.0.1:PORT` on `w/` with two workers; ready once
 *   the main page answers.
 *
 * @module
 */
import { cacheRoot, type Launch } from "./servers.ts";
import { seedOnce } from "./seed_once.ts";
import { runOrThrow as run } from "./mariadb.ts";
import { debianPackagesMissing } from "./debian.ts";

const CODE = "/usr/share/mediawiki";

/** The administrator of a fresh instance and the password the seed gives it. */
export const LOGIN = { username: "Editor", password: "quiet-harbour-51" } as const;

/** The seeded folder (`data/` and `LocalSettings.php`) every instance copies. */
const SEED = `${cacheRoot}/mediawiki-1.39-seed/site`;

/** Where the seed was installed: its settings name this folder, replaced by each instance's. */
const SEEDED_AT = "/flowrun-mediawiki-seed";

/**
 * Why the MediaWiki tests cannot run here ("" when they can): no MediaWiki,
 * PHP or one of the PHP extensions it needs, and `apt-get install` could not
 * put them there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { mediawikiMissing } from "./mediawiki.ts";
 * if (typeof mediawikiMissing() !== "string") throw new Error();
 * ```
 */
export function mediawikiMissing(): string {
  return debianPackagesMissing({
    "php-cli": "/usr/bin/php",
    "php-sqlite3": "/usr/share/doc/php-sqlite3",
    "php-intl": "/usr/share/doc/php-intl",
    "php-mbstring": "/usr/share/doc/php-mbstring",
    "php-xml": "/usr/share/doc/php-xml",
    mediawiki: `${CODE}/maintenance/install.php`,
  });
}

/** Links the package's code into `dir/w`, all but what leads outside the folder. */
async function layOut(dir: string): Promise<void> {
  await Deno.mkdir(`${dir}/w/images`, { recursive: true });
  await Deno.mkdir(`${dir}/cache`, { recursive: true });
  for await (const entry of Deno.readDir(CODE)) {
    if (["LocalSettings.php", "images"].includes(entry.name)) continue;
    await Deno.symlink(`${CODE}/${entry.name}`, `${dir}/w/${entry.name}`);
  }
}

/** What each instance adds to the installer's settings: its host, its key, quiet jobs. */
function overrides(): string {
  const key = [...crypto.getRandomValues(new Uint8Array(32))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  return [
    "",
    "$wgServer = WebRequest::detectServer();",
    `$wgSecretKey = '${key}';`,
    "$wgUploadDirectory = __DIR__ . '/w/images';",
    "$wgCacheDirectory = __DIR__ . '/cache';",
    "$wgEnableUploads = false;",
    "$wgJobRunRate = 0;",
    "$wgPingback = false;",
    "",
  ].join("\n");
}

/** Runs MediaWiki's CLI installer in `work`: SQLite in `work/data`, settings in `work`. */
async function install(work: string): Promise<void> {
  await layOut(work);
  await run([
    "/usr/bin/php",
    `${CODE}/maintenance/install.php`,
    "--dbtype=sqlite",
    `--dbpath=${work}/data`,
    "--dbname=flowrun_wiki",
    "--server=http://127.0.0.1",
    "--scriptpath=",
    "--lang=en",
    `--pass=${LOGIN.password}`,
    `--confpath=${work}`,
    "Flowrun wiki",
    LOGIN.username,
  ], { MW_CONFIG_FILE: `${work}/LocalSettings.php`, HOME: work, TMPDIR: work });
}

/** Makes the seeded folder in the cache unless it is there; a lock makes parallel files wait. */
async function seedSite(): Promise<void> {
  await seedOnce({ name: "mediawiki", seed: SEED, staleMs: 180_000 }, async (work, part) => {
    await install(work);
    await Deno.mkdir(part);
    await run(["cp", "-a", `${work}/data`, `${part}/data`]);
    const settings = await Deno.readTextFile(`${work}/LocalSettings.php`);
    await Deno.writeTextFile(`${part}/LocalSettings.php`, settings.replaceAll(work, SEEDED_AT));
  });
}

/** A fresh instance's folder: its code, a copy of the seeded database, its own settings. */
async function seed(dir: string): Promise<void> {
  await seedSite();
  await layOut(dir);
  await run(["cp", "-a", `${SEED}/data`, `${dir}/data`]);
  const settings = await Deno.readTextFile(`${SEED}/LocalSettings.php`);
  await Deno.writeTextFile(
    `${dir}/LocalSettings.php`,
    settings.replaceAll(SEEDED_AT, dir) + overrides(),
  );
}

/**
 * A fresh instance on 127.0.0.1, ready once its main page answers.
 *
 * @example
 * ```ts
 * import { mediawikiLaunch } from "./mediawiki.ts";
 * if (!mediawikiLaunch().command.includes("127.0.0.1:PORT")) throw new Error();
 * ```
 */
export function mediawikiLaunch(): Launch {
  return {
    command: ["/usr/bin/php", "-S", "127.0.0.1:PORT", "-t", "DIR/w"],
    env: {
      PHP_CLI_SERVER_WORKERS: "2",
      MW_CONFIG_FILE: "DIR/LocalSettings.php",
      HOME: "DIR",
      TMPDIR: "DIR",
    },
    seed,
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/index.php?title=Main_Page",
  };
}
