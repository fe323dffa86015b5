/**
 * Re-records Formapp's stored journey (`deno task record:apps formapp`; never
 * run by the test suite): starts the app on 127.0.0.1:8701 with its telemetry
 * host on 8702 (fixed, so a new recording differs from the old one only where
 * the session does), clicks through the UI in Debian's headless Chromium
 * through tests/support/record_har.ts, and writes
 * `recordings/journey.pw.har` (Playwright `recordHar`) and
 * `recordings/journey.cdp.har` (chrome-har from the CDP events).
 *
 *   deno run -A tests/apps/formapp/record.ts [OUT_DIR]   (default: ./recordings)
 *
 * @module
 */
import type { Page } from "playwright-core";
import { recordSession, writeRecordings } from "../../support/record_har.ts";
import { EMAIL, PASSWORD, startFormapp } from "./server.ts";

/**
 * Signs in through the form, writes and pages through notes, renames one
 * (`If-Match` from the read's `ETag`), attaches a file to another, exports
 * the workspace and downloads the signed result, starts a long-poll and signs
 * out, which cuts the long-poll off. The features added later come last, so a
 * recording made before them still lines up with a new one step by step up to
 * the rename.
 */
export async function journey(page: Page, origin: string): Promise<void> {
  const status = (text: string) => page.locator("#status", { hasText: text }).waitFor();
  await page.goto(`${origin}/login`);
  await page.fill("#email", EMAIL);
  await page.fill("#password", PASSWORD);
  await Promise.all([page.waitForURL("**/dashboard"), page.click("#login")]);
  await status("Ready, 0 notes");
  for (const title of ["Groceries", "Reading list", "Trip to Lyon"]) {
    await page.fill("#note-title", title);
    await page.fill("#note-body", `About ${title.toLowerCase()}`);
    await page.click("#create");
    await status(`Note ${title} created`);
  }
  await page.click("#refresh");
  await status("Listed 2");
  await page.click("#more");
  await status("Loaded 1 more");
  await page.click("#open");
  await status("Opened Groceries");
  await page.fill("#note-title", "Groceries for Sunday");
  await page.click("#rename");
  await status("Renamed to Groceries for Sunday");
  await page.click("#attach");
  await status("Attached lyon-itinerary.txt");
  await page.click("#export");
  await status("Exported 4 lines");
  await page.click("#watch");
  await status("Watching for changes");
  // Let the telemetry calls of the last clicks finish before the page goes.
  await page.waitForTimeout(200);
  await Promise.all([page.waitForURL("**/login"), page.click("#logout")]);
  await page.locator("#email").waitFor();
  await page.waitForTimeout(200);
}

if (import.meta.main) {
  const out = Deno.args[0] ?? new URL("./recordings", import.meta.url).pathname;
  const app = startFormapp({ port: 8701, telemetryPort: 8702 });
  try {
    const recorded = await recordSession((page) => journey(page, app.origin));
    await writeRecordings(out, "journey", recorded);
    console.error(`the app answered: ${app.calls.join(", ")}; telemetry events: ${app.events}`);
  } finally {
    await app.close();
  }
}
