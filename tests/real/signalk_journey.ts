/**
 * The journey a user takes through Signal K server's admin UI (a React
 * single-page app at `/admin/`; tests/real/signalk.ts), driven in Chromium
 * and recorded as HAR (tests/support/record_har.ts): log in as the admin
 * the first-run form made, the dashboard, the data browser (the REST API
 * and a WebSocket stream of the sample data), Server → Settings (the
 * vessel's name changed, saved; a server setting changed, saved),
 * Security → Users (a user added with a password, then deleted), Server →
 * Plugin Config (a bundled plugin enabled with one conversion, saved), log
 * out. The app keeps the JWT its
 * login answers in the `JAUTHENTICATION` cookie. Every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/signalk/ (`deno run -A
 * tests/real/signalk_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import {
  answered,
  type Recordings,
  recordSession,
  writeRecordings,
} from "../support/record_har.ts";
import { prepare, withInstance } from "./servers.ts";
import { SIGNALK, SIGNALK_ADMIN, signalkFirstAdmin, signalkLaunch } from "./signalk.ts";
import { publicRecording } from "./unleash_journey.ts";

/** The vessel's name, typed in Server → Settings. */
export const VESSEL_NAME = "Flowrun Explorer";

/** The minutes inactive vessels' data is kept, typed in the server settings (60 by default). */
export const PRUNE_MINUTES = 90;

/** The user the journey adds, then deletes. */
export const CREW = { userId: "crew", password: "crew-member-pass" };

/** The bundled plugin the journey enables and the sentence it configures. */
export const PLUGIN = {
  id: "sk-to-nmea0183",
  name: "Convert Signal K to NMEA0183",
  sentence: "RMC",
};

/**
 * Follows the side bar's link to `hash` (the app moves within the page). A
 * closed group's links lie under its toggle, which takes a pointer's click,
 * so the link gets the click itself.
 */
async function menu(page: Page, hash: string): Promise<void> {
  await page.locator(`.sidebar-nav a[href='#/${hash}']`).dispatchEvent("click");
  await page.waitForURL((u) => u.hash === `#/${hash}`);
}

