/**
 * How the tests of tests/real/ start Parse Server (npm `parse-server`) with Parse Dashboard (npm
 * `parse-dashboard`) in one Express app, as their READMEs set them up: `ParseServer` mounted at
 * `/parse` on a throwaway PostgreSQL 15 cluster (tests/real/unleash.ts's `startDatabase`), with
 * an app id and a master key the test chooses and `masterKeyIps` allowing 127.0.0.1; the
 * dashboard at `/dashboard` with one user and `allowInsecureHTTP` (plain HTTP on 127.0.0.1).
 * The dashboard's page reads `/dashboard/parse-dashboard-config.json`, whose answer (once logged
 * in) holds the app id and the master key; its Parse SDK then sends both to `/parse` in every
 * call. Nothing leaves 127.0.0.1.
 *
 * @module
 */
import type { Instance, Launch, Pinned } from "./servers.ts";
import { withOnDatabase } from "./unleash.ts";

/** The packages a user installs, at the versions `npm install` chose on 2026-11-28. */
export const PARSE: readonly Pinned[] = [
  { name: "parse-server", version: "9.10.0" },
  { name: "parse-dashboard", version: "9.2.0" },
  { name: "express", version: "5.2.1" },
];

/** The dashboard's user, and the app's keys the person who set it up chose. */
export const PARSE_SETUP = {
  user: "admin",
  pass: "Quartz-Harbour-58",
  appId: "flowrun-journal",
  masterKey: "mk-Ember-Lantern-9431",
};

/** The server, as its users write it; `DATABASE_URI`, `MASTER_KEY`, `DASHBOARD_PASS`, `PORT` from the environment. */
const APP = `const express = require("express");
const { ParseServer } = require("parse-server");
const ParseDashboard = require("parse-dashboard");
const port = Number(process.env.PORT);
const serverURL = "http://127.0.0.1:" + port + "/parse";
(async () => {
  const server = new ParseServer({
    databaseURI: process.env.DATABASE_URI,
    appId: "${PARSE_SETUP.appId}",
    masterKey: process.env.MASTER_KEY,
    masterKeyIps: ["127.0.0.1", "::1", "::ffff:127.0.0.1"],
    serverURL,
    allowClientClassCreation: false,
    enableInsecureAuthAdapters: false,
  });
  await server.start();
  const dashboard = new ParseDashboard({
    apps: [{ serverURL, appId: "${PARSE_SETUP.appId}", masterKey: process.env.MASTER_KEY, appName: "Journal" }],
    users: [{ user: "${PARSE_SETUP.user}", pass: process.env.DASHBOARD_PASS }],
  }, { allowInsecureHTTP: true, cookieSessionSecret: "flowrun-test-cookie-secret" });
  const app = express();
  app.use("/parse", server.app);
  app.use("/dashboard", dashboard);
  app.listen(port, "127.0.0.1", () => console.log("listening", port));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/**
 * Parse Server and its dashboard installed under `prefix`, on the database at `url`.
 *
 * @example
 * ```ts
 * import { parseLaunch } from "./parse.ts";
 * const launch = parseLaunch("/cache/prefix", "postgres://u@127.0.0.1:5432/d");
 * if (launch.command[0] !== "node" || launch.env?.DATABASE_URI !== "postgres://u@127.0.0.1:5432/d") {
 *   throw new Error();
 * }
 * ```
 */
export function parseLaunch(prefix: string, url: string): Launch {
  return {
    command: ["node", "--preserve-symlinks", "DIR/app.cjs"],
    env: {
      DATABASE_URI: url,
      MASTER_KEY: PARSE_SETUP.masterKey,
      DASHBOARD_PASS: PARSE_SETUP.pass,
      PORT: "PORT",
      TZ: "UTC",
    },
    seed: async (dir) => {
      await Deno.writeTextFile(`${dir}/app.cjs`, APP);
      // The app's requires resolve from its own folder: the cached install's packages.
      await Deno.symlink(`${prefix}/node_modules`, `${dir}/node_modules`);
    },
    origin: (text, port) =>
      text.includes(`listening ${port}`) ? `http://127.0.0.1:${port}` : undefined,
    probe: "/parse/health",
    // The schema tables and the dashboard's bundle take a while on a busy machine.
    polls: 1200,
  };
}

/**
 * Runs `fn` with a fresh Parse Server and dashboard on a fresh database, both stopped and
 * removed whatever happens; the start is tried twice on a busy machine.
 *
 * @example
 * ```ts ignore
 * import { start } from "./servers.ts";
 * import { withParse } from "./parse.ts";
 * await withParse("/cache/prefix", start, (s) => fetch(`${s.origin}/parse/health`));
 * ```
 */
export function withParse<T>(
  prefix: string,
  start: (launch: Launch) => Promise<Instance>,
  fn: (instance: Instance) => Promise<T>,
): Promise<T> {
  return withOnDatabase((url) => parseLaunch(prefix, url), start, fn, 2);
}
