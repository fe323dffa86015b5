/**
 * The journey a user takes through DokuWiki, driven in Chromium and
 * recorded as HAR (tests/support/record_har.ts): log in with the login form,
 * create a page, type on in the editor long enough that it renews its lock
 * (and saves a draft) through `lib/exe/ajax.php`, save, edit the page again
 * and save a second revision (the form's `date` and `changecheck` are the new
 * revision's), open the old revisions and the difference between the two,
 * log out with the menu's link (which carries the CSRF token in its URL).
 * Each click waits for the page or the call it loads; every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/dokuwiki/ (`deno run -A tests/real/dokuwiki_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { start } from "./servers.ts";
import { dokuwikiLaunch, dokuwikiMissing, LOGIN } from "./dokuwiki.ts";
import { publicRecording } from "./unleash_journey.ts";

/** The page the journey creates and the text of its two revisions. */
export const PAGE = {
  id: "harbour:tides",
  first: "====== Tides ======\nHigh water at 06:12.\n",
  second: "====== Tides ======\nHigh water at 06:12.\nLow water at 12:31.\n",
};

/** Types `text` into the editor, then once more after its lock-renewal wait, so it renews the lock. */
async function typeAndRenewLock(page: Page, text: string): Promise<void> {
  await page.fill("#wiki__text", text.slice(0, -1));
  // The editor renews its lock (and saves a draft) on a key press 30 s after the last renewal;
  // a user who typed for half a minute is that moment, without the test waiting it out.
  await page.evaluate("dw_locktimer.lasttime = new Date(Date.now() - 31000)");
  await Promise.all([
    page.waitForResponse((r) => r.url().includes("/lib/exe/ajax.php") && r.status() === 200),
    page.locator("#wiki__text").pressSequentially(text.slice(-1)),
  ]);
}

/** Opens the page's editor, writes `text` and saves; waits for the page shown after the save. */
async function edit(page: Page, origin: string, text: string): Promise<void> {
  await page.goto(`${origin}/doku.php?id=${PAGE.id}&do=edit`);
  await typeAndRenewLock(page, text);
  await Promise.all([
    page.waitForURL((u) => !u.search.includes("do=edit") && u.pathname === "/doku.php"),
    page.click("#edbtn__save"),
  ]);
  await page.waitForLoadState("load");
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./dokuwiki_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/doku.php?id=start&do=login`);
    await page.fill("#dw__login input[name=u]", LOGIN.username);
    await page.fill("#dw__login input[name=p]", LOGIN.password);
    await Promise.all([
      page.waitForURL((u) => !u.search.includes("do=login")),
      page.click("#dw__login button[type=submit]"),
    ]);
    await page.waitForLoadState("load");
    await edit(page, origin, PAGE.first);
    await edit(page, origin, PAGE.second);
    await page.goto(`${origin}/doku.php?id=${PAGE.id}&do=revisions`);
    await Promise.all([
      page.waitForURL((u) => u.search.includes("do=diff")),
      page.click("#page__revisions a.diff_link >> nth=0"),
    ]);
    await page.waitForLoadState("load");
    await Promise.all([
      page.waitForResponse((r) => r.url().includes("do=logout")),
      page.click(`#dokuwiki__usertools a[href*="do=logout"]`),
    ]);
    await page.waitForLoadState("load");
  }, 120_000);
}

if (import.meta.main) {
  const missing = dokuwikiMissing();
  if (missing) throw new Error(missing);
  const instance = await start(dokuwikiLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      new URL("./fixtures/dokuwiki/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
