/**
 * The journey a user takes through Unleash's admin UI (a React single-page
 * app), driven in Chromium and recorded as HAR (tests/support/record_har.ts):
 * sign in as the admin Unleash makes on its first start, create a feature
 * flag in the default project, switch it on in `production` (the UI may ask
 * to confirm), archive it. Every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/unleash/ (`deno run -A tests/real/unleash_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { prepare, start } from "./servers.ts";
import { UNLEASH, withUnleash } from "./unleash.ts";

/** The admin Unleash creates on its first start, as its docs give it. */
export const ADMIN = { username: "admin", password: "unleash4all" };

/** The name the user types for the flag they create. */
export const FLAG = "checkout-redesign";

/** Clicks with `click` and waits for the answer to `method` on `url`; throws unless it is `status`. */
async function answered(
  page: Page,
  url: RegExp,
  method: string,
  click: () => Promise<void>,
  status: number,
): Promise<void> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === method && url.test(r.url()), {
      timeout: 15_000,
    }),
    click(),
  ]);
  if (response.status() !== status) {
    throw new Error(`${method} ${response.url()} answered ${response.status()}, not ${status}`);
  }
}

/**
 * Waits (bounded) until no modal backdrop covers the page: the creation
 * dialog's backdrop sometimes stays over the flag's page and takes every
 * click. If it is still there after 10 s the page is opened afresh, once.
 */
async function backdropGone(page: Page): Promise<void> {
  const backdrop = page.locator(".MuiBackdrop-root:not(.MuiBackdrop-invisible)");
  const gone = () =>
    backdrop.first().waitFor({ state: "hidden", timeout: 10_000 }).then(() => true, () => false);
  if (await gone()) return;
  await page.reload();
  await page.waitForLoadState("networkidle");
  if (!await gone()) {
    throw new Error("a modal backdrop still covers the flag's page after a reload");
  }
}

/** Switches the flag on in production, confirming when the UI asks (at most 5 clicks). */
async function switchOn(page: Page): Promise<void> {
  const enable = page.getByRole("button", { name: "Enable Environment" });
  const production = page.locator("input[type=checkbox][aria-label=production]");
  // The page may render the switch anew right after it loads, and a click on the one it
  // replaced does nothing: click until it holds or asks to confirm.
  for (let tries = 0; tries < 5 && !(await production.isChecked()); tries++) {
    await production.click();
    if (await enable.waitFor({ timeout: 2_000 }).then(() => true, () => false)) {
      await enable.click();
      return;
    }
  }
}

/**
 * Records the journey on the instance at `origin` (both HAR forms).
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./unleash_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:4242");
 * ```
 */
export function recordJourney(origin: string): Promise<Recordings> {
  return recordSession(async (page) => {
    // A busy machine takes its time: every action waits up to 30 s for what it needs.
    page.setDefaultTimeout(30_000);
    const settled = () => page.waitForLoadState("networkidle");
    await page.goto(`${origin}/login`);
    await page.fill("#username", ADMIN.username);
    await page.fill("#password", ADMIN.password);
    await page.click("[data-testid=LOGIN_BUTTON]");
    await page.waitForURL((u) => !u.pathname.startsWith("/login"));
    await page.goto(`${origin}/projects/default`);
    await settled();
    await page.click("[data-testid=NAVIGATE_TO_CREATE_FEATURE]");
    await page.locator("input[type=text]:not([data-testid=SEARCH_INPUT])").first().fill(FLAG);
    await page.click("[data-testid=FORM_CREATE_BUTTON]");
    await page.waitForURL(new RegExp(`/features/${FLAG}$`));
    await settled();
    await backdropGone(page);
    // A switch that sent nothing (re-rendered, covered) is tried on the page opened afresh:
    // three attempts at most.
    for (let attempt = 1;; attempt++) {
      const sent = await answered(
        page,
        /\/environments\/production\/on(?:\?|$)/,
        "POST",
        () => switchOn(page),
        200,
      ).then(() => true, (e) => attempt >= 3 ? Promise.reject(e) : false);
      if (sent) break;
      await page.reload();
      await settled();
      await backdropGone(page);
    }
    await settled();
    await page.locator("[aria-label='Feature flag actions']").click();
    await page.locator("[role=menuitem]", { hasText: /archive/i }).first().click();
    await answered(
      page,
      new RegExp(`/features/${FLAG}$`),
      "DELETE",
      () => page.getByRole("button", { name: "Archive flag" }).click(),
      202,
    );
    await settled();
  }, 150_000);
}

/**
 * A recording made public: the bodies of the app's own scripts, styles,
 * fonts and images are left out (their size and mime type kept). They are
 * megabytes of bundled code the converter drops, and the bundle holds
 * `file://` strings a stored recording must not look like it names.
 *
 * @example
 * ```ts
 * import { publicRecording } from "./unleash_journey.ts";
 * const entry = (mimeType: string) => ({ response: { content: { mimeType, size: 3, text: "x()" } } });
 * const har = JSON.stringify({ log: { entries: [entry("text/javascript"), entry("application/json")] } });
 * const out = JSON.parse(publicRecording(har)).log.entries;
 * if ("text" in out[0].response.content || out[1].response.content.text !== "x()") throw new Error();
 * ```
 */
export function publicRecording(har: string): string {
  const parsed = JSON.parse(har);
  for (const e of parsed.log.entries) {
    const content = e.response?.content ?? {};
    if (/javascript|css|font|image\//.test(content.mimeType ?? "")) {
      delete content.text;
      delete content.encoding;
    }
  }
  return JSON.stringify(parsed, null, 2);
}

if (import.meta.main) {
  const prepared = await prepare([UNLEASH]);
  if (prepared.ignoredBecause) throw new Error(prepared.ignoredBecause);
  const recorded = await withUnleash(prepared.install!.prefix, start, async (a) => {
    const { playwright, chromeHar } = await recordJourney(a.origin);
    return { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) };
  });
  await writeRecordings(
    new URL("./fixtures/unleash/", import.meta.url).pathname,
    "journey",
    recorded,
  );
}
