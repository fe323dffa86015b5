/**
 * Re-records Splitapi's stored journey (`deno task record:apps splitapi`;
 * never run by the test suite): starts the page on 127.0.0.1:8741 and its
 * API on 8742 (fixed, so a new recording differs from the old one only
 * where the session does), clicks through the journey in Debian's headless
 * Chromium through tests/support/record_har.ts, and writes
 * `recordings/journey.pw.har` (Playwright `recordHar`) and
 * `recordings/journey.cdp.har` (chrome-har).
 *
 *   deno run -A tests/apps/splitapi/record.ts [OUT_DIR]   (default: ./recordings)
 *
 * @module
 */
import type { Page } from "playwright-core";
import { recordSession, writeRecordings } from "../../support/record_har.ts";
import { EMAIL, PASSWORD, startSplitapi } from "./server.ts";

/** Signs in, creates a board and three cards, pages through them, renews twice, completes one. */
export async function journey(page: Page, origin: string): Promise<void> {
  const status = (text: string) => page.locator("#status", { hasText: text }).waitFor();
  await page.goto(`${origin}/`);
  await page.fill("#email", EMAIL);
  await page.fill("#password", PASSWORD);
  await page.click("#signin");
  await status("Signed in as Grace");
  await page.click("#create");
  await status("Board created");
  for (const title of ["Ship v2", "Write changelog", "Tell users"]) {
    await page.fill("#title", title);
    await page.click("#add");
    await status(`Card ${title} added`);
  }
  await page.click("#renew");
  await status("Session renewed");
  await page.click("#list");
  await status("Listed 2");
  await page.click("#next");
  await status("Next page has 1");
  await page.click("#renew");
  await status("Session renewed");
  await page.click("#complete");
  await status("Completed Ship v2");
  await page.click("#summary");
  await status("Roadmap: 1 of 3 done");
}

if (import.meta.main) {
  const out = Deno.args[0] ?? new URL("./recordings", import.meta.url).pathname;
  const app = startSplitapi({ port: 8741, apiPort: 8742 });
  try {
    const recorded = await recordSession((page) => journey(page, app.origin));
    await writeRecordings(out, "journey", recorded);
    console.error(`the API answered: ${app.calls.join(", ")}`);
    if (app.errors.length > 0) throw new Error(`API errors: ${app.errors.join("; ")}`);
  } finally {
    await app.close();
  }
}
