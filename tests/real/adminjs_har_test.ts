/**
 * `convert har` on a journey through an AdminJS panel (tests/real/adminjs.ts, recorded in
 * Chromium by tests/real/adminjs_journey.ts): log in, create two authors, a post by the first,
 * edit the post, list the posts filtered, delete the second author, log out. Both HAR forms are
 * stored in tests/real/fixtures/adminjs/ (the app's script and style bodies left out),
 * converted with the default options and run twice on one fresh panel with only the variables
 * the flow asks for (the password the user typed): every step passes both times, and the
 * second run acts on its own rows, as the panel's tables show afterwards: each run's post
 * revised and by that run's first author, each run's second author deleted.
 *
 * Before 2026-11-27 (docs/real-servers.md) the second run passed its steps but acted on the
 * first run's rows: the ids a create answered (`{"record": {"id": 1, …}}` from
 * `POST …/Authors/actions/new`) were sent as recorded in `…/Posts/records/1/edit`,
 * `…/Authors/records/2/delete` and the form's `authorId`, so it revised the first run's post
 * again, gave its post the first run's author, and deleted nothing
 * (tests/convert/har_sibling_row_id_test.ts).
 */
import assert from "node:assert/strict";
import { passesAsUser } from "./passes_as_user.ts";
import { convertStored } from "./har_login_app.ts";
import { ADMIN, ADMINJS, type Panel, withPanel } from "./adminjs.ts";
import { NAMES } from "./adminjs_journey.ts";
import { prepare, realTest } from "./servers.ts";
import { postgresMissing } from "./unleash.ts";

const postgres = postgresMissing();
const adminjs = postgres ? { ignoredBecause: postgres } : await prepare(ADMINJS);
const FIXTURES = new URL("./fixtures/adminjs/", import.meta.url).pathname;

/** Runs the flow once on `panel` with what it asks; every step must pass. */
function runOn(panel: Panel, flowPath: string, flow: string, label: string) {
  return passesAsUser("adminjs HAR", ADMIN.password, panel.origin, flowPath, flow, label);
}

/** The panel's rows after two runs: each run's own post revised, by its own first author. */
async function ownRows(panel: Panel): Promise<void> {
  const authors = await panel.query('SELECT id, name FROM "Authors" ORDER BY id');
  const posts = await panel.query('SELECT title, published, "authorId" FROM "Posts" ORDER BY id');
  const message = `authors ${authors.join(", ")}; posts ${posts.join(", ")}`;
  // Each run deleted its own second author: two first authors are left.
  const first = NAMES.authors[0][0];
  assert.deepEqual(authors.map((a) => a.split("|")[1]), [first, first], message);
  const ids = authors.map((a) => a.split("|")[0]);
  assert.deepEqual(posts, ids.map((id) => `${NAMES.revised}|t|${id}`), message);
}

for (const form of ["pw", "cdp"]) {
  realTest(
    `an AdminJS panel recorded in Chromium (${form} HAR: log in, two authors, a post, its edit, a delete) passes every step twice on one fresh panel with only the password asked, the second run on its own rows`,
    adminjs.ignoredBecause,
    async (dir) => {
      const har = `${FIXTURES}journey.${form}.har`;
      const { flowPath, flow } = await convertStored({ password: ADMIN.password }, har, dir);
      await withPanel(adminjs.install!.prefix, async (panel) => {
        await runOn(panel, flowPath, flow, `${form} 1`);
        await runOn(panel, flowPath, flow, `${form} 1, again`);
        await ownRows(panel);
      });
    },
  );
}
