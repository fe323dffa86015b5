/**
 * The journey a user takes through ZNC's web admin, driven in Chromium and recorded as HAR
 * (tests/support/record_har.ts): log in as the admin, change the admin's own real name, add a
 * user, give it a network (not connected: no server) and a channel on it, edit the user, delete
 * the channel, the network and the user (each through its confirmation page), change a global
 * setting and put it back, log out. Every form posts the `_CSRF_Check` token of the page; each
 * click waits for its page (tests/support/page_settle.ts), bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them in
 * tests/real/fixtures/znc/ (`deno run -A tests/real/znc_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { openSettled as open, settle } from "../support/page_settle.ts";
import { start } from "./servers.ts";
import { LOGIN, zncLaunch, zncMissing } from "./znc.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the journey makes: the user (and the password typed for it), its network and channel. */
export const MADE = {
  ownName: "Harbour Keeper",
  user: { name: "ferryman", realname: "Ferry Man", edited: "Ferry Master" },
  userPassword: "Quay-Lamp-3071",
  network: "harbournet",
  channel: "#quayside",
  motd: "Tide tables at the quay",
} as const;

const ADMIN = "/mods/global/webadmin";

/** Clicks what `selector` finds and waits for the page it opens. */
function click(page: Page, selector: string): Promise<void> {
  return settle(page, () => page.locator(selector).first().click());
}

/** Logs in with the login form. */
async function logIn(page: Page, origin: string): Promise<void> {
  await open(page, origin, "");
  await page.fill("#user", LOGIN.username);
  await page.fill("#pass", LOGIN.password);
  await click(page, "input[type=submit][value=Login]");
  await page.locator("a[href='/logout']").waitFor();
}

/** Changes the admin's own real name from "Your Settings". */
async function ownSettings(page: Page): Promise<void> {
  await click(page, `a[href='${ADMIN}/edituser']`);
  await page.fill("#realname", MADE.ownName);
  await click(page, "input[name=submit_return]");
}

/** Adds the user from "Manage Users" and stays on its page. */
async function addUser(page: Page): Promise<void> {
  await click(page, `a[href='${ADMIN}/listusers']`);
  await click(page, `a[href='${ADMIN}/adduser']`);
  await page.fill("#user", MADE.user.name);
  await page.fill("#password", MADE.userPassword);
  await page.fill("#password2", MADE.userPassword);
  await page.fill("#nick", MADE.user.name);
  await page.fill("#realname", MADE.user.realname);
  await click(page, "input[name=submit_continue]");
  await page.locator(`a[href^='${ADMIN}/addnetwork']`).waitFor();
}

/** Adds the network (no server, not connecting) and a channel on it. */
async function addNetwork(page: Page): Promise<void> {
  await click(page, `a[href^='${ADMIN}/addnetwork']`);
  await page.fill("#name", MADE.network);
  await page.uncheck("#doconnect_checkbox");
  await click(page, "input[name=submit_continue]");
  await click(page, `a[href^='${ADMIN}/addchan']`);
  await page.fill("#name", MADE.channel);
  await click(page, "input[name=submit_return]");
  await page.locator("td", { hasText: MADE.channel }).first().waitFor();
}

/** Edits the user's real name from its page in "Manage Users". */
async function editUser(page: Page): Promise<void> {
  await click(page, `a[href='${ADMIN}/listusers']`);
  await click(page, `a[href='${ADMIN}/edituser?user=${MADE.user.name}']`);
  await page.fill("#realname", MADE.user.edited);
  await click(page, "input[name=submit_continue]");
}

/** Deletes the channel and the network from the user's pages, then the user, confirming each. */
async function deleteAll(page: Page): Promise<void> {
  await click(page, `a[href^='${ADMIN}/editnetwork']`);
  await click(page, `a[href^='${ADMIN}/delchan']`);
  await click(page, `a[href='${ADMIN}/edituser?user=${MADE.user.name}']`);
  await click(page, `a[href^='${ADMIN}/delnetwork']`);
  await click(page, "input[type=submit][value=Yes]");
  await click(page, `a[href='${ADMIN}/listusers']`);
  await click(page, `a[href^='${ADMIN}/deluser']`);
  await click(page, "input[type=submit][value=Yes]");
}

/** Sets the global MOTD in "Global Settings", then clears it again. */
async function globalSetting(page: Page): Promise<void> {
  for (const motd of [MADE.motd, ""]) {
    await click(page, `a[href='${ADMIN}/settings']`);
    await page.fill("textarea[name=motd]", motd);
    await click(page, "input[type=submit][value=Save]");
  }
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./znc_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await logIn(page, origin);
    await ownSettings(page);
    await addUser(page);
    await addNetwork(page);
    await editUser(page);
    await deleteAll(page);
    await globalSetting(page);
    await click(page, "a[href='/logout']");
    await page.locator("#pass").waitFor();
  }, 180_000);
}

if (import.meta.main) {
  const missing = zncMissing();
  if (missing) throw new Error(missing);
  const instance = await start(zncLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      new URL("./fixtures/znc/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
