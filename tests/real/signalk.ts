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
 * Swagger UI at `/doc/openapi` lists them). Details of a start:
 *
 * - it finds plugins (the resources and course providers) only in
 *   `node_modules` of its config folder or of its own package, where a
 *   global install puts them; npm's install here hoists them, so the config
 *   folder links `node_modules/@signalk` to them;
 * - it listens on every address (`server.listen(port)`), so a preload
 *   (`-r bind.cjs`) gives a listen of a bare port the address 127.0.0.1;
 * - it serves its admin UI from its own package's `node_modules` only, so
 *   that folder links `@signalk/server-admin-ui` to the hoisted one;
 * - it is offline (the same preload): the admin UI's app store, which
 *   searches the npm registry, answers that the store is unavailable;
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

/**
 * Makes a listen on a bare port listen on 127.0.0.1 (the server passes no
 * address), and the server offline, as a boat at sea is: its app store
 * (which the admin UI asks for at every login) searches the npm registry,
 * and a test sends nothing but to 127.0.0.1.
 */
const BIND = `const net = require("net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" && typeof args[1] !== "string") args.splice(1, 0, "127.0.0.1");
  return listen.apply(this, args);
};
const online = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const host = new URL(input instanceof Request ? input.url : String(input)).hostname;
  if (host === "127.0.0.1" || host === "localhost") return online(input, init);
  return Promise.reject(new TypeError("fetch failed (offline: " + host + ")"));
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
 * Links the admin UI where the server serves `/admin/` from: its own
 * package's `node_modules`, where a global install puts it (npm's install
 * here hoists it, and `/admin/` answered 500). Idempotent: test files
 * starting instances at once may both link it.
 */
async function linkAdminUi(prefix: string): Promise<void> {
  const own = `${prefix}/node_modules/${SIGNALK.name}/node_modules/@signalk`;
  await Deno.mkdir(own, { recursive: true });
  try {
    await Deno.symlink(
      `${prefix}/node_modules/@signalk/server-admin-ui`,
      `${own}/server-admin-ui`,
    );
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
}

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
      await linkAdminUi(prefix);
    },
    origin: (out, port) =>
      out.includes(`signalk-server running at 0.0.0.0:${port}`)
        ? `http://127.0.0.1:${port}`
        : undefined,
    probe: "/signalk",
  };
}

/** POSTs `body` as JSON to `path` of `origin`. */
function postJson(origin: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * Makes the first admin, as the admin UI's first-run form does.
 *
 * @example
 * ```ts ignore
 * import { signalkFirstAdmin } from "./signalk.ts";
 * await signalkFirstAdmin("http://127.0.0.1:3000");
 * ```
 */
export async function signalkFirstAdmin(origin: string): Promise<void> {
  const enabled = await postJson(origin, "/skServer/enableSecurity", {
    ...SIGNALK_ADMIN,
    type: "admin",
  });
  if (!enabled.ok) throw new Error(`enableSecurity: ${enabled.status} ${await enabled.text()}`);
  await enabled.body?.cancel();
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
  await signalkFirstAdmin(origin);
  const login = await postJson(origin, "/signalk/v1/auth/login", {
    username: SIGNALK_ADMIN.userId,
    password: SIGNALK_ADMIN.password,
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  return (await login.json()).token;
}
