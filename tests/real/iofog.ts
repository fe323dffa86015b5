/**
 * How the tests of tests/real/ start Eclipse ioFog Controller 3.0.4 (the
 * edge-computing control plane's REST API, Express and Sequelize on
 * SQLite), whose own Postman collection its CI runs with Newman
 * (`fixtures/iofog/SOURCE.txt`). The controller is on no registry the tests
 * install from, and its source is not vendored: the tests run it from a
 * checkout of commit ccf098c that `IOFOG_CONTROLLER` names, and are ignored
 * without one. Its npm dependencies come from the npm registry at the
 * versions its `package-lock.json` resolves, but `semantic-release` and
 * `snyk` (release tooling it never loads), and with `mime`, which its
 * diagnostics require and which only `semantic-release`'s tree brought.
 * `sqlite3` is built from source by node-gyp with Node's headers (its
 * binaries are on GitHub).
 *
 * Each start is a fresh instance: the checkout's `src/`, `docs/` and
 * `package.json` copied into the instance's folder (its SQLite file is made
 * under `src/data/`), `node_modules` a link to the install, started as its
 * `npm start` runs `src/server.js` (production settings), on 127.0.0.1
 * (`fixtures/iofog/loopback.cjs`), the API on a free port, the viewer on one
 * the system picks, its logs in the instance's folder.
 *
 * @module
 */
import type { Instance, Launch, Pinned } from "./servers.ts";

const FIXTURE = new URL("./fixtures/iofog/", import.meta.url).pathname;

/** The collection, as the project publishes it. */
export const IOFOG_COLLECTION = `${FIXTURE}Controller.postman_collection.json`;

/** The files the collection uploads, by the name its form-data `src` gives (`./test/NAME`). */
export const IOFOG_UPLOADS = [
  "application-test.yaml",
  "application-update-test.yaml",
  "application-template.yaml",
  "application-template-update.yaml",
].map((name) => ({ name, path: `${FIXTURE}${name}` }));

/** Release tooling the controller names but never loads. */
const UNUSED = new Set(["semantic-release", "snyk"]);

/**
 * The checkout `IOFOG_CONTROLLER` names, or why the tests are ignored (in
 * the words servers.ts `unlessAsked` uses).
 *
 * @example
 * ```ts
 * import { iofogCheckout } from "./iofog.ts";
 * const { source, ignoredBecause } = iofogCheckout();
 * if ((source === undefined) === (ignoredBecause === "")) throw new Error();
 * ```
 */
export function iofogCheckout(): { source?: string; ignoredBecause: string } {
  const source = Deno.env.get("IOFOG_CONTROLLER");
  if (source) return { source: source.replace(/\/$/, ""), ignoredBecause: "" };
  return {
    ignoredBecause:
      " [ignored: set IOFOG_CONTROLLER to a checkout of eclipse-iofog/Controller at ccf098c; " +
      "its server is on no registry the tests install from]",
  };
}

/**
 * The controller's npm dependencies at the versions its lockfile resolves:
 * those its `package.json` names but {@linkcode UNUSED}, and `mime`.
 *
 * @example
 * ```ts ignore
 * import { iofogPackages } from "./iofog.ts";
 * const packages = iofogPackages("/src/iofog-controller");
 * ```
 */
export function iofogPackages(source: string): Pinned[] {
  const manifest = JSON.parse(Deno.readTextFileSync(`${source}/package.json`));
  const lock = JSON.parse(Deno.readTextFileSync(`${source}/package-lock.json`));
  return Object.keys(manifest.dependencies as Record<string, string>)
    .filter((name) => !UNUSED.has(name))
    .concat("mime")
    .map((name) => {
      const version = lock.packages?.[`node_modules/${name}`]?.version;
      if (!version) throw new Error(`No version of "${name}" in the controller's lockfile`);
      return { name, version };
    });
}

/**
 * The launch of a fresh controller from `source`, its dependencies
 * installed under `prefix`.
 *
 * @example
 * ```ts
 * import { iofogLaunch } from "./iofog.ts";
 * const launch = iofogLaunch("/src/controller", "/cache/iofog");
 * if (launch.probe !== "/api/v3/status") throw new Error();
 * ```
 */
export function iofogLaunch(source: string, prefix: string): Launch {
  return {
    command: ["node", "-r", `${FIXTURE}loopback.cjs`, "DIR/app/src/server.js"],
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NODE_ENV: "production",
      Server_Port: "PORT",
      VIEWER_PORT: "0",
      DB_NAME: "iofog",
      PID_BASE: "DIR",
      Service_LogsDirectory: "DIR",
    },
    seed: async (dir) => {
      await Deno.mkdir(`${dir}/app`);
      for (const part of ["src", "docs", "package.json"]) {
        await new Deno.Command("cp", { args: ["-R", `${source}/${part}`, `${dir}/app/`] }).output();
      }
      await Deno.symlink(`${prefix}/node_modules`, `${dir}/app/node_modules`);
    },
    origin: (output, port) =>
      output.includes("API Listening") ? `http://127.0.0.1:${port}` : undefined,
    probe: "/api/v3/status",
  };
}

/** Runs `fn` with a fresh controller, stopped whatever happens. */
export async function withIofog<T>(
  source: string,
  prefix: string,
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  const instance = await start(iofogLaunch(source, prefix));
  try {
    return await fn(instance);
  } finally {
    await instance.close();
  }
}
