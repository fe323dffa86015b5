/**
 * Re-records OAuthQL's stored journey (`deno task record:apps oauthql`; never
 * run by the test suite): starts the SPA on 127.0.0.1:8711 and its
 * authorization server on 8712 (fixed, so a new recording differs from the
 * old one only where the session does), signs in through the PKCE flow and
 * clicks through the GraphQL calls in Debian's headless Chromium through
 * tests/support/record_har.ts, and writes `recordings/journey.pw.har`
 * (Playwright `recordHar`) and `recordings/journey.cdp.har` (chrome-har).
 *
 *   deno run -A tests/apps/oauthql/record.ts [OUT_DIR]   (default: ./recordings)
 *
 * @module
 */
import type { Page } from "playwright-core";
import { recordSession, writeRecordings } from "../../support/record_har.ts";
import { PASSWORD, startOauthql, USERNAME } from "./server.ts";

/** Signs in (PKCE), creates a project and tasks, pages through them, completes one, renews the session. */
export async function journey(page: Page, origin: string): Promise<void> {
  const status = (text: string) => page.locator("#status", { hasText: text }).waitFor();
  await page.goto(`${origin}/`);
  await status("Signed out");
  await Promise.all([page.waitForURL("**/authorize?**"), page.click("#signin")]);
  await page.fill("#username", USERNAME);
  await page.fill("#password", PASSWORD);
  await Promise.all([page.waitForURL("**/consent"), page.click("#login")]);
  await page.click("#allow");
  await status("Signed in as Ada");
  await page.fill("#name", "Launch plan");
  await page.click("#create");
  await status("Project Launch plan created");
  for (const title of ["Draft the brief", "Book the venue", "Send invites"]) {
    await page.fill("#title", title);
    await page.click("#add");
    await status(`Task ${title} added`);
  }
  await page.click("#list");
  await status("Listed 2");
  await page.click("#more");
  await status("Loaded 1 more");
  await page.click("#complete");
  await status("Completed Send invites");
  await page.click("#renew");
  await status("Session renewed");
  await page.click("#reload");
  await status("Launch plan has 3 tasks");
}

if (import.meta.main) {
  const out = Deno.args[0] ?? new URL("./recordings", import.meta.url).pathname;
  const app = startOauthql({ port: 8711, authPort: 8712 });
  try {
    const recorded = await recordSession((page) => journey(page, app.origin));
    await writeRecordings(out, "journey", recorded);
    console.error(`the app answered: ${app.calls.join(", ")}`);
    if (app.errors.length > 0) throw new Error(`GraphQL errors: ${app.errors.join("; ")}`);
  } finally {
    await app.close();
  }
}
