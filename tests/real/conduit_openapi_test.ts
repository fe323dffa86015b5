/**
 * `convert openapi` on the RealWorld project's own OpenAPI documents against
 * a real RealWorld backend (conduit.ts; issue 52's case): the 3.1 document
 * (`fixtures/openapi/inferred/conduit.yaml`, the project's `api/openapi.yml`,
 * 19 operations) and its 3.0 form (`conduit-3.0.yaml`), each converted with
 * default options and run as the summary prints it, with only the variables
 * it asks for (`BASE_URL`), on a fresh instance, then run again on the same
 * instance (what a user does next: the accounts and articles are the run's
 * own), by realworld_openapi.ts. Measured: the operations that got a 2xx on
 * each run; today's count is the floor. No flow holds a credential: every
 * email, username and password is made per run. `REAL_KEEP=DIR` keeps the
 * flows and reports.
 */
import { conduitPackages, withConduit } from "./conduit.ts";
import { measureOpenApi, type RealWorldBackend } from "./realworld_openapi.ts";
import { prepare, realTest, start } from "./servers.ts";
import { postgresMissing } from "./unleash.ts";

const postgres = postgresMissing();
const conduit = postgres ? { ignoredBecause: postgres } : await prepare(conduitPackages());

/**
 * The operations accepted on 2026-11-26, on each run: all 19 of both documents (17 of the 3.1, 16
 * of the 3.0 before that day's fixes: an update of a required member sent `{}`; the 3.0's
 * `profile` and `Profile` were two flows, so the unfollow ran where nothing was followed). A second
 * run also needs few sign-ups and logins: the backend allows 20 per address per 15 minutes
 * (`express-rate-limit` in its users router), and each flow signed up and logged in (the 3.0's
 * second run got 429 on its last logins: 17); a flow that does not test the login now reads the
 * token its sign-up answers.
 */
const FLOOR = 19;

const backend: RealWorldBackend = {
  label: "Express + Bookshelf",
  with: (fn) => withConduit(conduit.install!.prefix, start, fn),
  floor: FLOOR,
  broken: [],
};

realTest(
  `the RealWorld project's OpenAPI 3.1 document, converted and run twice on a real RealWorld backend, gets a 2xx on all ${FLOOR} of its operations each run, with no literal credential`,
  conduit.ignoredBecause,
  (dir) => measureOpenApi(backend, "conduit.yaml", dir),
);

realTest(
  `the RealWorld project's OpenAPI 3.0 document, converted and run twice on a real RealWorld backend, gets a 2xx on all ${FLOOR} of its operations each run, with no literal credential`,
  conduit.ignoredBecause,
  (dir) => measureOpenApi(backend, "conduit-3.0.yaml", dir),
);
