/**
 * How the tests of tests/real/ start Signal K server (npm `signalk-server`,
 * the marine data server, pure JavaScript) on 127.0.0.1 with a config
 * folder of its own and security on, as a user sets it up: started with
 * `--securityenabled`, the first admin made by the admin UI's first-run form
 * (`POST /skServer/enableSecurity`), and a token from the login of its
 * security API, which the flows send as the `JAUTHENTICATION` cookie the
 * documents declare.
 *
 * Pinned at 2.23.0: 2.32.0, the latest, cannot be installed from the
 * registry here (it asks for `@signalk/streams` 6.9.x, which the registry
 * lacks: `ETARGET`); 2.23.0 is the newest version it holds, and asks for
 * Node 20 (`engines`). Its optional dependencies install with no build
 * (serialport ships prebuilt bindings; mdns is off in the settings).
 *
 * The server serves one OpenAPI document per API at `/skServer/openapi/NAME`
 * and one per plugin that has one at `/skServer/openapi/plugins/ID` (its
 * Swagger UI at `/doc/openapi` lists them). Three details of a start:
 *
 * - it finds plugins (the resources and course providers) only in
 *   `node_modules` of its config folder or of its own package, where a
 *   global install puts them; npm's install here hoists them, so the config
 *   folder links `node_modules/@signalk` to them;
 * - it listens on every address (`server.listen(port)`), so a preload
 *   (`-r bind.cjs`) gives a listen of a bare port the address 127.0.0.1;
 * - its NMEA and Signal K TCP interfaces (fixed ports 10110 and 8375),
 *   mDNS and its update check are off;
 * - it is fed the package's own sample NMEA 0183 log
 *   (`--sample-nmea0183-data`), as a boat's GPS feeds it: the course API
 *   refuses a destination while the vessel has no position.
 *
 * @module
 */
import type { Launch, Pinned } from "./servers.ts";

/** Signal K server's npm package (see the module doc for why 2.23.0). */
export const SIGNALK: Pinned = { name: "signalk-server", version: "2.23.0" };

/**
 * The documents the instance serves (under `/skServer/openapi/`), with the
 * number of operations each has: the APIs, then the plugins'.
 */
export const SIGNALK_DOCUMENTS: Record<string, number> = {
  discovery: 2,
  apps: 4,
  autopilot: 23,
  course: 15,
  notifications: 2,
  resources: 29,
  weather: 7,
  security: 7,
  history: 6,
  radar: 9,
  "plugins/resources-provider": 3,
  "plugins/freeboard-sk": 5,
};

/** The first admin's user name and password, as the user types them in the first-run form. */
export const SIGNALK_ADMIN = { userId: "admin", password: "flowrun-test-admin-pass" };

/** Makes a listen on a bare port listen on 127.0.0.1 (the server passes no address). */
const BIND = `const net = require("net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" && typeof args[1] !== "string") args.splice(1, 0, "127.0.0.1");
  return listen.apply(this, args);
};
`;

/** The settings: no TCP interfaces on fixed ports, no mDNS, no data providers. */
const SETTINGS = {
  interfaces: { tcp: false, "nmea-tcp": false },
  mdns: false,
  ssl: false,
  pipedProviders: [],
};

/**
 * Signal K server installed under `prefix`, security on, its config folder
 * the instance's; a port that was free a moment before.
 *
 * @example
 * ```ts
 * import { signalkLaunch } from "./signalk.ts";
 * const launch = signalkLaunch("/cache/prefix");
 * if (!launch.command.includes("--securityenabled")) throw new Error();
 * ```
 */
export function signalkLaunch(prefix: string): Launch {
  const pkg = `${prefix}/node_modules/${SIGNALK.name}`;
  return {
    command: [
      "node",
      "-r",
      "DIR/bind.cjs",
      `${pkg}/bin/signalk-server`,
      "-c",
      "DIR",
      "--securityenabled",
      "--sample-nmea0183-data",
    ],
    env: { PORT: "PORT", SIGNALK_DISABLE_SERVER_UPDATES: "1", TZ: "UTC" },
    seed: async (dir) => {
      await Deno.writeTextFile(`${dir}/bind.cjs`, BIND);
      await Deno.writeTextFile(`${dir}/settings.json`, JSON.stringify(SETTINGS, null, 2));
      await Deno.mkdir(`${dir}/node_modules`);
      await Deno.symlink(`${prefix}/node_modules/@signalk`, `${dir}/node_modules/@signalk`);
    },
    origin: (out, port) =>
      out.includes(`signalk-server running at 0.0.0.0:${port}`)
        ? `http://127.0.0.1:${port}`
        : undefined,
    probe: "/signalk",
  };
}

/**
 * Makes the first admin (the first-run form) and logs in as it; resolves
 * to the token the login answers, which the flows send as `API_KEY`.
 *
 * @example
 * ```ts ignore
 * import { signalkToken } from "./signalk.ts";
 * const token = await signalkToken("http://127.0.0.1:3000");
 * ```
 */
export async function signalkToken(origin: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const enabled = await post("/skServer/enableSecurity", { ...SIGNALK_ADMIN, type: "admin" });
  if (!enabled.ok) throw new Error(`enableSecurity: ${enabled.status} ${await enabled.text()}`);
  await enabled.body?.cancel();
  const login = await post("/signalk/v1/auth/login", {
    username: SIGNALK_ADMIN.userId,
    password: SIGNALK_ADMIN.password,
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  return (await login.json()).token;
}
