/**
 * How the tests of tests/real/ start the classic Jupyter Notebook 6.4 web UI
 * (Python, Tornado), from Debian's `python3-notebook` and `python3-ipykernel`
 * (the Python kernel a notebook starts; not a dependency). Each start:
 * `/usr/bin/python3 -m notebook` on 127.0.0.1 and a port free a moment
 * before (`port_retries=0`: a port taken since makes it exit, not move), the
 * token the user starts it with, the notebooks' folder an empty folder of the
 * instance, and `HOME`, `JUPYTER_CONFIG_DIR`, `JUPYTER_DATA_DIR`,
 * `JUPYTER_RUNTIME_DIR` and `IPYTHONDIR` folders of the instance, so nothing
 * is read from or written to this machine's own. Its pages log in with the
 * token typed in a form (`POST /login`, which sets a login cookie), and every
 * API call other than a GET sends the `_xsrf` cookie's value back as the
 * `X-XSRFToken` header. The folder layout and the start with its retries are
 * Jupyter Server's (tests/real/jupyter.ts), whose family this is.
 *
 * @module
 */
import { debianPackagesMissing } from "./debian.ts";
import { jupyterAppLaunch } from "./jupyter.ts";
import { type Instance, type Launch, withRetriedStart } from "./servers.ts";

/** The Debian packages, as `.ci/run` installs them. */
export const NOTEBOOK_PACKAGES = ["python3-notebook", "python3-ipykernel"];

/** A file each package installs, in the order of {@linkcode NOTEBOOK_PACKAGES}. */
const FILES: Record<string, string> = {
  "python3-notebook": "/usr/lib/python3/dist-packages/notebook/notebookapp.py",
  "python3-ipykernel": "/usr/lib/python3/dist-packages/ipykernel/kernelapp.py",
};

/** The token the instance is started with (`--NotebookApp.token`): the user chose it. */
export const NOTEBOOK_TOKEN = "flowrun-test-notebook-token";

/**
 * Why the Notebook tests cannot run here ("" when they can), after installing
 * the packages if they are missing and this runs as root; with `CI` set a
 * missing server throws.
 *
 * @example
 * ```ts
 * import { notebookMissing } from "./notebook.ts";
 * // It may install packages, so the example only names it.
 * if (typeof notebookMissing !== "function") throw new Error();
 * ```
 */
export function notebookMissing(): string {
  return debianPackagesMissing(FILES);
}

/**
 * Jupyter Notebook on `PORT` with the token {@linkcode NOTEBOOK_TOKEN}, as
 * Jupyter Server starts ({@linkcode jupyterAppLaunch}); its login page
 * needs no token.
 *
 * @example
 * ```ts
 * import { notebookLaunch } from "./notebook.ts";
 * if (!notebookLaunch.command.includes("--NotebookApp.port=PORT")) throw new Error();
 * ```
 */
export const notebookLaunch: Launch = jupyterAppLaunch({
  module: "notebook",
  app: "NotebookApp",
  token: NOTEBOOK_TOKEN,
  root: ["notebook_dir", "notebooks"],
  probe: "/login",
});

/**
 * Runs `fn` with a fresh Jupyter Notebook, stopped whatever happens (its
 * kernels with it: it shuts them down on SIGTERM, and a kernel watches its
 * parent); a start is tried at most 3 times ({@linkcode withRetriedStart}).
 */
export function withNotebook<T>(
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withRetriedStart(start, () => notebookLaunch, fn);
}

/**
 * The files and running kernels of the instance at `origin`, asked through
 * its API with the token: what a journey left behind.
 *
 * @example
 * ```ts ignore
 * import { leftBehind } from "./notebook.ts";
 * const { files, kernels } = await leftBehind("http://127.0.0.1:8888");
 * ```
 */
export async function leftBehind(origin: string): Promise<{ files: string[]; kernels: number }> {
  const headers = { authorization: `token ${NOTEBOOK_TOKEN}` };
  const get = async (path: string) => {
    const r = await fetch(`${origin}${path}`, { headers });
    if (!r.ok) throw new Error(`${path} answered ${r.status}`);
    return await r.json();
  };
  const root = await get("/api/contents");
  const files = (root.content as { name: string }[]).map((f) => f.name).sort();
  return { files, kernels: (await get("/api/kernels")).length };
}
