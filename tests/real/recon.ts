/**
 * How the tests of tests/real/ start recon-ng 5.1.2's web UI and REST API,
 * `recon-web` (Python, Flask; Debian's `recon-ng`), with the Redis its task
 * queue needs (Debian's `redis-server`; recon-ng suggests it, it does not
 * depend on it). Each start is one process group: Redis on a Unix socket of
 * the instance (no TCP port, nothing saved), then `recon-web` on 127.0.0.1
 * and a port free a moment before, `REDIS_URL` that socket and `HOME` a
 * folder of the instance (recon-ng keeps its keys, workspaces and modules
 * in `~/.recon-ng`), so nothing of this machine's own is read or written.
 * The marketplace, the version check and analytics are off in recon-web
 * itself, so it asks nothing of the network.
 *
 * It serves its own Swagger 2.0 document (flasgger) at `/apispec_1.json`,
 * and has no authentication: its users run it on their own machine.
 * recon-ng's users install modules from its marketplace (on the network);
 * each instance here has one module written here instead
 * ({@linkcode RECON_MODULE}), which runs offline and does nothing, so the
 * API's modules and tasks have something to address.
 *
 * @module
 */
import { debianPackagesMissing } from "./debian.ts";
import { type Instance, type Launch, withRetriedStart } from "./servers.ts";

/** The Debian packages, as `.ci/run` installs them, and a file each installs. */
const FILES: Record<string, string> = {
  "recon-ng": "/usr/share/recon-ng/recon-web",
  "redis-server": "/usr/bin/redis-server",
};

/** Where recon-web serves its own Swagger 2.0 document. */
export const RECON_DOCUMENT = "/apispec_1.json";

/** The one module of each instance, as recon-ng names it: its folder under `modules`, its file. */
export const RECON_MODULE = "reporting/note";

/** The module's source, written here: a module whose run does nothing and asks for no key. */
const MODULE_SOURCE = `from recon.core.module import BaseModule


class Module(BaseModule):
    meta = {
        'name': 'Note',
        'author': 'flowrun tests',
        'version': '1.0',
        'description': 'Notes nothing: a module that runs offline.',
        'options': (('text', 'hello', False, 'what the note would say'),),
    }

    def module_run(self):
        pass
`;

/**
 * Why the recon-ng tests cannot run here ("" when they can), after
 * installing the packages if they are missing and this runs as root; with
 * `CI` set a missing server throws.
 *
 * @example
 * ```ts
 * import { reconMissing } from "./recon.ts";
 * // It may install packages, so the example only names it.
 * if (typeof reconMissing !== "function") throw new Error();
 * ```
 */
export function reconMissing(): string {
  return debianPackagesMissing(FILES);
}

// Redis first, on the instance's socket (at most 100 waits of 0.1 s for it), then recon-web in
// its place. Debian's python3 by its path: a `python3` earlier on `PATH` does not see Debian's.
const SCRIPT = [
  "redis-server --port 0 --unixsocket DIR/redis.sock --dir DIR --save '' --appendonly no &",
  "for i in $(seq 100); do [ -S DIR/redis.sock ] && break; sleep 0.1; done",
  "exec /usr/bin/python3 /usr/share/recon-ng/recon-web --host 127.0.0.1 --port PORT",
].join("\n");

/**
 * recon-web on `PORT`, its Redis on `DIR/redis.sock`, its home `DIR/home`
 * with the module {@linkcode RECON_MODULE}.
 *
 * @example
 * ```ts
 * import { reconLaunch } from "./recon.ts";
 * if (reconLaunch.env?.REDIS_URL !== "unix://DIR/redis.sock") throw new Error();
 * ```
 */
export const reconLaunch: Launch = {
  command: ["sh", "-c", SCRIPT],
  env: { HOME: "DIR/home", REDIS_URL: "unix://DIR/redis.sock", PYTHONDONTWRITEBYTECODE: "1" },
  seed: async (dir) => {
    const folder = `${dir}/home/.recon-ng/modules/${RECON_MODULE.split("/")[0]}`;
    await Deno.mkdir(folder, { recursive: true });
    await Deno.writeTextFile(`${dir}/home/.recon-ng/modules/${RECON_MODULE}.py`, MODULE_SOURCE);
  },
  // Flask prints ` * Running on http://127.0.0.1:PORT` once it listens.
  origin: (out) => /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1],
  probe: RECON_DOCUMENT,
};

/**
 * Runs `fn` with a fresh recon-web and its Redis, both stopped whatever
 * happens (one process group); a start is tried at most 3 times
 * ({@linkcode withRetriedStart}).
 */
export function withRecon<T>(
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withRetriedStart(start, () => reconLaunch, fn);
}
