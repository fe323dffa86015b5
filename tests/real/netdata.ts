/**
 * How the tests of tests/real/ start Netdata 1.37 (C), from Debian's
 * `netdata-core` and `netdata-web`: `netdata -D` (the foreground) with a
 * configuration file of the instance's own folder, which holds its config,
 * cache, lib and log folders, its web server on 127.0.0.1 and `PORT`, its
 * database in memory, the registry, machine learning and every collector
 * but `proc` (the system's charts: `system.cpu`) off, and no anonymous
 * statistics. As root it runs as Debian's `netdata` user, as its service
 * does (so the folder is that user's); else as the user running the test.
 * Its own OpenAPI document is the web folder's `netdata-swagger.json`,
 * which the daemon's web server serves at `/netdata-swagger.json`.
 *
 * @module
 */
import { userInfo } from "node:os";
import { debianMissing } from "./debian.ts";
import { type Instance, type Launch, withRetriedStart } from "./servers.ts";

/** The daemon, as Debian installs it (`netdata-core`). */
export const NETDATA_BINARY = "/usr/sbin/netdata";

/** The package's OpenAPI document (`netdata-web`), which the web server serves. */
export const NETDATA_WEB_DOCUMENT = "/usr/share/netdata/web/netdata-swagger.json";

/** Where the instance's web server serves that document. */
export const NETDATA_DOCUMENT = "/netdata-swagger.json";

/**
 * Why the Netdata tests cannot run here ("" when they can), after
 * installing the packages if they are missing and this runs as root; with
 * `CI` set a missing server throws.
 *
 * @example
 * ```ts
 * import { netdataMissing } from "./netdata.ts";
 * // It may install packages, so the example only names it.
 * if (typeof netdataMissing !== "function") throw new Error();
 * ```
 */
export function netdataMissing(): string {
  return debianMissing(NETDATA_BINARY, "netdata-core") ||
    debianMissing(NETDATA_WEB_DOCUMENT, "netdata-web");
}

/** The configuration: everything in `dir` (the address and port are the command's). */
function config(dir: string, user: string): string {
  const off = [
    "diskspace",
    "cgroups",
    "tc",
    "idlejitter",
    "timex",
    "checks",
    "statsd",
    "apps",
    "perf",
    "slabinfo",
    "python.d",
    "charts.d",
    "go.d",
    "ebpf",
    "nfacct",
    "fping",
    "ioping",
  ];
  return [
    "[global]",
    `\trun as user = ${user}`,
    "\thostname = flowrun-netdata",
    "[db]",
    "\tmode = ram",
    "\tupdate every = 1",
    "[directories]",
    `\tconfig = ${dir}/conf`,
    "\tstock config = /usr/lib/netdata/conf.d",
    `\tlog = ${dir}/log`,
    `\tcache = ${dir}/cache`,
    `\tlib = ${dir}/lib`,
    `\thome = ${dir}`,
    `\tlock = ${dir}/lib/lock`,
    "\tweb = /usr/share/netdata/web",
    "[logs]",
    "\tdebug log = none",
    "\terror log = stderr",
    "\taccess log = none",
    "\thealth log = none",
    "[registry]",
    "\tenabled = no",
    "[ml]",
    "\tenabled = no",
    "[plugins]",
    "\tenable running new plugins = no",
    "\tproc = yes",
    ...off.map((name) => `\t${name} = no`),
    "",
  ].join("\n");
}

/** Who the daemon runs as: Debian's `netdata` user as root, else whoever runs the test. */
function runAs(): string {
  return Deno.uid() === 0 ? "netdata" : userInfo().username;
}

/**
 * Netdata on `PORT`, everything it writes in the instance's folder.
 *
 * @example
 * ```ts
 * import { netdataLaunch } from "./netdata.ts";
 * if (!netdataLaunch.command.includes("-D") || !netdataLaunch.probe?.includes("system.cpu")) throw new Error();
 * ```
 */
export const netdataLaunch: Launch = {
  command: [NETDATA_BINARY, "-D", "-c", "DIR/conf/netdata.conf", "-i", "127.0.0.1", "-p", "PORT"],
  // No anonymous statistics (its script would reach the internet).
  env: { DO_NOT_TRACK: "1", DISABLE_TELEMETRY: "1" },
  seed: async (dir) => {
    for (const sub of ["conf", "cache", "lib", "log"]) await Deno.mkdir(`${dir}/${sub}`);
    await Deno.writeTextFile(`${dir}/conf/netdata.conf`, config(dir, runAs()));
    await Deno.writeTextFile(`${dir}/conf/.opt-out-from-anonymous-statistics`, "");
    if (Deno.uid() !== 0) return;
    // The daemon drops to `netdata`, which must reach and write its folders.
    await Deno.chmod(dir, 0o755);
    for (const sub of ["", "/conf", "/cache", "/lib", "/log"]) {
      await Deno.chown(`${dir}${sub}`, netdataUid(), null);
    }
  },
  origin: (_, port) => `http://127.0.0.1:${port}`,
  // Ready once `proc` has collected: `/api/v1/info` answers a moment before any chart exists, and
  // a read of `system.cpu` then is a 404 (a user's running instance has its charts).
  probe: "/api/v1/chart?chart=system.cpu",
};

/** The uid of Debian's `netdata` user (its package makes it). */
function netdataUid(): number {
  const line = Deno.readTextFileSync("/etc/passwd").split("\n").find((l) =>
    l.startsWith("netdata:")
  );
  const uid = Number(line?.split(":")[2]);
  if (!Number.isInteger(uid)) throw new Error("Debian's netdata user is missing from /etc/passwd");
  return uid;
}

/**
 * Runs `fn` with a fresh Netdata, stopped and removed whatever happens. Its
 * port was free a moment before it started; one taken since makes it fail,
 * so a start is tried at most 3 times ({@linkcode withRetriedStart}).
 */
export function withNetdata<T>(
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withRetriedStart(start, () => netdataLaunch, fn);
}
