/**
 * Real open-source servers nobody here wrote, installed from the npm registry
 * at pinned versions and started fresh on 127.0.0.1 for the tests of
 * tests/real/ (see docs/real-servers.md).
 *
 * - **Install**: `npm install --prefix CACHE/KEY` with
 *   `PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 --no-audit --no-fund`, where CACHE is
 *   `$XDG_CACHE_HOME/flowrun-real` (or `~/.cache/flowrun-real`) and KEY names
 *   the pinned versions; a marker written after a complete install makes the
 *   next run take the cache at once. Bounded by a 10-minute kill (a native
 *   addon compiled on a loaded machine took more than 5); a lock folder
 *   makes test files that run in parallel wait for one install (at most 11 min).
 * - **No registry**: with `CI` set the install error fails the tests, with
 *   the reason; elsewhere the tests are ignored and their names say why.
 * - **Start**: each start gets a temp data folder of its own (so every start
 *   is a fresh instance) and a port the system picks, in a process group of
 *   its own; it is ready once it prints its address and answers there (at
 *   most 300 polls of 100 ms). **Stop** kills the group (SIGTERM, SIGKILL
 *   after 5 s) and removes the folder.
 *
 * @module
 */
import { runCommandBounded, stderrTail } from "./bounded.ts";
import { exists } from "../support/fs.ts";

/** A package at the exact version the tests pin. */
export interface Pinned {
  name: string;
  version: string;
  /** npm `overrides` the install needs (a dependency that no longer resolves). */
  overrides?: Record<string, string>;
}

