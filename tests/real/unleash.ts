/**
 * How the tests of tests/real/ start Unleash, the feature flag server (npm
 * `unleash-server`, pure JavaScript), on a throwaway PostgreSQL cluster of
 * its own: Debian's `postgresql` 15 (`initdb` into the instance's folder,
 * run as the `postgres` user since it refuses root, on a port that was free
 * a moment before, listening on 127.0.0.1 and a socket in that folder);
 * Unleash migrates the empty database at its start (about 15 s here). Its
 * admin API takes the admin token given by `INIT_ADMIN_API_TOKENS`, which
 * a user who sets the server up writes themselves; its own OpenAPI
 * document is served at `/docs/openapi.json`.
 *
 * Unleash 8.2.0 asks for Node 22 (`engines`); it runs under Node 20, which
 * is what Debian gives here.
 *
 * @module
 */
import { freePort, type Instance, type Launch, type Pinned } from "./servers.ts";

/** Unleash's npm package. */
export const UNLEASH: Pinned = { name: "unleash-server", version: "8.2.0" };

/** Where Unleash serves its own OpenAPI 3 document. */
export const UNLEASH_DOCUMENT = "/docs/openapi.json";

/** The admin token the instance is started with (what `INIT_ADMIN_API_TOKENS` sets). */
export const UNLEASH_ADMIN_TOKEN = "*:*.flowrun-test-admin-token";

const PG_BIN = "/usr/lib/postgresql/15/bin";

/**
 * Why the Unleash tests cannot run here ("" when they can): no PostgreSQL
 * 15 binaries or no `postgres` user to run them as. With `CI` set that is
 * an error, like a failed install.
 *
 * @example
 * ```ts
 * import { postgresMissing } from "./unleash.ts";
 * if (typeof postgresMissing() !== "string") throw new Error();
 * ```
 */
export function postgresMissing(): string {
  let why = "";
  try {
    Deno.statSync(`${PG_BIN}/initdb`);
    const id = new Deno.Command("id", { args: ["-u", "postgres"], stdout: "null", stderr: "null" })
      .outputSync();
    if (!id.success) why = "no postgres user (Debian's postgresql package makes it)";
  } catch {
    why = `${PG_BIN}/initdb is missing (Debian's postgresql 15)`;
  }
  if (!why) return "";
  if (Deno.env.get("CI")) throw new Error(`Unleash needs PostgreSQL: ${why}`);
  return ` [ignored: ${why}; with CI set this fails]`;
}

/** Runs a PostgreSQL program as the `postgres` user (bounded: 60 s); throws with its output. */
async function asPostgres(program: string, args: string[]): Promise<void> {
  const root = Deno.uid() === 0;
  const child = new Deno.Command(root ? "runuser" : `${PG_BIN}/${program}`, {
    args: root ? ["-u", "postgres", "--", `${PG_BIN}/${program}`, ...args] : args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const out = await child.output().finally(() => clearTimeout(timer));
  if (!out.success) {
    const said = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    throw new Error(`${program} ${args.join(" ")} failed (exit ${out.code}):\n${said}`);
  }
}

/**
 * Starts the cluster at `data` on a port free a moment before and gives the port. Another process
 * may take the port first (the postmaster then exits at once: a CI run saw "stopped waiting" in
 * 11 s beside parallel servers), so a refused start tries another port, three in all; the last
 * error carries the server's log.
 */
async function startCluster(data: string, dir: string): Promise<number> {
  for (let attempt = 1;; attempt++) {
    const port = freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    try {
      await asPostgres("pg_ctl", ["-D", data, "-o", options, "-l", `${dir}/log`, "-w", "start"]);
      return port;
    } catch (error) {
      if (attempt < 3) continue;
      const log = await Deno.readTextFile(`${dir}/log`).catch(() => "");
      throw new Error(`${(error as Error).message}\n${log}`);
    }
  }
}

/** A running throwaway PostgreSQL cluster with one database, `unleash`. */
export interface Database {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts a throwaway cluster in a temp folder owned by `postgres` (trust
 * authentication, 127.0.0.1 only, no fsync), with the database `unleash`.
 */
export async function startDatabase(): Promise<Database> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-real-pg-" });
  if (Deno.uid() === 0) {
    await new Deno.Command("chown", { args: ["postgres", dir] }).output();
  }
  let port = 0;
  const data = `${dir}/data`;
  const stop = async () => {
    await asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    await asPostgres("initdb", [
      "-D",
      data,
      "-A",
      "trust",
      "-U",
      "unleash",
      "-E",
      "UTF8",
      "--no-sync",
    ]);
    port = await startCluster(data, dir);
    await asPostgres("createdb", [
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
      "-U",
      "unleash",
      "unleash",
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `postgres://unleash@127.0.0.1:${port}/unleash`, close: stop };
}

/**
 * Unleash installed under `prefix`, on the database at `url`, with the
 * admin token {@linkcode UNLEASH_ADMIN_TOKEN}; a port that was free a
 * moment before.
 *
 * @example
 * ```ts
 * import { unleashLaunch } from "./unleash.ts";
 * const launch = unleashLaunch("/cache/prefix", "postgres://unleash@127.0.0.1:5432/unleash");
 * if (launch.command[0] !== "node" || launch.probe !== "/health") throw new Error();
 * ```
 */
export function unleashLaunch(prefix: string, url: string): Launch {
  return {
    command: ["node", `${prefix}/node_modules/unleash-server/dist/server.js`],
    env: {
      DATABASE_URL: url,
      DATABASE_SSL: "false",
      HTTP_HOST: "127.0.0.1",
      HTTP_PORT: "PORT",
      CHECK_VERSION: "false",
      SEND_TELEMETRY: "false",
      INIT_ADMIN_API_TOKENS: UNLEASH_ADMIN_TOKEN,
      TZ: "UTC",
    },
    // Unleash prints no address; the probe tells when it answers.
    origin: (_output, port) => `http://127.0.0.1:${port}`,
    probe: "/health",
  };
}

/**
 * Runs `fn` with a fresh server on a fresh database (`launchOn` its URL),
 * both stopped and removed whatever happens; the start is tried `tries`
 * times.
 */
export async function withOnDatabase<T>(
  launchOn: (url: string) => Launch,
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
  tries = 1,
): Promise<T> {
  const db = await startDatabase();
  try {
    const launch = launchOn(db.url);
    let instance = start(launch);
    for (let attempt = 1; attempt < tries; attempt++) {
      instance = instance.catch(() => start(launch));
    }
    const started = await instance;
    try {
      return await fn(started);
    } finally {
      await started.close();
    }
  } finally {
    await db.close();
  }
}

/**
 * Runs `fn` with a fresh Unleash on a fresh database, both stopped and
 * removed whatever happens. Its start (migrations included) may take longer
 * than the 30 s `start` waits on a busy machine, so it is tried twice.
 */
export function withUnleash<T>(
  prefix: string,
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withOnDatabase((url) => unleashLaunch(prefix, url), start, fn, 2);
}
