/**
 * `convert postman` on a real project's own Postman collection against its
 * real server: the RealWorld project's `Conduit.postman_collection.json`
 * (32 requests whose test scripts chain the login's token and the new
 * article's slug and comment id through `pm.globals.set`, in Postman's
 * legacy `tests[...] =` form) against a RealWorld backend (conduit.ts),
 * compared with Newman by realworld_postman.ts: the same requests in the
 * same order with the same bodies and statuses, and every check Newman ran
 * with Newman's outcome.
 */
import assert from "node:assert/strict";
import { CONDUIT_COLLECTION, conduitPackages, withConduit } from "./conduit.ts";
import { compare, type Measured, measurePostman } from "./realworld_postman.ts";
import { prepare, realTest, start } from "./servers.ts";
import { postgresMissing } from "./unleash.ts";

const postgres = postgresMissing();
const conduit = postgres ? { ignoredBecause: postgres } : await prepare(conduitPackages());
const backend = <T>(fn: Parameters<typeof withConduit<T>>[2]) =>
  withConduit(conduit.install!.prefix, start, fn);

/** {@linkcode compare}, and every check's verdict the same even where a listing's order differs. */
function sameAsNewman(what: string, m: Measured, checks: number) {
  compare("Express + Bookshelf", what, m, 32, checks);
  assert.deepEqual(m.flowrunChecks, m.newmanChecks);
}

realTest(
  "the RealWorld project's own Postman collection, converted and run against a RealWorld backend, sends Newman's requests in Newman's order with Newman's check outcomes",
  conduit.ignoredBecause,
  async (dir) =>
    sameAsNewman(
      "the project's own collection",
      await measurePostman(dir, CONDUIT_COLLECTION, backend),
      294,
    ),
);

realTest(
  "the RealWorld collection with an environment that sets isIntegrationTest skips the checks it guards, as Newman does",
  conduit.ignoredBecause,
  // The project's integration environment set it (api/, until 2018): 6 requests' checks are off.
  async (dir) =>
    sameAsNewman(
      "isIntegrationTest set",
      await measurePostman(dir, CONDUIT_COLLECTION, backend, { isIntegrationTest: "true" }),
      264,
    ),
);
