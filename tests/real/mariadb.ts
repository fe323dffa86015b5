/**
 * A throwaway MariaDB for the PHP apps of tests/real/ (WordPress,
 * phpMyAdmin): a data folder of the instance's own (`DIR/db`), served on a
 * unix socket there and no TCP, made by `mariadb-install-db` (root without a
 * password) and started by the app's launch line before its `php -S`.
 * Nothing is written outside the folder; as root the server runs as the
 * `mysql` user, so the folder is made reachable to it.
 *
 * @module
 */
import { runCommandBounded, stderrTail } from "./bounded.ts";
import { seedOnce } from "./seed_once.ts";
import type { Launch } from "./servers.ts";

const asRoot = Deno.uid() === 0;

/**
 * The MariaDB server of the data folder `dir/db`, on a socket there and no TCP.
 *
 * @example
 * ```ts
 * import { mariadbd } from "./mariadb.ts";
 * if (!mariadbd("/x").includes("--socket=/x/db/mysqld.sock")) throw new Error();
 * ```
 */
export function mariadbd(dir: string): string[] {
  return [
    "/usr/sbin/mariadbd",
    "--no-defaults",
    `--datadir=${dir}/db`,
    `--socket=${dir}/db/mysqld.sock`,
    `--pid-file=${dir}/db/mysqld.pid`,
    `--tmpdir=${dir}/db`,
    "--skip-networking",
    "--innodb-buffer-pool-size=32M",
    "--innodb-log-file-size=8M",
    ...(asRoot ? ["--user=mysql"] : []),
  ];
}

/** A shell line that waits (at most 20 s) for the socket of `dir/db`. */
function waitForSocket(dir: string): string {
  return `for i in $(seq 200); do [ -S ${dir}/db/mysqld.sock ] && break; sleep 0.1; done`;
}

/**
 * A shell line that starts the MariaDB of `dir/db` in the background, waits
 * for its socket, then runs `then` (the app's server, with `exec`).
 *
 * @example
 * ```ts
 * import { withMariadb } from "./mariadb.ts";
 * if (!withMariadb("DIR", "exec php").endsWith("; exec php")) throw new Error();
 * ```
 */
export function withMariadb(dir: string, then: string): string {
  return `${mariadbd(dir).join(" ")} & ${waitForSocket(dir)}; ${then}`;
}

/**
 * Runs `cmd`, killed after 2 minutes; throws with what it said when it fails.
 *
 * @example
 * ```ts
 * import { runOrThrow } from "./mariadb.ts";
 * await runOrThrow(["true"]);
 * ```
 */
export async function runOrThrow(cmd: string[], env: Record<string, string> = {}): Promise<void> {
  const out = await runCommandBounded(cmd, { ms: 120_000, env });
  if (!out.success) {
    throw new Error(`${cmd.join(" ")} failed (exit ${out.code}): ${stderrTail(out)}`);
  }
}

/**
 * Lets the `mysql` user reach `dir/db` when the tests run as root.
 *
 * @example
 * ```ts
 * import { reachable } from "./mariadb.ts";
 * const dir = await Deno.makeTempDir();
 * await reachable(dir);
 * await Deno.remove(dir);
 * ```
 */
export async function reachable(dir: string): Promise<void> {
  if (asRoot) await Deno.chmod(dir, 0o711);
}

/**
 * Makes a new data folder in `work/db` (`work` made reachable), starts its
 * server, runs `sql` as root through the socket, then `then()` while it
 * still runs, and stops it.
 *
 * @example
 * ```ts ignore
 * import { installDatabase } from "./mariadb.ts";
 * await installDatabase("/tmp/seed", "CREATE DATABASE shop", async () => {});
 * ```
 */
