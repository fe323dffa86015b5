/**
 * The journey a user takes through Homebridge UI (an Angular single-page
 * app; tests/real/homebridge.ts), driven in Chromium and recorded as HAR
 * (tests/support/record_har.ts): sign in as the first user, open the
 * status page, open the JSON config editor and rename the bridge, save,
 * open the users page, add a user, delete that user, open the logs, sign
 * out. The app sends the token its login answered as a bearer header, and
 * talks Socket.IO (long polling, the token in the query) for status and
 * logs. Every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/homebridge/ (`deno run -A
 * tests/real/homebridge_journey.ts`).
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
import {
  HOMEBRIDGE,
  HOMEBRIDGE_ADMIN,
  homebridgeFirstUser,
  homebridgeLaunch,
} from "./homebridge.ts";
import { publicRecording } from "./unleash_journey.ts";

/** The bridge's new name, typed in the config editor. */
export const BRIDGE_NAME = "Living Room Bridge";

/** The user the journey adds, then deletes. */
export const GUEST = { username: "guest", name: "Guest Viewer", password: "guest-viewer-pass" };

/** Signs in as the first user; the status page opens (its plugins asked). */
async function signIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/login`);
  await page.fill("input[formcontrolname=username]", HOMEBRIDGE_ADMIN.username);
  await page.fill("input[formcontrolname=password]", HOMEBRIDGE_ADMIN.password);
  await answered(page, "POST", /^\/api\/auth\/login$/, () => page.click("#submit-button"));
  await page.waitForURL((u) => !u.pathname.includes("login"));
  await page.locator("text=Homebridge UI").first().waitFor();
}

/** Clicks the side bar's item `name` (the app moves within the page, as a user's click does). */
function menu(page: Page, name: string): Promise<void> {
  return page.getByRole("menuitem", { name, exact: true }).click();
}

/** Opens the JSON config editor, renames the bridge in the text, saves. */
async function renameBridge(page: Page): Promise<void> {
  await answered(page, "GET", /^\/api\/config-editor$/, () => menu(page, "JSON Config"));
  const name = page.locator(".view-line", { hasText: '"name": "Homebridge"' })
    .locator("span", { hasText: /^"Homebridge"$/ });
  // A double-click selects the word between the quotes, which the typing replaces.
  await name.dblclick();
  await page.keyboard.type(BRIDGE_NAME);
  await page.locator(".view-line", { hasText: BRIDGE_NAME }).waitFor();
  await answered(
    page,
    "POST",
    /^\/api\/config-editor$/,
    () => page.locator("button:has(i.fa-floppy-disk)").first().click(),
  );
  // The app then offers to restart Homebridge; the user closes that without restarting.
  const offer = page.locator(".modal-content", { hasText: "Restart Required" }).last();
  await offer.locator(".modal-footer button", { hasText: "Close" }).click();
  await offer.waitFor({ state: "detached" });
}

/** Opens the users page, adds {@linkcode GUEST}, then deletes that user. */
async function addAndDeleteUser(page: Page): Promise<void> {
  await menu(page, "Settings");
  await answered(page, "GET", /^\/api\/users$/, () => page.locator("a[href='/users']").click());
  await page.locator("button:has(i.fa-user-plus)").click();
  const form = page.locator(".modal-content form").last();
  await form.locator("input[formcontrolname=username]").fill(GUEST.username);
  await form.locator("input[formcontrolname=name]").fill(GUEST.name);
  await form.locator("input[formcontrolname=password]").fill(GUEST.password);
  await form.locator("input[formcontrolname=passwordConfirm]").fill(GUEST.password);
  await answered(page, "POST", /^\/api\/users$/, () => form.locator("button[type=submit]").click());
  const card = page.locator(".card", { hasText: GUEST.name }).last();
  await card.waitFor();
  await answered(
    page,
    "DELETE",
    /^\/api\/users\/\d+$/,
    () => card.locator("button:has(i.fa-trash)").click(),
  );
  await card.waitFor({ state: "detached" });
}

/** Opens the logs (streamed over Socket.IO), then signs out from the side bar. */
async function logsThenSignOut(page: Page): Promise<void> {
  await menu(page, "Logs");
  await page.locator(".xterm").first().waitFor();
  await page.waitForTimeout(2_000);
  await menu(page, "Log Out");
  await page.waitForURL(/\/login/);
}

/**
 * A recording with the instance's temp folder (its storage, which the
 * status and the logs name) renamed to a folder under `/srv` with the same
 * random part, and the install's folder (which the settings name) to
 * `/srv/homebridge-install`, so a stored recording names no path of this
 * machine.
 *
 * @example
 * ```ts
 * import { renamedDirs } from "./homebridge_journey.ts";
 * const har = renamedDirs('{"p":"/tmp/flowrun-real-ab12/a","q":"/c/hb/node_modules"}', {
 *   dir: "/tmp/flowrun-real-ab12",
 *   prefix: "/c/hb",
 * });
 * if (har !== '{"p":"/srv/homebridge-ab12/a","q":"/srv/homebridge-install/node_modules"}') {
 *   throw new Error(har);
 * }
 * ```
 */
export function renamedDirs(har: string, at: { dir: string; prefix: string }): string {
  return har.replaceAll(at.dir, `/srv/homebridge-${at.dir.slice(at.dir.lastIndexOf("-") + 1)}`)
    .replaceAll(at.prefix, "/srv/homebridge-install");
}

/**
 * Records the journey on the instance at `origin` (both HAR forms).
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./homebridge_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8581");
 * ```
 */
export function recordJourney(origin: string): Promise<Recordings> {
  return recordSession(async (page) => {
    page.setDefaultTimeout(30_000);
    await signIn(page, origin);
    await renameBridge(page);
    await addAndDeleteUser(page);
    await logsThenSignOut(page);
  }, 240_000);
}

if (import.meta.main) {
  const prepared = await prepare(HOMEBRIDGE);
  if (prepared.ignoredBecause) throw new Error(prepared.ignoredBecause);
  const prefix = prepared.install!.prefix;
  const recorded = await withInstance(homebridgeLaunch(prefix), async (b) => {
    await homebridgeFirstUser(b.origin);
    const { playwright, chromeHar } = await recordJourney(b.origin);
    return {
      playwright: renamedDirs(publicRecording(playwright), { dir: b.dir, prefix }),
      chromeHar: renamedDirs(publicRecording(chromeHar), { dir: b.dir, prefix }),
    };
  });
  await writeRecordings(
    new URL(Deno.args[0] ?? "./fixtures/homebridge/", import.meta.url).pathname,
    "journey",
    recorded,
  );
}
