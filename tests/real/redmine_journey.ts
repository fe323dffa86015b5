/**
 * The journey a user takes through Redmine, driven in Chromium and recorded
 * as HAR (tests/support/record_har.ts): log in as the administrator, create a
 * project, create an issue in it, edit the issue (its status through the
 * form's select, which reloads the form by an XHR that sends the token as
 * `X-CSRF-Token`, and a note; the save is a POST with `_method=patch` and
 * `lock_version`), open the project's issues filtered to open ones, log out
 * (a link whose `data-method=post` Rails' script turns into a form carrying
 * the page's `<meta name="csrf-token">`). Each click waits for the page or
 * the call it makes; every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/redmine/ (`deno run -A tests/real/redmine_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { start } from "./servers.ts";
import { LOGIN, redmineLaunch, redmineMissing } from "./redmine.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the user types: the project, the issue and the note. */
export const NAMES = {
  project: "Harbour works",
  identifier: "harbour-works",
  issue: "Tide gauge reads low",
  note: "Recalibrated against the benchmark.",
};

/** Clicks `selector` and waits for the page it loads to match `url`. */
async function submit(page: Page, selector: string, url: (u: URL) => boolean): Promise<void> {
  await Promise.all([page.waitForURL(url), page.click(selector)]);
  await page.waitForLoadState("load");
}

/** Opens the new issue's form, picks its status "In Progress", writes a note and saves. */
async function editIssue(page: Page, issuePath: string): Promise<void> {
  await page.goto(`${page.url().split("/").slice(0, 3).join("/")}${issuePath}/edit`);
  await Promise.all([
    page.waitForResponse((r) => r.url().includes("/edit.js") && r.status() === 200),
    page.selectOption("#issue_status_id", { label: "In Progress" }),
  ]);
  await page.fill("#issue_notes", NAMES.note);
  await submit(page, "#issue-form input[name=commit]", (u) => u.pathname === issuePath);
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./redmine_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:3000");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/login`);
    await page.fill("#username", LOGIN.username);
    await page.fill("#password", LOGIN.password);
    await submit(page, "#login-submit", (u) => u.pathname !== "/login");
    await page.goto(`${origin}/projects/new`);
    await page.fill("#project_name", NAMES.project);
    await page.fill("#project_identifier", NAMES.identifier);
    await submit(page, "#new_project input[name=commit]", (u) => u.pathname.includes("/settings"));
    await page.goto(`${origin}/projects/${NAMES.identifier}/issues/new`);
    await page.fill("#issue_subject", NAMES.issue);
    await submit(page, "#issue-form input[name=commit]", (u) => /^\/issues\/\d+$/.test(u.pathname));
    await editIssue(page, new URL(page.url()).pathname);
    await page.goto(`${origin}/projects/${NAMES.identifier}/issues`);
    await submit(page, "#query_form a.icon-checked", (u) => u.search.includes("set_filter"));
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/logout")),
      page.click("#account a.logout"),
    ]);
    await page.waitForLoadState("load");
  }, 120_000);
}

if (import.meta.main) {
  const missing = redmineMissing();
  if (missing) throw new Error(missing);
  const instance = await start(redmineLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      new URL("./fixtures/redmine/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
