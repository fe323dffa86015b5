/**
 * The journey a user takes through MediaWiki, driven in Chromium and
 * recorded as HAR (tests/support/record_har.ts): log in with the login form
 * (its hidden `wpLoginToken`), create a page, edit it again (a second
 * revision: the form's `wpEditTime`, `wpStarttime`, `baseRevId` and
 * `wpEditToken` are the new revision's and session's), open its history,
 * compare the two revisions, delete the page (the administrator's form with
 * its own token), log out with the menu's link (which the page's script
 * turns into `api.php?action=logout` posting a CSRF token). Each click
 * waits for the page or the call it makes; every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/mediawiki/ (`deno run -A tests/real/mediawiki_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { start } from "./servers.ts";
import { LOGIN, mediawikiLaunch, mediawikiMissing } from "./mediawiki.ts";
import { publicRecording } from "./unleash_journey.ts";

/** The page the journey creates and the text of its two revisions. */
export const PAGE = {
  title: "Harbour_tides",
  first: "High water at 06:12.",
  second: "High water at 06:12.\n\nLow water at 12:31.",
};

/** Clicks `selector` and waits for the page it loads to match `url`. */
async function submit(page: Page, selector: string, url: (u: URL) => boolean): Promise<void> {
  await Promise.all([page.waitForURL(url), page.click(selector)]);
  await page.waitForLoadState("load");
}

/** Opens the page's editor, writes `text` and saves; waits for the page shown after the save. */
async function edit(page: Page, origin: string, text: string): Promise<void> {
  await page.goto(`${origin}/index.php?title=${PAGE.title}&action=edit`);
  await page.fill("#wpTextbox1", text);
  await page.fill("#wpSummary", "tides");
  await submit(page, "#wpSave", (u) => !u.search.includes("action="));
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./mediawiki_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/index.php?title=Special:UserLogin`);
    await page.fill("#wpName1", LOGIN.username);
    await page.fill("#wpPassword1", LOGIN.password);
    await submit(page, "#wpLoginAttempt", (u) => !u.search.includes("UserLogin"));
    await edit(page, origin, PAGE.first);
    await edit(page, origin, PAGE.second);
    await page.goto(`${origin}/index.php?title=${PAGE.title}&action=history`);
    await submit(
      page,
      ".mw-history-compareselectedversions-button",
      (u) => u.search.includes("diff="),
    );
    await page.goto(`${origin}/index.php?title=${PAGE.title}&action=delete`);
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && r.status() === 200),
      page.click("#wpConfirmB"),
    ]);
    await page.waitForLoadState("load");
    // The link is the page's script's once its module is ready: it posts the logout to the API.
    await page.waitForFunction("mw.loader.getState('mediawiki.page.ready') === 'ready'");
    await Promise.all([
      page.waitForResponse((r) => r.url().includes("api.php") && r.status() === 200),
      page.evaluate("document.querySelector('#pt-logout a').click()"),
    ]);
    await page.waitForURL((u) => u.search.includes("UserLogout") || u.pathname.includes("Logout"));
    await page.waitForLoadState("load");
  }, 120_000);
}

if (import.meta.main) {
  const missing = mediawikiMissing();
  if (missing) throw new Error(missing);
  const instance = await start(mediawikiLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      new URL("./fixtures/mediawiki/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
