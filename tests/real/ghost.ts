/**
 * How the tests of tests/real/ install and start Ghost 5, the publishing
 * platform (npm `ghost`, pinned to the newest 5.x whose `engines` take Node
 * 20; 6.x asks for Node 22): an Ember single-page admin at `/ghost/` over a
 * JSON Admin API at `/ghost/api/admin/`, signed in with a session cookie.
 *
 * - **Install**: `ghost` names one of its own dependencies as a file inside
 *   its package (`file:components/…tgz`), so it cannot be a dependency of
 *   another manifest as {@linkcode install} makes them; it is installed as
 *   Ghost-CLI does: the package unpacked into the tests' cache
 *   (`npm pack`), then `npm install --omit=dev` inside it, its development
 *   dependencies taken out of the manifest first (one is a GitHub tarball)
 *   (`--legacy-peer-deps`: bookshelf's peer range for knex is older than
 *   the knex Ghost pins, which Ghost's own yarn install accepts). Of the
 *   two native addons it would build, `re2` is replaced by an empty package
 *   (never loaded usefully: see `GHOST_OVERRIDES`) and SQLite (`sqlite3`),
 *   which every request needs, is built from source by
 *   node-gyp with Node's headers (`npm_config_nodedir=/usr`): its binaries
 *   are on GitHub, which the tests do not reach, and no npm package ships
 *   one that loads as `sqlite3` (`@appthreat/sqlite3`'s prebuilds come with
 *   an ES module whose namespace lacks the `OPEN_*` flags knex reads).
 *   That build is two of the cold install's four or five minutes. Bounded
 *   by a 15-minute kill; a marker written last makes the next run take the
 *   cache at once, in a folder named for the recipe.
 * - **Start**: `NODE_ENV=production` on SQLite in the instance's folder,
 *   `url` its own origin, the content folder a copy of the package's (the
 *   Casper theme), mail a stub transport (nothing is sent), no update
 *   check, no staff device verification (a sign-in from a new browser
 *   would otherwise wait for a code sent by mail). The first start makes
 *   the schema (about 15–30 s here); the owner is made by the setup API
 *   ({@linkcode setUp}), as the setup screen does.
 *
 * @module
 */
import { exists } from "../support/fs.ts";
import {
  awaitLock,
  cacheRoot,
  type Instance,
  type Launch,
  type Prepared,
  start,
} from "./servers.ts";

/** Ghost's version the tests pin. */
export const GHOST_VERSION = "5.130.4";

/** The owner the tests make on each fresh instance (what the setup screen asks). */
export const OWNER = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  password: "Quiet-lantern-58-river",
  blogTitle: "Flowrun test site",
};

/** An empty package, for a dependency the tests never load usefully (see the module doc). */
const SKIPPED = "npm:@favware/skip-dependency@1.2.2";

/**
 * npm `overrides` over Ghost's own (its yarn `resolutions`): `re2`, a
 * native addon whose build (RE2 with Abseil) was most of the cold install,
 * is loaded only by metascraper's `url-regex-safe` (bookmark cards), which
 * takes an export that is not a function for "no RE2" and uses `RegExp`.
 */
const GHOST_OVERRIDES: Record<string, string> = { re2: SKIPPED };

/** npm's flags for the install inside the unpacked package (see the module doc). */
const NPM_INSTALL = ["--omit=dev", "--legacy-peer-deps", "--no-audit", "--no-fund"];

/**
 * Where Ghost is unpacked and installed (its own package is the root): the
 * folder is named for the recipe too, so a changed override or flag never
 * takes an install built by another one.
 */
export const ghostPrefix = `${cacheRoot}/ghost@${GHOST_VERSION}+${
  fnv1a(JSON.stringify([GHOST_OVERRIDES, NPM_INSTALL]))
}`;

/** FNV-1a of `text` as 8 hex digits: a short, stable name for the recipe. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** Runs `cmd` in `cwd`, killed after `ms`; throws with its last output when it fails. */
async function run(cmd: string[], cwd: string, ms: number): Promise<void> {
  const child = new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    env: { npm_config_nodedir: "/usr", PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), ms);
  const out = await child.output().finally(() => clearTimeout(timer));
  if (!out.success) {
    const said = new TextDecoder().decode(out.stderr).trim().slice(-1500);
    throw new Error(`${cmd.join(" ")} failed (exit ${out.code}): ${said}`);
  }
}

/** Unpacks `ghost` into {@linkcode ghostPrefix} and installs its dependencies there. */
async function installGhost(): Promise<void> {
  await Deno.remove(ghostPrefix, { recursive: true }).catch(() => {});
  const packs = await Deno.makeTempDir({ prefix: "flowrun-ghost-pack-" });
  try {
    await run(["npm", "pack", `ghost@${GHOST_VERSION}`, "--loglevel=error"], packs, 120_000);
    await Deno.mkdir(ghostPrefix, { recursive: true });
    const tgz = `${packs}/ghost-${GHOST_VERSION}.tgz`;
    await run(["tar", "xzf", tgz, "-C", ghostPrefix, "--strip-components=1"], packs, 60_000);
  } finally {
    await Deno.remove(packs, { recursive: true }).catch(() => {});
  }
  await productionManifest(`${ghostPrefix}/package.json`);
  // 30 minutes: a cold install (about 900 packages, native builds) took over 15 under a clean
  // clone's CI with other work on the machine's two cores, and was killed (exit 137).
  await run(["npm", "install", ...NPM_INSTALL, "--loglevel=error"], ghostPrefix, 1_800_000);
  await Deno.writeTextFile(`${ghostPrefix}/.installed`, new Date().toISOString() + "\n");
}

