/**
 * How the tests of tests/real/ start Verdaccio (the private npm registry,
 * installed from npm): a registry with no uplink (nothing leaves the
 * machine), its storage and its users (`htpasswd`, created by `npm adduser`'s
 * `PUT /-/user/org.couchdb.user:NAME`) in the instance's own folder, anyone
 * may read, a signed-in user may publish.
 *
 * @module
 */
import type { Launch, Pinned } from "./servers.ts";

/** 6.8.0 runs on Node 20 (6.10 wants 22); its `node-fetch@cjs` no longer resolves, so 2.7.0. */
export const VERDACCIO: Pinned = {
  name: "verdaccio",
  version: "6.8.0",
  overrides: { "node-fetch": "2.7.0" },
};

/**
 * A fresh registry's launch, from its install's prefix.
 *
 * @example
 * ```ts
 * import { verdaccioLaunch } from "./verdaccio.ts";
 * if (verdaccioLaunch("/p").probe !== "/-/ping") throw new Error();
 * ```
 */
export function verdaccioLaunch(prefix: string): Launch {
  return {
    command: [
      "node",
      `${prefix}/node_modules/verdaccio/bin/verdaccio`,
      "--config",
      "DIR/config.yaml",
      "--listen",
      "127.0.0.1:PORT",
    ],
    seed: async (dir) => {
      await Deno.mkdir(`${dir}/storage`);
      await Deno.writeTextFile(
        `${dir}/config.yaml`,
        [
          `storage: ${dir}/storage`,
          `auth: { htpasswd: { file: ${dir}/htpasswd, max_users: 10 } }`,
          "uplinks: {}",
          "packages: { '**': { access: $all, publish: $authenticated } }",
          "web: { enable: true }",
          "log: { type: stdout, format: pretty, level: warn }",
          "",
        ].join("\n"),
      );
    },
    origin: (out, port) => out.includes("http address") ? `http://127.0.0.1:${port}` : undefined,
    probe: "/-/ping",
  };
}
