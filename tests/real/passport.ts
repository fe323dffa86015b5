/**
 * How the tests of tests/real/ start LoopBack's passport login example
 * (`@loopback/example-passport-login` 7.0.17, npm, Node): an Express app
 * with LoopBack 4 mounted at `/api`, local signup and login (a session
 * cookie), Basic auth on its protected routes, its users in an in-memory
 * datasource, on 127.0.0.1 and a port the system picks. Its own OpenAPI
 * 3.0 document is at `/api/openapi.json`.
 *
 * Its third-party logins read a providers file: the package's own test one
 * (`data/oauth2-test-provider.json`), whose provider is a mock server on
 * port 9000 that the test does not start. Without one the app loads
 * `@loopback/mock-oauth2-provider`'s.
 *
 * The registry here lacks four of the versions 7.0.17 asks for (the newest
 * patch of three LoopBack packages, and `@loopback/mock-oauth2-provider`
 * past 0.3.3): `overrides` pin the nearest ones it has. The app itself is
 * 7.0.17 as published.
 *
 * @module
 */
import type { Launch, Pinned } from "./servers.ts";

/** The app, pinned, with the dependencies the registry does not have pinned to ones it has. */
export const PASSPORT: Pinned = {
  name: "@loopback/example-passport-login",
  version: "7.0.17",
  overrides: {
    "@loopback/authentication": "12.0.16",
    "@loopback/mock-oauth2-provider": "0.3.3",
    "@loopback/rest-crud": "0.19.11",
    "@loopback/security": "0.12.15",
  },
};

/** Where the app serves its OpenAPI document. */
export const PASSPORT_DOCUMENT = "/api/openapi.json";

/**
 * The app, installed under `prefix`, on a port the system picks: its
 * `index.js`, which prints `Server is running at http://127.0.0.1:PORT`.
 *
 * @example
 * ```ts
 * import { passportLaunch } from "./passport.ts";
 * if (passportLaunch("/cache/prefix").probe !== "/api/openapi.json") throw new Error();
 * ```
 */
export function passportLaunch(prefix: string): Launch {
  const pkg = `${prefix}/node_modules/${PASSPORT.name}`;
  return {
    command: ["node", `${pkg}/dist/index.js`],
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      OAUTH_PROVIDERS_LOCATION: `${pkg}/data/oauth2-test-provider.json`,
    },
    origin: (out) => /Server is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1],
    probe: PASSPORT_DOCUMENT,
  };
}
