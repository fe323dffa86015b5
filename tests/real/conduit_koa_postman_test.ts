/**
 * `convert postman` on the RealWorld project's own Postman collection
 * (`fixtures/conduit/Conduit.postman_collection.json`) against a SECOND real
 * RealWorld backend, written by others than the first (conduit_koa.ts: Koa +
 * Knex), compared with Newman as conduit_postman_test.ts does against the
 * first (realworld_postman.ts). The same for the older form of the
 * collection the backend's repository ships (2019: 31 requests, other
 * scripts), as its `run-api-tests.sh` runs it.
 */
import { CONDUIT_COLLECTION } from "./conduit.ts";
import { conduitKoaPackages, KOA_COLLECTION, withConduitKoa } from "./conduit_koa.ts";
import { compare, measurePostman } from "./realworld_postman.ts";
import { prepare, realTest, start } from "./servers.ts";
import { postgresMissing } from "./unleash.ts";

const postgres = postgresMissing();
const prepared = postgres ? { ignoredBecause: postgres } : await prepare(conduitKoaPackages());
const backend = <T>(fn: Parameters<typeof withConduitKoa<T>>[2]) =>
  withConduitKoa(prepared.install!.prefix, start, fn);

realTest(
  "the RealWorld project's own Postman collection, converted and run against a second RealWorld backend (Koa + Knex), sends Newman's requests in Newman's order with Newman's check outcomes",
  prepared.ignoredBecause,
  // 2026-11-26: Newman 304 to 306 of 307 checks pass (printed: the backend's, not a runner's).
  async (dir) =>
    compare(
      "Koa + Knex",
      "the project's own collection",
      await measurePostman(dir, CONDUIT_COLLECTION, backend),
      32,
      307,
    ),
);

realTest(
  "the older RealWorld collection the backend's repository ships (2019), converted and run against it, sends Newman's requests with Newman's check outcomes",
  prepared.ignoredBecause,
  // 2026-11-26: Newman 275 of 276 checks pass (the feed's 500).
  async (dir) =>
    compare(
      "Koa + Knex",
      "its repository's collection",
      await measurePostman(dir, KOA_COLLECTION, backend),
      31,
      276,
    ),
);
