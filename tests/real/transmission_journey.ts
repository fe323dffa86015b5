/**
 * The journey a user takes through Transmission's web UI, driven in
 * Chromium and recorded as HAR (tests/support/record_har.ts): open the web
 * UI, add a torrent from a `.torrent` file made here, select it and open
 * its inspector, turn on the upload speed limit in the preferences dialog,
 * pause and resume the torrent, remove it. Each click waits for the RPC
 * call it makes to be answered 200 (after the UI's resend of a 409).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { type Recordings, recordSession } from "../support/record_har.ts";
import { makeTorrent } from "./transmission.ts";

/** The file the torrent shares (its name shows in the list). */
export const TORRENT_NAME = "flowrun-sample.txt";

/** A 40 KiB file's content, the same every time (so its torrent's hash is too). */
function sampleContent(): Uint8Array {
  const content = new Uint8Array(40_000);
  for (let i = 0; i < content.length; i++) content[i] = (i * 31 + 7) % 251;
  return content;
}

/** Waits for the answer 200 to the RPC call of `method` (the UI's resend after a 409). */
function rpcAnswered(page: Page, method: string) {
  return page.waitForResponse((r) =>
    new URL(r.url()).pathname === "/transmission/rpc" && r.status() === 200 &&
    (r.request().postData() ?? "").includes(`"method":"${method}"`)
  );
}

/**
 * Records the journey on the daemon at `origin` (its web UI at
 * `/transmission/web/`); `credentials` when RPC authentication is on.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./transmission_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:9091");
 * ```
 */
export async function recordJourney(
  origin: string,
  credentials?: { username: string; password: string },
): Promise<Recordings> {
  const torrent = await makeTorrent(TORRENT_NAME, sampleContent());
  return await recordSession(async (page) => {
    if (credentials) {
      // What the browser sends once the user answered its Basic login prompt.
      const basic = btoa(`${credentials.username}:${credentials.password}`);
      await page.setExtraHTTPHeaders({ authorization: `Basic ${basic}` });
    }
    await Promise.all([rpcAnswered(page, "torrent-get"), page.goto(`${origin}/transmission/web/`)]);
    await page.click("#toolbar-open");
    await page.setInputFiles("#torrent_upload_file", {
      name: `${TORRENT_NAME}.torrent`,
      mimeType: "application/x-bittorrent",
      buffer: Buffer.from(torrent), // Playwright base64-encodes a Buffer, not a Uint8Array
    });
    await Promise.all([rpcAnswered(page, "torrent-add"), page.click("#upload_confirm_button")]);
    const row = page.locator("#torrent_list li.torrent", { hasText: TORRENT_NAME });
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    await Promise.all([rpcAnswered(page, "torrent-get"), page.click("#toolbar-inspector")]);
    await page.click("#inspector-tab-files");
    await page.click("#toolbar-inspector");
    await page.click("#prefs-button");
    await page.click("#prefs-tab-speed a");
    await Promise.all([rpcAnswered(page, "session-set"), page.check("#speed-limit-up-enabled")]);
    await page.keyboard.press("Escape");
    await Promise.all([rpcAnswered(page, "torrent-stop"), page.click("#toolbar-pause")]);
    await Promise.all([rpcAnswered(page, "torrent-start"), page.click("#toolbar-start")]);
    await page.click("#toolbar-remove");
    await Promise.all([rpcAnswered(page, "torrent-remove"), page.click("#dialog_confirm_button")]);
    await row.waitFor({ state: "detached", timeout: 20_000 });
  }, 120_000);
}

/**
 * A recording made public: the daemon's temp folder (`dir`, which its
 * `session-get` answers as `config-dir` and `download-dir`) renamed to a
 * folder under `/srv` with the same random part, so a stored recording
 * names no path of this machine yet still holds a folder only that daemon
 * had.
 *
 * @example
 * ```ts
 * import { publicRecording } from "./transmission_journey.ts";
 * const har = publicRecording('{"p":"/tmp/flowrun-real-ab12/downloads"}', "/tmp/flowrun-real-ab12");
 * if (har !== '{"p":"/srv/transmission-ab12/downloads"}') throw new Error(har);
 * ```
 */
export function publicRecording(har: string, dir: string): string {
  const random = dir.slice(dir.lastIndexOf("-") + 1);
  return har.replaceAll(dir, `/srv/transmission-${random}`);
}