/** Logs in as the admin from the header's link; the dashboard opens. */
async function logIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/`);
  await page.locator("a.nav-link", { hasText: "Login" }).first().click();
  await page.fill("input[name=username]", SIGNALK_ADMIN.userId);
  await page.fill("input[name=password]", SIGNALK_ADMIN.password);
  await answered(
    page,
    "POST",
    /^\/signalk\/v1\/auth\/login$/,
    () => page.locator("button", { hasText: "Login" }).click(),
  );
  await page.locator("a.nav-link", { hasText: "Logout" }).first().waitFor();
  await menu(page, "dashboard");
  await page.locator("text=Connection & Plugin Status").waitFor();
}

/** Opens the data browser and waits for the sample data's position to stream in. */
async function browseData(page: Page): Promise<void> {
  await menu(page, "databrowser");
  await page.locator("main", { hasText: "navigation.position" }).first().waitFor();
  await page.waitForTimeout(1_500);
}

/** Server → Settings: types the vessel's name, saves the vessel's data. */
async function renameVessel(page: Page): Promise<void> {
  await menu(page, "serverConfiguration/settings");
  const card = page.locator(".card", { hasText: "Vessel Base Data" }).first();
  // The form is filled once the vessel's data (its UUID) has been read.
  await card.locator("input[name=uuid]:not([value=''])").waitFor();
  await card.locator("input[name=name]").fill(VESSEL_NAME);
  await answered(
    page,
    "PUT",
    /^\/skServer\/vessel$/,
    () => card.locator(".card-footer button", { hasText: "Save" }).click(),
  );
}

/** Server → Settings, its server settings: keeps inactive vessels' data longer, saves. */
async function keepVesselsLonger(page: Page): Promise<void> {
  const card = page.locator(".card", { hasText: "Server Settings" }).last();
  await card.locator("input[name=pruneContextsMinutes]").fill(String(PRUNE_MINUTES));
  await answered(
    page,
    "PUT",
    /^\/skServer\/settings$/,
    () => card.locator(".card-footer button", { hasText: "Save" }).click(),
  );
}

/** Security → Users: adds {@linkcode CREW} with a password, then deletes that user. */
async function addAndDeleteUser(page: Page): Promise<void> {
  await menu(page, "security/users");
  await page.locator("tr", { hasText: SIGNALK_ADMIN.userId }).first().waitFor();
  await page.locator("button", { hasText: "Add" }).click();
  await page.fill("input[name=userId]", CREW.userId);
  await page.fill("input[name=password]", CREW.password);
  await page.fill("input[name=confirmPassword]", CREW.password);
  await page.locator("select[name=type]").selectOption("readwrite");
  await answered(
    page,
    "POST",
    /^\/skServer\/security\/users\/[^/]+$/,
    () => page.locator("button", { hasText: "Apply" }).click(),
  );
  const row = page.locator("tr", { hasText: CREW.userId }).first();
  await row.click();
  page.once("dialog", (d) => d.accept());
  await answered(
    page,
    "DELETE",
    /^\/skServer\/security\/users\/[^/]+$/,
    () => page.locator("button", { hasText: "Delete" }).click(),
  );
  await row.waitFor({ state: "detached" });
}

/** Server → Plugin Config: opens {@linkcode PLUGIN}, adds its sentence, saves (which enables it). */
async function configurePlugin(page: Page): Promise<void> {
  await menu(page, "serverConfiguration/plugins/-");
  await page.locator(`tr[data-plugin-id='${PLUGIN.id}']`).click();
  const card = page.locator(".plugin-config-card");
  await card.locator("button", { hasText: "Add conversion" }).click();
  await card.locator("select").first().selectOption(PLUGIN.sentence);
  await answered(
    page,
    "POST",
    new RegExp(`^/skServer/plugins/${PLUGIN.id}/config$`),
    () => card.locator("button", { hasText: "Save Configuration" }).click(),
  );
}

/** Logs out from the header's link. */
async function logOut(page: Page): Promise<void> {
  await answered(
    page,
    "PUT",
    /\/logout$/,
    () => page.locator("a.nav-link", { hasText: "Logout" }).first().click(),
  );
  await page.locator("a.nav-link", { hasText: "Login" }).first().waitFor();
}

/**
 * Records the journey on the instance at `origin` (both HAR forms).
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./signalk_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:3000");
 * ```
 */
export function recordJourney(origin: string): Promise<Recordings> {
  return recordSession(async (page) => {
    page.setDefaultTimeout(30_000);
    await logIn(page, origin);
    await browseData(page);
    await renameVessel(page);
    await keepVesselsLonger(page);
    await addAndDeleteUser(page);
    await configurePlugin(page);
    await logOut(page);
  }, 240_000);
}

/**
 * A recording made public (scripts, styles and fonts left out) with the
 * instance's temp folder renamed to a folder under `/srv` with the same
 * random part, so a stored recording names no path of this machine.
 *
 * @example
 * ```ts
 * import { storedRecording } from "./signalk_journey.ts";
 * const har = JSON.stringify({ log: { entries: [], p: "/tmp/flowrun-real-ab12/x" } });
 * const out = storedRecording(har, "/tmp/flowrun-real-ab12");
 * if (!out.includes('"/srv/signalk-ab12/x"')) throw new Error(out);
 * ```
 */
export function storedRecording(har: string, dir: string): string {
  return publicRecording(har).replaceAll(
    dir,
    `/srv/signalk-${dir.slice(dir.lastIndexOf("-") + 1)}`,
  );
}

if (import.meta.main) {
  const prepared = await prepare([SIGNALK]);
  if (prepared.ignoredBecause) throw new Error(prepared.ignoredBecause);
  const recorded = await withInstance(signalkLaunch(prepared.install!.prefix), async (b) => {
    await signalkFirstAdmin(b.origin);
    const { playwright, chromeHar } = await recordJourney(b.origin);
    return {
      playwright: storedRecording(playwright, b.dir),
      chromeHar: storedRecording(chromeHar, b.dir),
    };
  });
  await writeRecordings(
    new URL(Deno.args[0] ?? "./fixtures/signalk/", import.meta.url).pathname,
    "journey",
    recorded,
  );
}