export async function installDatabase(
  work: string,
  sql: string,
  then: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  await reachable(work);
  await Deno.mkdir(`${work}/db`);
  if (asRoot) await runOrThrow(["chown", "mysql:mysql", `${work}/db`]);
  await runOrThrow([
    "/usr/bin/mariadb-install-db",
    "--no-defaults",
    `--datadir=${work}/db`,
    "--auth-root-authentication-method=normal",
    "--skip-test-db",
    ...(asRoot ? ["--user=mysql"] : []),
  ]);
  const client = new Deno.Command("sh", {
    args: [
      "-c",
      `${waitForSocket(work)}; exec /usr/bin/mariadb -uroot --socket=${work}/db/mysqld.sock`,
    ],
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const db = new Deno.Command(mariadbd(work)[0], {
    args: mariadbd(work).slice(1),
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const writer = client.stdin.getWriter();
    await writer.write(new TextEncoder().encode(sql));
    await writer.close();
    const made = await client.output();
    if (!made.success) throw new Error(new TextDecoder().decode(made.stderr));
    await then();
  } finally {
    db.kill("SIGTERM");
    await db.status;
  }
}

/**
 * The answer to `query`, as root through the socket of `dir/db`: tab-separated rows, no column
 * names (`mariadb -N -B`), trimmed; `database` the one it runs in.
 *
 * @example
 * ```ts ignore
 * import { mariadbQuery } from "./mariadb.ts";
 * const statuses = await mariadbQuery("/tmp/instance", "SELECT post_status FROM wp_posts", "wordpress");
 * ```
 */
export async function mariadbQuery(dir: string, query: string, database?: string): Promise<string> {
  const args = ["-uroot", `--socket=${dir}/db/mysqld.sock`, "-N", "-B", "-e", query];
  const out = await new Deno.Command("/usr/bin/mariadb", {
    args: database === undefined ? args : [...args, database],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

/** How an app's instances get their database: made once in the cache, copied into each. */
export interface SeededApp {
  /** The app's name, for the cache's messages. */
  name: string;
  /** The cached data folder every instance copies. */
  seed: string;
  /** Makes the database in `work/db` (with {@linkcode installDatabase}). */
  install: (work: string) => Promise<void>;
  /** Writes the instance's code and configuration into its folder. */
  layOut: (dir: string) => Promise<void>;
}

/**
 * A fresh instance's folder `dir`: the app's code and configuration (`layOut`) and a copy of its
 * seeded database, made in the cache by `install` unless it is there (a lock makes parallel test
 * files wait for one).
 *
 * @example
 * ```ts ignore
 * import { installDatabase, seedInstance } from "./mariadb.ts";
 * const install = (work: string) => installDatabase(work, "CREATE DATABASE shop;");
 * await seedInstance("/tmp/i1", { name: "shop", seed: "/cache/shop/db", install, layOut: async () => {} });
 * ```
 */
export async function seedInstance(dir: string, app: SeededApp): Promise<void> {
  await seedOnce({ name: app.name, seed: app.seed, staleMs: 180_000 }, async (work, part) => {
    await app.install(work);
    await runOrThrow(["cp", "-a", `${work}/db`, part]);
  });
  await app.layOut(dir);
  await runOrThrow(["cp", "-a", app.seed, `${dir}/db`]);
  await Deno.remove(`${dir}/db/mysqld.sock`).catch(() => {});
}

/**
 * A PHP application served by PHP's own server (`php -S`, two workers) beside the instance's
 * MariaDB, the launch each PHP app here shares: `flags` are its `php -d` settings, `root` its
 * document root in the instance's folder, `probe` the page that answers once it is ready.
 *
 * @example
 * ```ts
 * import { phpOnMariadb } from "./mariadb.ts";
 * const launch = phpOnMariadb(() => Promise.resolve(), ["session.save_path=DIR/sessions"], "app", "/index.php");
 * if (!launch.command[2].includes("-d session.save_path=DIR/sessions -S 127.0.0.1:PORT -t DIR/app")) {
 *   throw new Error(launch.command[2]);
 * }
 * ```
 */
export function phpOnMariadb(
  seed: (dir: string) => Promise<void>,
  flags: string[],
  root: string,
  probe: string,
): Launch {
  const php = [
    "exec /usr/bin/php",
    ...flags.map((f) => `-d ${f}`),
    `-S 127.0.0.1:PORT -t DIR/${root}`,
  ];
  return {
    command: ["sh", "-c", withMariadb("DIR", php.join(" "))],
    env: { PHP_CLI_SERVER_WORKERS: "2", HOME: "DIR", TMPDIR: "DIR" },
    seed,
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe,
  };
}
