/**
 * How the tests of tests/real/ start a Vendure server (npm `@vendure/core` 3.7.3) with its
 * admin UI (`@vendure/admin-ui-plugin`'s prebuilt Angular app at `/admin`), as its users set one
 * up: a few lines that call `bootstrap` with a config (the admin API at `/admin-api`, the
 * session token sent as a bearer token, answered in the `vendure-auth-token` header; a
 * superadmin whose password comes from the environment) through the `populate` helper of
 * `@vendure/core/cli` with a small initial data set (one zone, one country, one tax rate), so
 * a product's variant has a tax category. The database is `sql.js` in the instance's folder,
 * its tables made by `synchronize`. Telemetry is off: no traffic leaves 127.0.0.1.
 *
 * @module
 */
import { type Instance, type Launch, type Pinned, start, withRetriedStart } from "./servers.ts";

/** The packages a user installs, at the versions `npm install` chose on 2026-11-27. */
export const VENDURE: readonly Pinned[] = [
  { name: "@vendure/core", version: "3.7.3" },
  { name: "@vendure/admin-ui-plugin", version: "3.7.3" },
  { name: "sql.js", version: "1.16.0" },
];

/** The server's superadmin. */
export const SUPERADMIN = { username: "superadmin", password: "Harbour-Lights-42" };

/** The server, as its users write it; `DATA_DIR`, `SUPERADMIN_PASSWORD` and `PORT` from the environment. */
const APP = `const path = require("node:path");
const { bootstrap, DefaultSearchPlugin, dummyPaymentHandler, LanguageCode } = require("@vendure/core");
const { populate } = require("@vendure/core/cli");
const { AdminUiPlugin } = require("@vendure/admin-ui-plugin");
const port = Number(process.env.PORT);
const config = {
  apiOptions: { hostname: "127.0.0.1", port, adminApiPath: "admin-api", shopApiPath: "shop-api" },
  authOptions: {
    tokenMethod: "bearer",
    superadminCredentials: { identifier: "${SUPERADMIN.username}", password: process.env.SUPERADMIN_PASSWORD },
  },
  dbConnectionOptions: {
    type: "sqljs",
    synchronize: true,
    location: path.join(process.env.DATA_DIR, "vendure.sqlite"),
    autoSave: true,
    logging: false,
  },
  paymentOptions: { paymentMethodHandlers: [dummyPaymentHandler] },
  plugins: [DefaultSearchPlugin.init({}), AdminUiPlugin.init({ route: "admin", port: port + 1 })],
};
const initialData = {
  defaultLanguage: LanguageCode.en,
  defaultZone: "Europe",
  taxRates: [{ name: "Standard Tax", percentage: 20 }],
  shippingMethods: [],
  paymentMethods: [],
  countries: [{ name: "United Kingdom", code: "GB", zone: "Europe" }],
  collections: [],
};
populate(() => bootstrap(config), initialData).then(
  () => console.log("listening", port),
  (e) => { console.error(e); process.exit(1); },
);
`;

/** The launch of the server installed at `prefix`. */
function launchOn(prefix: string): Launch {
  return {
    command: ["node", "--preserve-symlinks", "DIR/app.cjs"],
    env: {
      DATA_DIR: "DIR",
      SUPERADMIN_PASSWORD: SUPERADMIN.password,
      PORT: "PORT",
      VENDURE_DISABLE_TELEMETRY: "true",
    },
    seed: async (dir) => {
      await Deno.writeTextFile(`${dir}/app.cjs`, APP);
      // The app's requires resolve from its own folder: the cached install's packages.
      await Deno.symlink(`${prefix}/node_modules`, `${dir}/node_modules`);
    },
    origin: (text, port) =>
      text.includes(`listening ${port}`) ? `http://127.0.0.1:${port}` : undefined,
    probe: "/health",
    // Nest's boot, the tables and the initial data take about 30 s on a busy machine.
    polls: 1800,
  };
}

/**
 * Runs `fn` with a fresh server, stopped and removed whatever happens; the start (the tables,
 * the initial data) is tried three times on a busy machine.
 *
 * @example
 * ```ts ignore
 * import { withVendure } from "./vendure.ts";
 * await withVendure("/cache/prefix", (server) => fetch(`${server.origin}/health`));
 * ```
 */
export function withVendure<T>(prefix: string, fn: (server: Instance) => Promise<T>): Promise<T> {
  return withRetriedStart(start, () => launchOn(prefix), fn);
}
