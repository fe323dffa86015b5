/**
 * A third RealWorld "Conduit" backend for the tests of tests/real/: the
 * Moleculer implementation the RealWorld project lists
 * (gothinkster/moleculer-node-realworld-example-app, MIT, Ice Services;
 * source vendored in `fixtures/conduit_moleculer/server/` from its commit
 * 6ed71b6, without its web front end), microservices behind
 * `moleculer-web`'s gateway, its data in NeDB files in the instance's own
 * folder (its store when no `MONGO_URI` is set): no database server. Its
 * ids are NeDB's (`XV7i2kbdCMIvXV70`), a create answers 200, and nothing
 * is rate-limited.
 *
 * Its npm dependencies are the exact versions its `package.json` pins,
 * `moleculer` at the newest of its `^0.11.0` (it ships no lockfile), with
 * these changes, each so that the install is pure npm on Node 20 (see
 * `fixtures/conduit_moleculer/SOURCE.txt`): `bcrypt` 1.0.3 (its addon is
 * downloaded or built at install) is 6.0.0, which ships it, with the same
 * `hashSync` and `compare`; `moleculer-db-adapter-mongo` and `nats` (for
 * MongoDB and a NATS transporter, neither used here) are left out;
 * `mkdirp`, which its store requires and its `package.json` does not
 * name, is added. Started as its `npm start` does (`moleculer-runner`), on
 * `IP`:`PORT` (127.0.0.1 and a free port).
 *
 * @module
 */
import type { Instance, Launch, Pinned } from "./servers.ts";

const FIXTURE = new URL("./fixtures/conduit_moleculer/", import.meta.url).pathname;

/** The pinned versions, but for the changes above. */
const RESOLVED: Record<string, string> = {
  bcrypt: "6.0.0",
  jsonwebtoken: "8.1.0",
  lodash: "4.17.4",
  moleculer: "0.11.9",
  "moleculer-db": "0.7.0",
  "moleculer-web": "0.6.0-beta7",
  slug: "0.9.1",
  mkdirp: "0.5.1",
};

/** Dependencies its `package.json` names that this backend never loads here. */
const UNUSED = new Set(["moleculer-db-adapter-mongo", "nats"]);

/**
 * The backend's npm dependencies, pinned: those its `package.json` names
 * but {@linkcode UNUSED}, and `mkdirp`.
 *
 * @example
 * ```ts
 * import { conduitMoleculerPackages } from "./conduit_moleculer.ts";
 * if (conduitMoleculerPackages().some((p) => p.name === "nats")) throw new Error();
 * ```
 */
export function conduitMoleculerPackages(): Pinned[] {
  const manifest = JSON.parse(Deno.readTextFileSync(`${FIXTURE}server/package.json`));
  return Object.keys(manifest.dependencies as Record<string, string>)
    .filter((name) => !UNUSED.has(name))
    .concat("mkdirp")
    .map((name) => {
      if (!RESOLVED[name]) throw new Error(`No pinned version for "${name}"`);
      return { name, version: RESOLVED[name] };
    });
}

/**
 * The backend with its dependencies under `prefix`, its NeDB files in the
 * instance's folder (the working directory), on 127.0.0.1 and a port that
 * was free a moment before.
 *
 * @example
 * ```ts
 * import { conduitMoleculerLaunch } from "./conduit_moleculer.ts";
 * const launch = conduitMoleculerLaunch("/cache/prefix");
 * if (launch.env?.IP !== "127.0.0.1" || launch.probe !== "/api/tags") throw new Error();
 * ```
 */
export function conduitMoleculerLaunch(prefix: string): Launch {
  return {
    command: [
      "node",
      `${prefix}/node_modules/moleculer/bin/moleculer-runner.js`,
      "--config",
      `${FIXTURE}server/moleculer.config.js`,
      `${FIXTURE}server/services`,
    ],
    env: {
      // The vendored source finds its packages in the cached install.
      NODE_PATH: `${prefix}/node_modules`,
      IP: "127.0.0.1",
      PORT: "PORT",
    },
    origin: (_output, port) => `http://127.0.0.1:${port}`,
    probe: "/api/tags",
  };
}

/** Runs `fn` with a fresh backend, stopped and removed whatever happens. */
export async function withConduitMoleculer<T>(
  prefix: string,
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  const instance = await start(conduitMoleculerLaunch(prefix));
  try {
    return await fn(instance);
  } finally {
    await instance.close();
  }
}
