/**
 * Re-records Csrfspa's stored journey in Chromium (`deno task record:apps
 * csrfspa`; never run by the test suite): starts the app on 127.0.0.1:8761
 * (fixed, so a new recording differs from the old one only where the session
 * does), types the e-mail and password and clicks the page's #run through tests/support/record_har.ts, and
 * writes `recordings/journey.pw.har` (Playwright `recordHar`) and
 * `recordings/journey.cdp.har` (chrome-har).
 *
 *   deno run -A tests/apps/csrfspa/record.ts [OUT_DIR]   (default: ./recordings)
 *
 * @module
 */
import { recordSession, writeRecordings } from "../../support/record_har.ts";
import { EMAIL, PASSWORD, startCsrfspa } from "./server.ts";

if (import.meta.main) {
  const out = Deno.args[0] ?? new URL("./recordings", import.meta.url).pathname;
  const app = startCsrfspa({ port: 8761 });
  try {
    const recorded = await recordSession(async (page) => {
      await page.goto(`${app.origin}/`);
      await page.fill("#email", EMAIL);
      await page.fill("#password", PASSWORD);
      await page.click("#run");
      await page.locator("#status", { hasText: /Done|Failed/ }).waitFor();
      const status = await page.locator("#status").textContent();
      if (status !== "Done") throw new Error(`the journey stopped: ${status}`);
    });
    await writeRecordings(out, "journey", recorded);
    console.error(`the app answered: ${app.calls.join(", ")}`);
    if (app.errors.length > 0) throw new Error(`errors: ${app.errors.join("; ")}`);
  } finally {
    await app.close();
  }
}
