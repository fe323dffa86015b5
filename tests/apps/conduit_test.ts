/**
 * Issue 40's "done when": the RealWorld ("Conduit") Postman collection,
 * migrated to flowrun without a copied check block (tests/apps/conduit), runs
 * green against an in-memory Conduit with exactly the collection's 32
 * requests, at --jobs 1 and --jobs 4, and its reports say so. A server that
 * sends `favoritesCount` as a string fails the run at the one place the
 * article checks are written.
 */
import assert from "node:assert/strict";
import { startConduit } from "./conduit/server.ts";
import { runCli } from "../support/cli.ts";

const ROOT = "tests/apps/conduit";
/** Where the article checks are written, once; a wrong favoritesCount must point there. */
const ARTICLE_CHECKS = `${ROOT}/checks/article.yaml`;
/** Postman's collection: 5 auth, 4 article listings, 18 article/favorite/comment, 4 profile, 1 tag request. */
const REQUESTS = 32;
/**
 * Checks evaluated on a green run, the public listings aside (Newman counts 323 for
 * its own scripts).
 */
const ASSERTIONS = 290;
/**
 * Checks of one public listing ("articles" flow): it runs beside the flow that creates the
 * run's one article, so it sees no article (the else branch) or that one.
 */
const LISTING = [5, 17];
/**
 * Include steps with checks of their own on the listing they include: each is reported as a
 * step of its own after the included one, and sends nothing.
 */
const CHECKED_INCLUDES = [
  "articles_by_tag",
  "articles_favorited_by_username",
  "articles_favorited_by_username_with_auth",
];

interface Assertion {
  passed: boolean;
  name?: string;
  file?: string;
  line?: number;
  message: string;
}
interface Step {
  name: string;
  status: string;
  attempts: number;
  assertions: Assertion[];
}
interface Flow {
  name: string;
  file: string;
  status: string;
  steps: Step[];
}
interface Report {
  status: string;
  totals: {
    flows: { total: number; passed: number };
    steps: { total: number; passed: number };
    assertions: { total: number; passed: number; failed: number };
  };
  flows: Flow[];
}

async function runSuite(origin: string, jobs: number, dir: string) {
  const run = await runCli([
    "run",
    `${ROOT}/flows`,
    "--setup",
    `${ROOT}/common/register.yaml`,
    "--jobs",
    String(jobs),
    "--report-json",
    `${dir}/report.json`,
    "--report-junit",
    `${dir}/junit.xml`,
  ], { env: { CONDUIT_URL: origin } });
  const report: Report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  const junit = await Deno.readTextFile(`${dir}/junit.xml`);
  return { run, report, junit };
}

async function withConduit(
  options: { breakFavoritesCount?: boolean },
  body: (origin: string, calls: string[], dir: string) => Promise<void>,
) {
  const conduit = await startConduit(options);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-conduit-" });
  try {
    await body(conduit.origin, conduit.calls, dir);
  } finally {
    await conduit.close();
    await Deno.remove(dir, { recursive: true });
  }
}

for (const jobs of [1, 4]) {
  Deno.test(`conduit: the migrated collection passes with exactly ${REQUESTS} requests at --jobs ${jobs}`, async () => {
    await withConduit({}, async (origin, calls, dir) => {
      const { run, report, junit } = await runSuite(origin, jobs, dir);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(calls.length, REQUESTS, calls.join("\n"));
      assert.equal(report.status, "passed");
      assert.deepEqual(report.flows.map((f) => [f.name, f.status]), [
        ["register a user for this run", "passed"],
        ["articles", "passed"],
        ["auth", "passed"],
        ["articles, favorite, comments", "passed"],
        ["profiles", "passed"],
        ["tags", "passed"],
      ]);
      const steps = report.flows.flatMap((f) => f.steps);
      const sent = steps.filter((s) => !CHECKED_INCLUDES.includes(s.name));
      assert.equal(sent.length, REQUESTS);
      assert.ok(sent.every((s) => s.attempts === 1));
      assert.deepEqual(report.totals.steps, {
        ...report.totals.steps,
        total: REQUESTS + CHECKED_INCLUDES.length,
        passed: REQUESTS + CHECKED_INCLUDES.length,
      });
      const listings = report.flows.find((f) => f.name === "articles")!.steps;
      for (const s of listings) assert.ok(LISTING.includes(s.assertions.length), s.name);
      const total = ASSERTIONS + listings.reduce((n, s) => n + s.assertions.length, 0);
      assert.deepEqual(report.totals.assertions, { total, passed: total, failed: 0 });
      // Every request is checked beyond its status, the cleanups aside; the one comment
      // is deleted by a foreach over the ids the listing captured.
      const unchecked = sent.filter((s) => s.assertions.length < 2).map((s) => s.name);
      assert.deepEqual(unchecked, ["delete_comment_for_article [0] (id=1)", "delete_article"]);
      // The JUnit report says the same: a testcase per step, none failed.
      assert.equal(junit.match(/<testcase /g)?.length, REQUESTS + CHECKED_INCLUDES.length);
      assert.doesNotMatch(junit, /<failure|<error/);
      const counted = [...junit.matchAll(/<testcase [^>]*assertions="(\d+)"/g)]
        .reduce((n, m) => n + Number(m[1]), 0);
      assert.equal(counted, total);
    });
  });
}

Deno.test("conduit: validate finds no problem in the suite, check files and includes", async () => {
  const run = await runCli([
    "validate",
    `${ROOT}/flows`,
    "--setup",
    `${ROOT}/common/register.yaml`,
  ]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout + run.stderr, /6 flow files checked: no problems/);
});

Deno.test("conduit: a wrong favoritesCount fails the run at the shared article checks", async () => {
  await withConduit({ breakFavoritesCount: true }, async (origin, _calls, dir) => {
    const { run, report } = await runSuite(origin, 4, dir);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const lines = (await Deno.readTextFile(ARTICLE_CHECKS)).split("\n");
    const line = lines.findIndex((l) => l.includes("favoritesCount is an integer")) + 1;
    assert.ok(line > 0);
    const failed = report.flows.flatMap((f) =>
      f.steps.flatMap((s) => s.assertions.filter((a) => !a.passed))
    );
    assert.ok(failed.length > 0);
    for (const a of failed) {
      assert.match(a.name ?? "", /(^|› )article › favoritesCount is an integer$/, a.message);
      assert.match(a.message, /expected type integer, got string "\d+"/);
      assert.deepEqual([a.file, a.line], [ARTICLE_CHECKS, line], a.message);
    }
    // The console's list of failures points at the check, not at the steps that used it.
    const listed = [...(run.stdout.split("Failures:")[1] ?? "").matchAll(/✘ (\S+?:\d+):\d+ /g)];
    assert.ok(listed.length > 0, run.stdout);
    for (const [, at] of listed) assert.equal(at, `${ARTICLE_CHECKS}:${line}`);
    // The flows that never see an article still pass, and the article is still deleted.
    const life = report.flows.find((f) => f.name === "articles, favorite, comments")!;
    assert.equal(life.status, "failed");
    assert.equal(life.steps.at(-1)!.name, "delete_article");
    assert.equal(life.steps.at(-1)!.status, "passed");
  });
});
