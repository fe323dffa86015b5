/**
 * How the tests of tests/real/ start Homebridge UI (npm
 * `homebridge-config-ui-x`, a NestJS app on Fastify that documents its REST
 * API with `@nestjs/swagger`) on 127.0.0.1, standalone, with a storage
 * folder of its own, as a user sets it up: the first user is made by the
 * set-up wizard's route (`POST /api/setup-wizard/create-first-user`), and
 * signs in at `POST /api/auth/login`, which answers an `access_token`.
 *
 * Pinned at 5.10.0 with `homebridge` 1.11.4: the newest of each whose
 * `engines` take the machine's Node 20 (UI 5.28 and homebridge 2 want Node
 * 22). Its `@homebridge/node-pty-prebuilt-multiarch` ships prebuilt
 * bindings; nothing else builds.
 *
 * Started by the package's own `dist/bin/standalone.js -U DIR` (what
 * `hb-service` runs beside Homebridge), which reads `DIR/config.json`: the
 * UI's platform block (`platform: "config"`) gives its port and host, so
 * the start writes the port the harness chose into it. Nothing reaches off
 * the machine: the UI asks npm, GitHub and nodejs.org for plugins, release
 * notes and updates (with axios, which reads `HTTPS_PROXY`) and installs
 * plugins with npm, so the instance's proxies point at a port nobody
 * listens on and npm is offline. Three more guards, since some of its
 * operations act on the machine (the converter leaves them out; these hold
 * if it did not):
 *
 * - the UI's own `linux.restart` and `linux.shutdown` commands (what its
 *   "restart host" and "shutdown host" run instead of `sudo -n shutdown`)
 *   are `true`;
 * - the instance's `PATH` begins with a folder whose `sudo` refuses (its
 *   Docker "restart container" runs `sudo kill 1`);
 * - no mDNS advertisement.
 *
 * Its Swagger UI is at `/swagger`, the JSON beside it at `/swagger-json`
 * (`SwaggerModule.setup('swagger', …)` in `dist/main.js`; the global `/api`
 * prefix is not applied to it).
 *
 * @module
 */
import type { Launch, Pinned } from "./servers.ts";

/** Homebridge, and its UI (see the module doc for the versions). */
export const HOMEBRIDGE: Pinned[] = [
  { name: "homebridge", version: "1.11.4" },
  { name: "homebridge-config-ui-x", version: "5.10.0" },
];

/** Where the UI serves its OpenAPI document. */
export const HOMEBRIDGE_DOCUMENT = "/swagger-json";

/** The first user, as the user types it in the set-up wizard. */
export const HOMEBRIDGE_ADMIN = {
  username: "admin",
  name: "Admin",
  password: "flowrun-test-admin-pass",
};

/** A proxy nobody listens on (the discard port of 127.0.0.1): a request through it is refused. */
const NO_ROUTE = "http://127.0.0.1:9";

/** The instance's `config.json`; `@port@` becomes the port at the start. */
const CONFIG = {
  bridge: { name: "Homebridge", username: "0E:11:22:33:44:55", port: 51826, pin: "031-45-154" },
  accessories: [],
  platforms: [{
    platform: "config",
    name: "Config",
    port: "@port@",
    host: "127.0.0.1",
    enableMdnsAdvertise: false,
    linux: { restart: "true", shutdown: "true" },
  }],
};

/**
 * The UI installed under `prefix`, standalone, with the instance's folder
 * as its storage; a port that was free a moment before.
 *
 * @example
 * ```ts
 * import { homebridgeLaunch } from "./homebridge.ts";
 * const launch = homebridgeLaunch("/cache/prefix");
 * if (!launch.command.join(" ").includes("standalone.js -U DIR")) throw new Error();
 * ```
 */
export function homebridgeLaunch(prefix: string): Launch {
  const ui = `${prefix}/node_modules/homebridge-config-ui-x`;
  const config = JSON.stringify(CONFIG).replace('"@port@"', "@port@");
  return {
    // The port is known only at the start: it is written into the config the UI reads.
    command: [
      "sh",
      "-c",
      `sed -i s/@port@/PORT/ DIR/config.json && exec node ${ui}/dist/bin/standalone.js -U DIR`,
    ],
    env: {
      PATH: `DIR/bin:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      // The UI finds `homebridge` (its version, its plugins) beside itself.
      UIX_CUSTOM_PLUGIN_PATH: `${prefix}/node_modules`,
      TZ: "UTC",
      // Nothing reaches off the machine: its npm lookups, release notes and Node.js update check
      // (axios) go to a proxy that refuses, and npm installs nothing (offline).
      HTTP_PROXY: NO_ROUTE,
      HTTPS_PROXY: NO_ROUTE,
      NO_PROXY: "127.0.0.1,localhost",
      npm_config_offline: "true",
      npm_config_proxy: NO_ROUTE,
      npm_config_https_proxy: NO_ROUTE,
    },
    seed: async (dir) => {
      await Deno.writeTextFile(`${dir}/config.json`, config);
      await Deno.mkdir(`${dir}/bin`);
      await Deno.writeTextFile(`${dir}/bin/sudo`, "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    },
    origin: (out, port) =>
      out.includes(`listening on 127.0.0.1 port ${port}`) ? `http://127.0.0.1:${port}` : undefined,
    probe: "/api/auth/settings",
  };
}

/**
 * Makes the first user by the set-up wizard's route, as a user does on a
 * fresh instance; throws with the answer when it refuses.
 *
 * @example
 * ```ts ignore
 * import { homebridgeFirstUser } from "./homebridge.ts";
 * await homebridgeFirstUser("http://127.0.0.1:8581");
 * ```
 */
export async function homebridgeFirstUser(origin: string): Promise<void> {
  const made = await fetch(`${origin}/api/setup-wizard/create-first-user`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(HOMEBRIDGE_ADMIN),
  });
  if (!made.ok) throw new Error(`create-first-user: ${made.status} ${await made.text()}`);
  await made.body?.cancel();
}
