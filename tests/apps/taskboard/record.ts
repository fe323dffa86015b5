/**
 * Re-records Taskboard's stored session (`deno task record:apps taskboard`;
 * never run by the test suite): starts the app (tests/support/taskboard_app.ts)
 * on 127.0.0.1:8711 with its analytics host on 8712 (fixed, so a new
 * recording differs from the old one only where the session does), clicks
 * through every feature in Debian's headless Chromium through
 * tests/support/record_har.ts, and writes `recordings/session.pw.har`
 * (Playwright `recordHar`) and `recordings/session.cdp.har` (chrome-har from
 * the CDP events). The Firefox, Safari and mitmproxy shapes are made from the
 * Playwright recording by tests/convert/taskboard_test.ts, as the live test
 * made them from its session.
 *
 *   deno run -A tests/apps/taskboard/record.ts [OUT_DIR]   (default: ./recordings)
 *
 * @module
 */
import type { Page } from "playwright-core";
import { recordSession, writeRecordings } from "../../support/record_har.ts";
import { PASSWORD, startTaskboard } from "../../support/taskboard_app.ts";

/** The ports the stored recordings name: the app's, then the analytics host's. */
export const RECORDED_PORTS = { port: 8711, analyticsPort: 8712 };

/** Clicks through every feature of the app, waiting for the page to say each is done. */
export async function journey(page: Page, origin: string, email: string): Promise<void> {
  const status = (text: string) => page.locator("#status", { hasText: text }).waitFor();
  await page.goto(`${origin}/`);
  await page.fill("#email", email);
  await page.fill("#password", PASSWORD);
  await page.click("#login");
  await status("Signed in as Ann");
  await page.fill("#project-name", "Launch plan");
  await page.click("#create-project");
  await status("Project Launch plan created");
  await page.fill("#task-title", "Write release notes");
  await page.click("#add-task");
  await status("Task Write release notes added");
  await page.click("#complete-task");
  await status("Task done: true");
  await page.click("#attach");
  await status("Attached kickoff-notes.txt");
  await page.click("#find-tasks");
  await status("Found 1 tasks");
  await page.getByRole("button", { name: "Ruby" }).click();
  await status("Tagged Launch plan with Ruby");
  await page.click("#export");
  await status("Export done");
  await page.click("#settings");
  await status("Settings for");
  await page.selectOption("#theme", "dark");
  await page.click("#save-settings");
  await status("Settings saved: dark");
  await page.click("#send-feedback");
  await status("Feedback sent");
  await page.click("#logout");
  await status("Signed out");
}

if (import.meta.main) {
  const out = Deno.args[0] ?? new URL("./recordings", import.meta.url).pathname;
  const app = await startTaskboard(RECORDED_PORTS);
  try {
    const recorded = await recordSession((page) => journey(page, app.origin, app.user.email));
    // What the replay test relies on: the cookie-session write happened, the SDK reported.
    if (!app.calls.includes("PUT /api/account") || app.events < 3) {
      throw new Error(`an incomplete session: ${app.calls.join(", ")}; ${app.events} events`);
    }
    await writeRecordings(out, "session", recorded);
    console.error(`the API answered: ${app.calls.join(", ")}; analytics events: ${app.events}`);
  } finally {
    await app.close();
  }
}