/** The folder the installs are cached in, outside the repository. */
export const cacheRoot: string = `${
  Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/tmp"}/.cache`
}/flowrun-real`;

/** Where `packages` are installed: one folder per set of pinned versions. */
export function prefixOf(packages: readonly Pinned[]): string {
  const key = packages.map((p) => `${p.name}@${p.version}`).join("+").replaceAll("/", "__");
  // A folder's name holds 255 bytes at most: a long set (a server's whole manifest) keeps its
  // first package's name and a hash of the whole key.
  return `${cacheRoot}/${key.length <= 200 ? key : `${key.split("+")[0]}+${fnv1a(key)}`}`;
}

/** FNV-1a of `text` as 8 hex digits: a short, stable name for a long key. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** How an install went: the prefix, whether it came from the cache, how long it took. */
export interface Install {
  prefix: string;
  cached: boolean;
  ms: number;
}

/**
 * Installs `packages` into {@linkcode prefixOf} unless a complete install is
 * there; throws with npm's own words when it fails.
 */
export async function install(packages: readonly Pinned[]): Promise<Install> {
  const started = performance.now();
  const prefix = prefixOf(packages);
  const marker = `${prefix}/.installed`;
  if (exists(marker)) return { prefix, cached: true, ms: performance.now() - started };
  // Test files that share a server run in parallel: one installs, the others wait for it.
  const lock = `${prefix}.lock`;
  await Deno.mkdir(cacheRoot, { recursive: true });
  await awaitLock(lock, 720_000, 660_000);
  try {
    if (exists(marker)) return { prefix, cached: true, ms: performance.now() - started };
    await npmInstall(packages, prefix);
  } finally {
    await Deno.remove(lock).catch(() => {});
  }
  return { prefix, cached: false, ms: performance.now() - started };
}

/**
 * Waits, polling every 500 ms, until {@linkcode takeLock} takes `lock` (one
 * left `staleMs` ago is taken over); throws once `waitMs` have gone by, so a
 * lock nobody frees fails the test instead of hanging it.
 *
 * @example
 * ```ts
 * import { awaitLock, takeLock } from "./servers.ts";
 * const lock = `${await Deno.makeTempDir()}/lock`;
 * await awaitLock(lock, 600_000, 1_000);
 * if (takeLock(lock)) throw new Error();
 * ```
 */
export async function awaitLock(lock: string, staleMs: number, waitMs: number): Promise<void> {
  for (let poll = 0; !takeLock(lock, staleMs); poll++) {
    if (poll * 500 >= waitMs) {
      throw new Error(`${lock} was held for ${waitMs / 60_000} minutes; remove it if nothing runs`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Takes the lock folder `lock` (mkdir is atomic); one left `staleMs` ago (by an install that
 * died) is taken over.
 *
 * @example
 * ```ts
 * import { takeLock } from "./servers.ts";
 * const lock = `${await Deno.makeTempDir()}/lock`;
 * if (!takeLock(lock) || takeLock(lock)) throw new Error();
 * ```
 */
export function takeLock(lock: string, staleMs = 720_000): boolean {
  try {
    Deno.mkdirSync(lock);
    return true;
  } catch {
    const since = Date.now() - (Deno.statSync(lock).mtime?.getTime() ?? Date.now());
    if (since < staleMs) return false;
    Deno.removeSync(lock);
    return takeLock(lock, staleMs);
  }
}

/** `npm install` of `packages` into `prefix`, bounded by a 10-minute kill; the marker last. */
async function npmInstall(packages: readonly Pinned[], prefix: string): Promise<void> {
  const marker = `${prefix}/.installed`;
  // No marker: an install before this one died (killed at its bound while a native addon
  // compiled). npm would find its packages unpacked, run no install script again and exit 0,
  // leaving e.g. better-sqlite3 without its binding; so start from an empty folder.
  await Deno.remove(prefix, { recursive: true }).catch(() => {});
  await Deno.mkdir(prefix, { recursive: true });
  const manifest = {
    name: "flowrun-real-servers",
    private: true,
    dependencies: Object.fromEntries(packages.map((p) => [p.name, p.version])),
    overrides: Object.assign({}, ...packages.map((p) => p.overrides ?? {})),
  };
  await Deno.writeTextFile(`${prefix}/package.json`, JSON.stringify(manifest, null, 2) + "\n");
  const out = await runCommandBounded(
    ["npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error"],
    { ms: 600_000, env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1", npm_config_nodedir: "/usr" } },
  );
  if (out.code !== 0) {
    const names = packages.map((p) => `${p.name}@${p.version}`).join(" ");
    throw new Error(`npm install ${names} failed (exit ${out.code}): ${stderrTail(out)}`);
  }
  await Deno.writeTextFile(marker, new Date().toISOString() + "\n");
}

/** What a test file's set-up got: the install, or why the tests are ignored. */
export interface Prepared {
  install?: Install;
  /** Appended to the tests' names when they are ignored ("" when they run). */
  ignoredBecause: string;
}

/**
 * Installs `packages` for a test file at load time. A failure throws when
 * `CI` is set (the tests must not pass without their servers); elsewhere it
 * is printed and the tests are ignored with the reason in their names.
 */
export async function prepare(packages: readonly Pinned[]): Promise<Prepared> {
  try {
    const done = await install(packages);
    console.error(
      `real servers: ${packages.map((p) => `${p.name}@${p.version}`).join(", ")} ${
        done.cached ? "from the cache" : "installed"
      } in ${Math.round(done.ms)} ms (${done.prefix})`,
    );
    return { install: done, ignoredBecause: "" };
  } catch (error) {
    if (Deno.env.get("CI")) throw error;
    const why = error instanceof Error ? error.message : String(error);
    console.error(`real servers not installed, tests ignored: ${why}`);
    return {
      ignoredBecause: ` [ignored: ${why.split("\n")[0].slice(0, 200)}; with CI set this fails]`,
    };
  }
}

/** How to start one server. */
export interface Launch {
  /**
   * The program and its arguments; `DIR` in any of them becomes the
   * instance's data folder and `PORT` a port that was free a moment ago
   * (for a server that cannot take port 0 and say which port it got).
   */
  command: string[];
  /** Extra environment (`DIR` is replaced here too). */
  env?: Record<string, string>;
  /** Fills the data folder before the start (a copy of the package's seed data). */
  seed?: (dir: string) => Promise<void>;
  /** Finds the origin (`http://127.0.0.1:PORT`) in what the server printed so far, given the `PORT` it was told. */
  origin: (output: string, port: number) => string | undefined;
  /** A path that answers 2xx once the server is ready (default `/`). */
  probe?: string;
  /** How many polls of 100 ms the start may take (default 300: 30 s), for a slow boot. */
  polls?: number;
}