/**
 * Ghost's manifest as a production install reads it: npm resolves the
 * development dependencies too, even with `--omit=dev`, and one of them is
 * a GitHub tarball (not reachable here); yarn's `resolutions` become npm's
 * `overrides` (but the file one, which the dependency itself names).
 */
async function productionManifest(path: string): Promise<void> {
  const manifest = JSON.parse(await Deno.readTextFile(path));
  delete manifest.devDependencies;
  manifest.overrides = {
    ...Object.fromEntries(
      Object.entries(manifest.resolutions as Record<string, string>)
        .filter(([, spec]) => !spec.startsWith("file:")),
    ),
    ...GHOST_OVERRIDES,
  };
  await Deno.writeTextFile(path, JSON.stringify(manifest, null, 2) + "\n");
}

/**
 * Installs Ghost for a test file at load time (see the module's notes): a
 * failure throws under `CI` and is printed elsewhere, the tests ignored
 * with the reason in their names. Test files that run at once wait for one
 * install (a lock folder, at most 16 minutes).
 *
 * @example
 * ```ts ignore
 * import { prepareGhost } from "./ghost.ts";
 * const { ignoredBecause } = await prepareGhost();
 * ```
 */
export async function prepareGhost(): Promise<Prepared> {
  const started = performance.now();
  const prefix = ghostPrefix;
  const lock = `${prefix}.lock`;
  try {
    let cached = exists(`${prefix}/.installed`);
    if (!cached) {
      await Deno.mkdir(cacheRoot, { recursive: true });
      await awaitLock(lock, 2_400_000, 2_100_000);
      try {
        cached = exists(`${prefix}/.installed`);
        if (!cached) await installGhost();
      } finally {
        await Deno.remove(lock).catch(() => {});
      }
    }
    const ms = performance.now() - started;
    console.error(
      `real servers: ghost@${GHOST_VERSION} ${cached ? "from the cache" : "installed"} in ${
        Math.round(ms)
      } ms (${prefix})`,
    );
    return { install: { prefix, cached, ms }, ignoredBecause: "" };
  } catch (error) {
    if (Deno.env.get("CI")) throw error;
    const why = error instanceof Error ? error.message : String(error);
    console.error(`Ghost not installed, tests ignored: ${why}`);
    return {
      ignoredBecause: ` [ignored: ${why.split("\n")[0].slice(0, 200)}; with CI set this fails]`,
    };
  }
}

/**
 * Ghost installed under `prefix` on SQLite in the instance's folder, on a
 * port that was free a moment before.
 *
 * @example
 * ```ts
 * import { ghostLaunch } from "./ghost.ts";
 * const launch = ghostLaunch("/cache/ghost");
 * if (launch.env?.database__client !== "sqlite3" || launch.probe !== "/ghost/api/admin/site/") {
 *   throw new Error();
 * }
 * ```
 */
export function ghostLaunch(prefix: string): Launch {
  return {
    command: ["node", `${prefix}/index.js`],
    env: {
      NODE_ENV: "production",
      url: "http://127.0.0.1:PORT",
      server__host: "127.0.0.1",
      server__port: "PORT",
      database__client: "sqlite3",
      database__connection__filename: "DIR/ghost.db",
      database__useNullAsDefault: "true",
      paths__contentPath: "DIR/content",
      mail__transport: "stub",
      privacy__useUpdateCheck: "false",
      privacy__useRpcPing: "false",
      privacy__useGravatar: "false",
      security__staffDeviceVerification: "false",
      logging__level: "warn",
      logging__transports: '["stdout"]',
      TZ: "UTC",
    },
    // Ghost finds its own root from the working folder (the instance's), or from a `current`
    // link there, as Ghost-CLI lays out an install.
    seed: async (dir) => {
      await Deno.symlink(prefix, `${dir}/current`);
      await copyTree(`${prefix}/content`, `${dir}/content`);
    },
    origin: (_output, port) => `http://127.0.0.1:${port}`,
    probe: "/ghost/api/admin/site/",
  };
}

/** Copies the folder `from` to `to` (files and folders only). */
async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else if (entry.isFile) await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

/**
 * Makes the owner {@linkcode OWNER} on a fresh instance with the setup API
 * (what the setup screen sends); throws with Ghost's answer otherwise.
 */
export async function setUp(origin: string): Promise<void> {
  const answer = await fetch(`${origin}/ghost/api/admin/authentication/setup/`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ setup: [OWNER] }),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`Ghost's setup answered ${answer.status}: ${text}`);
}

/**
 * Runs `fn` with a fresh Ghost (its owner made when `owner`), stopped and
 * removed whatever happens. Its first start makes the schema, which may
 * take longer than the 30 s `start` waits on a busy machine: tried twice.
 */
export async function withGhost<T>(
  prefix: string,
  fn: (instance: Instance) => Promise<T>,
  owner = true,
): Promise<T> {
  let instance: Instance | undefined;
  for (let attempt = 1; !instance; attempt++) {
    try {
      instance = await start(ghostLaunch(prefix));
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
  try {
    if (owner) await setUp(instance.origin);
    return await fn(instance);
  } finally {
    await instance.close();
  }
}
