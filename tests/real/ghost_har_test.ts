/**
 * `convert har` on a journey through Ghost 5's admin (an Ember single-page
 * app over its JSON Admin API; tests/real/ghost.ts, ghost_journey.ts),
 * recorded in Chromium: sign in, write a post (the draft is created, then
 * saved with the `updated_at` the server gave it), publish it, give it a new
 * tag, open the published posts, delete the post, sign out. Both HAR forms
 * are stored in tests/real/fixtures/ghost/ (the app's script, style and
 * image bodies left out), converted with the default options and run on a
 * fresh instance with only what the flow asks for (the owner's password),
 * twice; `--verify` against a fresh instance too.
 *
 * Measured 2026-11-26 on the stored recordings (71 steps): before, 28 of 71
 * (the first edit sent the recorded `updated_at`: 409, the rest skipped;
 * har_server_times_test.ts), then 66 of 71 (the posts list in flight when
 * the user signed out was replayed after the sign-out: 403;
 * har_logout_order_test.ts), then every step, both forms, twice on one
 * instance. Every step passing still sent one id as recorded: the posts'
 * member counts, answered as a map keyed by post id, made that id a "word
 * of the API" (har_keyed_by_id_test.ts); `--verify` repaired it (3
 * repairs), and now passes with none; the created post's id inside a
 * filter (`filter=id:<id>`) is taken from the create too
 * (har_embedded_id_test.ts). A new recording is made in Chromium with
 * `GHOST_FRESH=1` (73 and 72 steps, every one, twice).
 */
import assert from "node:assert/strict";
import { ignoreBrowser } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { hostPaths } from "../support/record_har.ts";
import { journeyPassesTwice, verifiedFlow } from "./har_journey_twice.ts";
import { realTest, unlessAsked } from "./servers.ts";
import { ghostPrefix, OWNER, prepareGhost, withGhost } from "./ghost.ts";
import { recordJourney } from "./ghost_journey.ts";
import { publicRecording } from "./unleash_journey.ts";

const ghost = await prepareGhost();
const FIXTURES = new URL("./fixtures/ghost/", import.meta.url).pathname;

/** The requests the journey must have replayed (method and path, ids as `ID`). */
const JOURNEY = [
  "POST /ghost/api/admin/session",
  "POST /ghost/api/admin/posts/",
  "PUT /ghost/api/admin/posts/ID/",
  "GET /ghost/api/admin/tags/",
  "DELETE /ghost/api/admin/posts/ID/",
  "DELETE /ghost/api/admin/session",
];

/** The value a new user gives each variable the flow asks for: the owner's password. */
const known = (name: string) => /PASSWORD/.test(name) ? OWNER.password : undefined;

/** Converts `har` with the defaults into `dir`/flow.yaml; the summary and the flow. */
async function convert(har: string, dir: string) {
  const flowPath = `${dir}/flow.yaml`;
  const converted = await runCli(["convert", "har", har, "-o", flowPath]);
  assert.equal(converted.code, 0, converted.stderr);
  assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./);
  const flow = await Deno.readTextFile(flowPath);
  assert.ok(!flow.includes(OWNER.password), "the password is asked, never written");
  return { flowPath, flow };
}

/** Runs the flow twice on one fresh instance; asserts every step passed each time. */
async function runTwice(flowPath: string, flow: string, label: string) {
  await withGhost(ghostPrefix, async (g) => {
    await journeyPassesTwice(g.origin, flowPath, flow, known, `ghost HAR ${label}`, {
      requests: JOURNEY,
      path: (pathname) => pathname.replace(/[0-9a-f]{24}/g, "ID"),
    });
  });
}

for (const form of ["pw", "cdp"]) {
  realTest(
    `Ghost 5's admin recorded in Chromium (journey.${form}.har: sign in, write, publish, tag, list, delete a post, sign out) passes every step twice on a fresh instance with only the password asked`,
    ghost.ignoredBecause,
    async (dir) => {
      const har = `${FIXTURES}journey.${form}.har`;
      assert.deepEqual(hostPaths(await Deno.readTextFile(har)), []);
      const { flowPath, flow } = await convert(har, dir);
      // The edits send the time the server last gave the post, never the recorded one, and no
      // id the server made is sent as recorded (in a map's keys, in a filter: none).
      assert.match(flow, /updated_at: \$\{steps\.\w+\.capture\.\w+\}/, flow);
      const sent = flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
      assert.deepEqual(sent.match(/\b[0-9a-f]{24}\b/g) ?? [], [], flow);
      await runTwice(flowPath, flow, form);
    },
  );
}

realTest(
  "Ghost: --verify against a fresh instance passes every step and the flow it writes passes on another",
  ghost.ignoredBecause,
  async (dir) => {
    const flowPath = `${dir}/verified.yaml`;
    const har = `${FIXTURES}journey.pw.har`;
    const flow = await verifiedFlow(
      "ghost",
      har,
      flowPath,
      OWNER.password,
      (convert) => withGhost(ghostPrefix, (g) => convert(g.origin)),
    );
    await runTwice(flowPath, flow, "verified");
  },
);

realTest(
  "Ghost: a journey recorded now in Chromium passes on a fresh instance",
  ghost.ignoredBecause + unlessAsked("GHOST_FRESH"),
  async (dir) => {
    const recorded = await withGhost(ghostPrefix, (g) => recordJourney(g.origin));
    for (const [form, har] of [["pw", recorded.playwright], ["cdp", recorded.chromeHar]]) {
      const text = publicRecording(har);
      assert.deepEqual(hostPaths(text), []);
      await Deno.mkdir(`${dir}/${form}`);
      await Deno.writeTextFile(`${dir}/${form}/journey.har`, text);
      const { flowPath, flow } = await convert(`${dir}/${form}/journey.har`, `${dir}/${form}`);
      await runTwice(flowPath, flow, `fresh ${form}`);
    }
  },
  ignoreBrowser,
);
