/**
 * The journey a user takes through Deluge's web UI, driven in Chromium and
 * recorded as HAR (tests/support/record_har.ts): log in with the web
 * password, connect to the daemon in the connection manager, add a torrent
 * from a magnet link (the Add dialog's Url button), pause and resume it,
 * change a bandwidth preference, remove it, log out. Each click waits for
 * the JSON-RPC call it makes (`POST /json`) to be answered 200.
 *
 * @module
 */
import type { Locator, Page } from "playwright-core";
import { type Recordings, recordSession } from "../support/record_har.ts";
import { WEB_PASSWORD } from "./deluge.ts";

/** The name the magnet link gives its torrent (shown in the list until metadata comes, never). */
export const TORRENT_NAME = "flowrun-magnet-sample";

/** A magnet link with a fixed info-hash, no tracker and no peer: added, listed, never fetched. */
export const MAGNET = `magnet:?xt=urn:btih:${"5d".repeat(20)}&dn=${TORRENT_NAME}`;

/** Runs `act` and waits for the 200 answer to the JSON-RPC call of `method`. */
async function rpc(page: Page, method: string, act: () => Promise<unknown>): Promise<void> {
  const [response] = await Promise.all([
    page.waitForResponse((r) =>
      new URL(r.url()).pathname === "/json" &&
      (r.request().postData() ?? "").includes(`"method":"${method}"`)
    ),
    act(),
  ]);
  if (response.status() !== 200) throw new Error(`${method} answered ${response.status()}`);
}

/** A visible button with exactly `text` in `within` (the page, or one window). */
function button(within: Page | Locator, text: string) {
  return within.locator("button:visible", { hasText: new RegExp(`^${text}$`) }).last();
}

/** Logs in, declines changing the default password, connects to the one daemon of the connection manager. */
async function logIn(page: Page): Promise<void> {
  await page.fill("#_password", WEB_PASSWORD);
  await rpc(page, "auth.login", () => page.press("#_password", "Enter"));
  // A fresh instance offers to change its default password first: the user declines.
  await rpc(page, "web.get_hosts", () => button(page, "No").click());
  const host = page.locator(".x-list-body dl", { hasText: "Online" }).first();
  await host.waitFor({ timeout: 20_000 });
  await host.click();
  await rpc(page, "web.connect", () => button(page, "Connect").click());
  await page.locator(".x-window", { hasText: "Connection Manager" }).waitFor({ state: "hidden" });
}

/** Adds the magnet link through the Add dialog's Url window. */
async function addMagnet(page: Page): Promise<void> {
  // The toolbar is enabled once the UI has the daemon's methods.
  await page.locator("#add:not(.x-item-disabled)").waitFor({ timeout: 20_000 });
  await page.click("#add button");
  await button(page, "Url").click();
  await page.fill("#url", MAGNET);
  const urlWindow = page.locator(".x-window:visible", { has: page.locator("#url") });
  await rpc(page, "web.get_magnet_info", () => button(urlWindow, "Add").click());
  const addWindow = page.locator(".x-window:visible", { hasText: "Add Torrents" });
  await rpc(page, "web.add_torrents", () => button(addWindow, "Add").click());
}

/** Sets a global upload limit on the preferences' Bandwidth page and saves with OK. */
async function setUploadLimit(page: Page): Promise<void> {
  await rpc(page, "core.get_config", () => page.click("#preferences button"));
  await page.locator(".x-window .x-list-body dl", { hasText: "Bandwidth" }).click();
  const field = page.locator(".x-window input[name=max_upload_speed]:visible");
  await field.fill("512");
  await rpc(page, "core.set_config", () => button(page, "OK").click());
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./deluge_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8112");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/`);
    await logIn(page);
    await addMagnet(page);
    const row = page.locator(".x-grid3-row", { hasText: TORRENT_NAME });
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    await rpc(page, "core.pause_torrent", () => page.click("#pause button"));
    await rpc(page, "core.resume_torrent", () => page.click("#resume button"));
    await setUploadLimit(page);
    await row.click();
    await page.click("#remove button");
    await rpc(page, "core.remove_torrents", () => button(page, "Remove With Data").click());
    await row.waitFor({ state: "detached", timeout: 20_000 });
    await rpc(page, "auth.delete_session", () => page.click("#logout button"));
  }, 120_000);
}

/**
 * A recording made public: the instance's temp folder (`dir`, which its
 * config answers as the download folder) renamed to a folder under `/srv`
 * with the same random part and the same length (chrome-har's request
 * sizes, which the converter reads, stay true), so a stored recording names
 * no path of this machine yet still holds a folder only that instance had.
 *
 * @example
 * ```ts
 * import { publicRecording } from "./deluge_journey.ts";
 * const har = publicRecording('{"p":"/tmp/flowrun-real-ab12/downloads"}', "/tmp/flowrun-real-ab12");
 * if (har !== '{"p":"/srv/deluge-webui-ab12/downloads"}') throw new Error(har);
 * ```
 */
export function publicRecording(har: string, dir: string): string {
  const random = dir.slice(dir.lastIndexOf("-") + 1);
  const renamed = `/srv/deluge-webui-${random}`.padEnd(dir.length, "0").slice(0, dir.length);
  return har.replaceAll(dir, renamed);
}
