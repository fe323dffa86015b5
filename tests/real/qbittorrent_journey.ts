/**
 * The journey a user takes through qBittorrent's web UI, driven in Chromium
 * and recorded as HAR (tests/support/record_har.ts): log in, add a torrent
 * from a `.torrent` file made here (the upload dialog's form), select it so
 * its properties show, open its trackers tab, pause and resume it, set an
 * upload limit in the preferences, delete it, log out. Each click waits for
 * the API call it makes to be answered 200.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { type Recordings, recordSession } from "../support/record_har.ts";
import { makeTorrent } from "./transmission.ts";
import { LOGIN } from "./qbittorrent.ts";

/** The file the torrent shares (its name shows in the list). */
export const TORRENT_NAME = "flowrun-qbt-sample.txt";

/** A 40 KiB file's content, the same every time (so its torrent's hash is too). */
function sampleContent(): Uint8Array {
  const content = new Uint8Array(40_000);
  for (let i = 0; i < content.length; i++) content[i] = (i * 37 + 11) % 251;
  return content;
}

/**
 * The `.torrent` the journey adds (the same bytes every time): what a user
 * puts in place of the converted flow's upload placeholder.
 *
 * @example
 * ```ts
 * import { sampleTorrent } from "./qbittorrent_journey.ts";
 * if ((await sampleTorrent()).length < 100) throw new Error();
 * ```
 */
export async function sampleTorrent(): Promise<Uint8Array> {
  return await makeTorrent(TORRENT_NAME, sampleContent());
}

/** Waits for the answer 200 to the API call at `path` (under `/api/v2/`). */
function answered(page: Page, path: string) {
  return page.waitForResponse((r) =>
    new URL(r.url()).pathname === `/api/v2/${path}` && r.status() === 200
  );
}

/** Adds the torrent through the upload dialog (an iframe holding a multipart form). */
async function upload(page: Page, torrent: Uint8Array): Promise<void> {
  await page.click("#uploadButton");
  const dialog = page.frameLocator("#uploadPage_iframe");
  await dialog.locator("#fileselect").setInputFiles({
    name: `${TORRENT_NAME}.torrent`,
    mimeType: "application/x-bittorrent",
    buffer: Buffer.from(torrent), // Playwright base64-encodes a Buffer, not a Uint8Array
  });
  await Promise.all([
    answered(page, "torrents/add"),
    dialog.locator("button[type=submit]").click(),
  ]);
}

/** Sets an upload limit on the preferences' Speed tab and saves. */
async function setUploadLimit(page: Page): Promise<void> {
  await Promise.all([answered(page, "app/preferences"), page.click("#preferencesButton")]);
  await page.click("#PrefSpeedLink");
  await page.fill("#up_limit_value", "512");
  await Promise.all([
    answered(page, "app/setPreferences"),
    page.click("#preferencesPage input[value=Save]"),
  ]);
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./qbittorrent_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  const torrent = await sampleTorrent();
  return await recordSession(async (page) => {
    await page.goto(`${origin}/`);
    await page.fill("#username", LOGIN.username);
    await page.fill("#password", LOGIN.password);
    await Promise.all([answered(page, "sync/maindata"), page.click("#login")]);
    await upload(page, torrent);
    const row = page.locator("#torrentsTableDiv tr", { hasText: TORRENT_NAME });
    await row.waitFor({ timeout: 20_000 });
    await Promise.all([answered(page, "torrents/properties"), row.click()]);
    await Promise.all([answered(page, "torrents/trackers"), page.click("#PropTrackersLink")]);
    await Promise.all([answered(page, "torrents/pause"), page.click("#pauseButton")]);
    await Promise.all([answered(page, "torrents/resume"), page.click("#resumeButton")]);
    await setUploadLimit(page);
    await page.keyboard.press("Escape");
    await row.click();
    await page.click("#deleteButton");
    await Promise.all([
      answered(page, "torrents/delete"),
      page.frameLocator("#confirmDeletionPage_iframe").locator("#confirmBtn").click(),
    ]);
    await row.waitFor({ state: "detached", timeout: 20_000 });
    await Promise.all([
      answered(page, "auth/logout"),
      page.locator("#logoutLink").dispatchEvent("click"),
    ]);
  }, 120_000);
}

/**
 * A recording made public: the instance's temp folder (`dir`, which its
 * preferences answer as the save path) renamed to a folder under `/srv` with
 * the same random part, so a stored recording names no path of this machine
 * yet still holds a folder only that instance had.
 *
 * @example
 * ```ts
 * import { publicRecording } from "./qbittorrent_journey.ts";
 * const har = publicRecording('{"p":"/tmp/flowrun-real-ab12/downloads"}', "/tmp/flowrun-real-ab12");
 * if (har !== '{"p":"/srv/qbittorrent-ab12/downloads"}') throw new Error(har);
 * const form = publicRecording("json=%2Ftmp%2Fflowrun-real-ab12", "/tmp/flowrun-real-ab12");
 * if (form !== "json=%2Fsrv%2Fqbittorrent-ab12") throw new Error(form);
 * ```
 */
export function publicRecording(har: string, dir: string): string {
  const random = dir.slice(dir.lastIndexOf("-") + 1);
  const renamed = `/srv/qbittorrent-${random}`;
  // The saved preferences hold it percent-encoded, in a form field.
  return har.replaceAll(dir, renamed)
    .replaceAll(encodeURIComponent(dir), encodeURIComponent(renamed));
}
