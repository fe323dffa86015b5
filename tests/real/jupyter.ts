/**
 * How the tests of tests/real/ start Jupyter Server 1.23 (Python, Tornado),
 * from Debian's `python3-jupyter-server` (its terminals need
 * `python3-terminado`, a dependency) and `python3-ipykernel` (the Python
 * kernel a kernel or session start runs; not a dependency). Each start:
 * `/usr/bin/python3 -m jupyter_server` on 127.0.0.1 and a port free a moment
 * before (`port_retries=0`: a port taken since makes it exit, not move),
 * the token the user starts it with, the notebooks' root an empty folder of
 * the instance, and `HOME`, `JUPYTER_CONFIG_DIR`, `JUPYTER_DATA_DIR`,
 * `JUPYTER_RUNTIME_DIR` and `IPYTHONDIR` folders of the instance too, so
 * nothing is read from or written to this machine's own. Its REST API
 * (`/api/…`) takes the token as `Authorization: token X` (or `?token=X`),
 * and serves its own Swagger 2.0 document at `/api/spec.yaml`.
 *
 * @module
 */
import { debianPackagesMissing } from "./debian.ts";
import { type Instance, type Launch, withRetriedStart } from "./servers.ts";

/** The Debian packages, as `.ci/run` installs them. */
export const JUPYTER_PACKAGES = ["python3-jupyter-server", "python3-ipykernel"];

/** A file each package installs, in the order of {@linkcode JUPYTER_PACKAGES}. */
const FILES: Record<string, string> = {
  "python3-jupyter-server": "/usr/lib/python3/dist-packages/jupyter_server/serverapp.py",
  "python3-ipykernel": "/usr/lib/python3/dist-packages/ipykernel/kernelapp.py",
};

/** Where the API serves its own Swagger 2.0 document (YAML). */
export const JUPYTER_DOCUMENT = "/api/spec.yaml";

/** The token the instance is started with (`--ServerApp.token`): the user chose it. */
export const JUPYTER_TOKEN = "flowrun-test-jupyter-token";

/**
 * Why the Jupyter tests cannot run here ("" when they can), after installing
 * the packages if they are missing and this runs as root; with `CI` set a
 * missing server throws.
 *
 * @example
 * ```ts
 * import { jupyterMissing } from "./jupyter.ts";
 * // It may install packages, so the example only names it.
 * if (typeof jupyterMissing !== "function") throw new Error();
 * ```
 */
export function jupyterMissing(): string {
  return debianPackagesMissing(FILES);
}

/** What tells one Jupyter application of Debian's python3 from another. */
export interface JupyterApp {
  /** Its module, run as `python3 -m MODULE`. */
  module: string;
  /** Its configurable class (`ServerApp`, `NotebookApp`), which its options are named by. */
  app: string;
  /** The token the user starts it with. */
  token: string;
  /** The option naming the notebooks' folder, and that folder's name in the instance's. */
  root: [option: string, folder: string];
  /** A path that answers 2xx without the token once it listens. */
  probe: string;
}

/**
 * A Jupyter application on `PORT` of 127.0.0.1 with `token`, its notebooks'
 * folder, `HOME` and every `JUPYTER_*`/`IPYTHONDIR` folder the instance's
 * own. Debian's python3 by its path: a `python3` earlier on `PATH` (pyenv's)
 * does not see Debian's packages. `--allow-root`: the tests may run as root.
 *
 * @example
 * ```ts
 * import { jupyterAppLaunch } from "./jupyter.ts";
 * const launch = jupyterAppLaunch({
 *   module: "notebook",
 *   app: "NotebookApp",
 *   token: "t",
 *   root: ["notebook_dir", "notebooks"],
 *   probe: "/login",
 * });
 * if (!launch.command.includes("--NotebookApp.notebook_dir=DIR/notebooks")) throw new Error();
 * ```
 */
export function jupyterAppLaunch({ module, app, token, root, probe }: JupyterApp): Launch {
  const [rootOption, rootFolder] = root;
  return {
    command: [
      "/usr/bin/python3",
      "-m",
      module,
      `--${app}.ip=127.0.0.1`,
      `--${app}.port=PORT`,
      `--${app}.port_retries=0`,
      `--${app}.token=${token}`,
      `--${app}.${rootOption}=DIR/${rootFolder}`,
      "--no-browser",
      "--allow-root",
    ],
    env: {
      HOME: "DIR/home",
      JUPYTER_CONFIG_DIR: "DIR/config",
      JUPYTER_DATA_DIR: "DIR/data",
      JUPYTER_RUNTIME_DIR: "DIR/runtime",
      IPYTHONDIR: "DIR/ipython",
    },
    seed: async (dir) => {
      for (const sub of [rootFolder, "home", "config", "data", "runtime", "ipython"]) {
        await Deno.mkdir(`${dir}/${sub}`);
      }
    },
    // It prints `http://127.0.0.1:PORT/?token=...` once it listens.
    origin: (out) => /(http:\/\/127\.0\.0\.1:\d+)\/\?token=/.exec(out)?.[1],
    probe,
  };
}

/**
 * Jupyter Server on `PORT` with the token {@linkcode JUPYTER_TOKEN}; its
 * version (`/api`) needs no token.
 *
 * @example
 * ```ts
 * import { jupyterLaunch } from "./jupyter.ts";
 * if (!jupyterLaunch.command.includes("--ServerApp.port=PORT")) throw new Error();
 * ```
 */
export const jupyterLaunch: Launch = jupyterAppLaunch({
  module: "jupyter_server",
  app: "ServerApp",
  token: JUPYTER_TOKEN,
  root: ["root_dir", "root"],
  probe: "/api",
});

/**
 * Runs `fn` with a fresh Jupyter Server, stopped whatever happens (its
 * kernels and terminals with it: it shuts them down on SIGTERM, and a kernel
 * watches its parent); a start is tried at most 3 times
 * ({@linkcode withRetriedStart}).
 */
export function withJupyter<T>(
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withRetriedStart(start, () => jupyterLaunch, fn);
}
