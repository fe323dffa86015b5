/**
 * Drives headless Chromium (Debian's `/usr/bin/chromium`, or `$CHROMIUM_BIN`)
 * through playwright-core, for tests that open a report in a real browser.
 *
 * Every browser gets a fresh profile directory that is removed afterwards,
 * the flags a closed network needs, bounded waits (Playwright's per-call
 * timeouts plus a deadline for the whole session), and is always closed.
 * Outside CI a missing Chromium makes the tests that need it ignored, with
 * the reason in their names; with `CI=true` they run and fail.
 */
import { chromium, type Page } from "playwright-core";

/** The Chromium executable the tests use. */
export const chromiumPath: string = Deno.env.get("CHROMIUM_BIN") ?? "/usr/bin/chromium";

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Whether browser tests should be ignored here. */
export const ignoreBrowser: boolean = !exists(chromiumPath) && Deno.env.get("CI") !== "true";

/** Appended to the names of browser tests, saying why they were ignored. */
export const whyBrowserIgnored: string = ignoreBrowser
  ? ` [ignored: ${chromiumPath} not found (apt-get install chromium); with CI=true this fails]`
  : "";

/** Flags that keep Chromium quiet and well-behaved without a network or a display. */
const ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Options of {@linkcode withPage}. */
export interface PageOptions {
  /** Deadline for the whole session, launch included (default 60 s). */
  deadlineMs?: number;
  /** Timeout of each Playwright action and wait (default 10 s). */
  actionTimeoutMs?: number;
  /** Viewport size (default 1280×900). */
  viewport?: { width: number; height: number };
}

/**
 * Launches Chromium with a fresh profile, runs `fn` with one page, then
 * closes the browser and removes the profile, whatever happened. Fails when
 * the session outlives its deadline.
 */
export async function withPage<T>(
  fn: (page: Page) => Promise<T>,
  options: PageOptions = {},
): Promise<T> {
  if (!exists(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}: apt-get install chromium, or set CHROMIUM_BIN`,
    );
  }
  const deadlineMs = options.deadlineMs ?? 60_000;
  const profile = await Deno.makeTempDir({ prefix: "flowrun-chromium-" });
  let context: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const session = (async () => {
      context = await chromium.launchPersistentContext(profile, {
        executablePath: chromiumPath,
        args: ARGS,
        headless: true,
        timeout: 30_000,
        viewport: options.viewport ?? { width: 1280, height: 900 },
        // The report must work offline: refuse every request that leaves the machine.
        offline: true,
      });
      context.setDefaultTimeout(options.actionTimeoutMs ?? 10_000);
      const page = context.pages()[0] ?? await context.newPage();
      return await fn(page);
    })();
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`browser session exceeded ${deadlineMs} ms`)),
        deadlineMs,
      );
    });
    return await Promise.race([session, deadline]);
  } finally {
    clearTimeout(timer);
    await context?.close().catch(() => {});
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}