/** A running fresh instance. */
export interface Instance {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  origin: string;
  /** Its data folder. */
  dir: string;
  /** Everything it printed so far. */
  log(): string;
  /** Stops its process group and removes its data folder; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts a fresh instance as `launch` says, in a process group of its own
 * (`setsid`), and resolves once it has printed its origin and answers
 * there; at most 300 polls of 100 ms, then it is stopped and this throws
 * with what it printed.
 */
export async function start(launch: Launch): Promise<Instance> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-real-" });
  await launch.seed?.(dir);
  const port = freePort();
  const put = (s: string) => s.replaceAll("DIR", dir).replaceAll("PORT", String(port));
  const [program, ...args] = launch.command.map(put);
  const env = Object.fromEntries(Object.entries(launch.env ?? {}).map(([k, v]) => [k, put(v)]));
  const child = new Deno.Command("setsid", {
    args: [program, ...args],
    cwd: dir,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  let closed: Promise<void> | undefined;
  const close = () =>
    closed ??= (async () => {
      const signal = (s: Deno.Signal) => {
        try {
          Deno.kill(-child.pid, s);
        } catch {
          // The group is gone already.
        }
      };
      signal("SIGTERM");
      const killer = setTimeout(() => signal("SIGKILL"), 5_000);
      await child.status;
      clearTimeout(killer);
      signal("SIGKILL"); // anything of the group still there
      await drained.catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    })();
  let exited = false;
  child.status.then(() => exited = true);
  const polls = launch.polls ?? 300;
  for (let poll = 0; poll < polls && !exited; poll++) {
    const origin = launch.origin(text, port);
    if (origin) {
      const ok = await fetch(`${origin}${launch.probe ?? "/"}`).then(async (r) => {
        await r.body?.cancel();
        return r.ok;
      }, () => false);
      if (ok) return { origin, dir, log: () => text, close };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await close();
  throw new Error(
    `${launch.command.join(" ")} did not start within ${polls / 10} s${
      exited ? " (it exited)" : ""
    }:\n${text.slice(-3000)}`,
  );
}

/**
 * A port of 127.0.0.1 that no one listened on a moment ago, for a server (or a second listener
 * of one) whose port must be chosen before it starts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { freePort } from "./servers.ts";
 * assert.ok(freePort() > 0);
 * ```
 */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Runs `fn` with a fresh instance and stops the instance whatever happens. The port `start` chose
 * was free a moment before; a server that exits because another process took it since (CI saw
 * PHP's "Address already in use" beside parallel tests) is started again on another, three
 * times in all.
 */
export async function withInstance<T>(
  launch: Launch,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  let instance: Instance | undefined;
  for (let attempt = 1; !instance; attempt++) {
    try {
      instance = await start(launch);
    } catch (error) {
      const taken = /address already in use|EADDRINUSE/i.test(String(error));
      if (!taken || attempt >= 3) throw error;
    }
  }
  try {
    return await fn(instance);
  } finally {
    await instance.close();
  }
}

/**
 * Runs `fn` with a fresh instance of the launch `launchOf` gives, stopped
 * whatever happens: for a server told a port that was free a moment before,
 * which exits when one took it since, so a start is tried at most 3 times,
 * each with a launch of its own (new ports where the launch chose them).
 *
 * @example
 * ```ts ignore
 * import { start, withRetriedStart } from "./servers.ts";
 * import { httpbinLaunch } from "./httpbin.ts";
 * const status = await withRetriedStart(start, () => httpbinLaunch, async (h) =>
 *   (await fetch(`${h.origin}/get`)).status);
 * ```
 */
export async function withRetriedStart<T>(
  start: (launch: Launch) => Promise<Instance>,
  launchOf: () => Launch,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  let instance: Instance | undefined;
  for (let attempt = 1; !instance; attempt++) {
    try {
      instance = await start(launchOf());
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  try {
    return await fn(instance);
  } finally {
    await instance.close();
  }
}

/**
 * A test of tests/real/, named `real servers: NAME` and the reason it is
 * ignored (`ignoredBecause`, "" when it runs), in a temp folder of its own,
 * removed after it (kept under `REAL_KEEP=DIR`, which is printed).
 * `alsoIgnored`: a reason its name need not say (one printed elsewhere, as
 * a missing Chromium's).
 *
 * @example
 * ```ts ignore
 * import { realTest } from "./servers.ts";
 * realTest("a folder of its own", "", async (dir) => {
 *   await Deno.writeTextFile(`${dir}/flow.yaml`, "flows: []\n");
 * });
 * ```
 */
export function realTest(
  name: string,
  ignoredBecause: string,
  fn: (dir: string) => Promise<void>,
  alsoIgnored = false,
) {
  Deno.test({
    name: `real servers: ${name}${ignoredBecause}`,
    ignore: ignoredBecause !== "" || alsoIgnored,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const keep = Deno.env.get("REAL_KEEP");
      if (keep) await Deno.mkdir(keep, { recursive: true });
      const dir = await Deno.makeTempDir({ prefix: "flowrun-real-", dir: keep });
      try {
        await fn(dir);
      } finally {
        if (keep) console.error(`kept in ${dir}`);
        else await Deno.remove(dir, { recursive: true });
      }
    },
  });
}

/**
 * "" when `variable=1` asks for what a test does anew (a journey recorded
 * now in Chromium), else the reason the test is ignored.
 *
 * @example
 * ```ts
 * import { unlessAsked } from "./servers.ts";
 * if (!unlessAsked("FLOWRUN_EXAMPLE_NEVER_SET").includes("=1 to record anew")) throw new Error();
 * ```
 */
export function unlessAsked(variable: string): string {
  return Deno.env.get(variable) === "1" ? "" : ` [ignored: set ${variable}=1 to record anew]`;
}
