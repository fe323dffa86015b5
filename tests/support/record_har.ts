/**
 * Records a browser session as HAR twice at once: Playwright's `recordHar`
 * and a DevTools-style export built by the `chrome-har` package from the CDP
 * events the page emitted (what browsertime and sitespeed.io write).
 */
import { chromium, type Page, type Response } from "playwright-core";
import { harFromMessages } from "chrome-har";
import { chromiumPath } from "./browser.ts";

/** The two recordings of one session. */
export interface Recordings {
  /** Playwright's HAR (`recordHar`, bodies embedded). */
  playwright: string;
  /** chrome-har's HAR, response bodies included. */
  chromeHar: string;
}

/**
 * Launches Chromium (online, unlike the report tests), runs `drive` on one
 * page and returns both recordings; the browser is closed whatever happens,
 * and the whole session has a deadline.
 */
export async function recordSession(
  drive: (page: Page) => Promise<void>,
  deadlineMs = 90_000,
): Promise<Recordings> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-" });
  const harPath = `${dir}/session.har`;
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    timeout: 30_000,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const session = (async () => {
      const context = await browser.newContext({
        recordHar: { path: harPath, content: "embed" },
      });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const messages: { method: string; params: Record<string, unknown> }[] = [];
      const bodies: Promise<void>[] = [];
      const responses = new Map<string, Record<string, unknown>>();
      const events = [
        "Page.frameStartedLoading",
        "Page.frameRequestedNavigation",
        "Page.navigatedWithinDocument",
        "Page.domContentEventFired",
        "Page.loadEventFired",
        "Page.frameAttached",
        "Network.requestWillBeSent",
        "Network.requestWillBeSentExtraInfo",
        "Network.requestServedFromCache",
        "Network.dataReceived",
        "Network.responseReceived",
        "Network.responseReceivedExtraInfo",
        "Network.resourceChangedPriority",
        "Network.loadingFinished",
        "Network.loadingFailed",
      ] as const;
      for (const method of events) {
        cdp.on(method, (params: Record<string, unknown>) => {
          messages.push({ method, params });
          if (method === "Network.responseReceived") {
            responses.set(params.requestId as string, params.response as Record<string, unknown>);
          }
          if (method === "Network.loadingFinished") {
            const response = responses.get(params.requestId as string);
            if (!response) return;
            bodies.push(
              cdp.send("Network.getResponseBody", { requestId: params.requestId as string })
                .then((b) => {
                  response.body = b.base64Encoded ? atob(b.body) : b.body;
                })
                .catch(() => {}),
            );
          }
        });
      }
      await cdp.send("Page.enable");
      await cdp.send("Network.enable");
      await drive(page);
      await Promise.all(bodies);
      await context.close();
      const chromeHar = JSON.stringify(
        harFromMessages(messages, { includeTextFromResponseBody: true }),
        null,
        2,
      );
      return { playwright: await Deno.readTextFile(harPath), chromeHar };
    })();
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`recording exceeded ${deadlineMs} ms`)),
        deadlineMs,
      );
    });
    return await Promise.race([session, deadline]);
  } finally {
    clearTimeout(timer);
    await browser.close().catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** The paths of this machine a recording names (a home, a temp or checkout folder). */
export function hostPaths(har: string): string[] {
  const home = Deno.env.get("HOME");
  const found = new Set<string>();
  for (const m of har.matchAll(/(?:file:\/\/|\/(?:home|root|tmp|work|Users)\/)[^"\s]{0,60}/g)) {
    found.add(m[0]);
  }
  if (home && home.length > 1 && har.includes(home)) found.add(home);
  return [...found];
}

/**
 * Writes both recordings of a session as `OUT/STEM.pw.har` and
 * `OUT/STEM.cdp.har` (each ending in a newline), refusing any that names a
 * path of this machine: stored recordings are public.
 */
export async function writeRecordings(
  out: string,
  stem: string,
  recorded: Recordings,
): Promise<void> {
  await Deno.mkdir(out, { recursive: true });
  for (const [name, har] of [["pw", recorded.playwright], ["cdp", recorded.chromeHar]]) {
    const paths = hostPaths(har);
    if (paths.length > 0) throw new Error(`the ${name} recording names ${paths.join(", ")}`);
    await Deno.writeTextFile(`${out}/${stem}.${name}.har`, har.endsWith("\n") ? har : har + "\n");
    console.error(`wrote ${out}/${stem}.${name}.har (${har.length} bytes)`);
  }
}

/**
 * Runs `act` and waits for the answer to `method` on a path `path` matches;
 * throws unless it is 2xx. Gives the answer.
 *
 * @example
 * ```ts ignore
 * import { answered } from "./record_har.ts";
 * await answered(page, "POST", /\/api\/users$/, () => page.click("text=Save"));
 * ```
 */
export async function answered(
  page: Page,
  method: string,
  path: RegExp,
  act: () => Promise<unknown>,
): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) =>
      r.request().method() === method && path.test(new URL(r.url()).pathname)
    ),
    act(),
  ]);
  if (response.status() >= 300) {
    throw new Error(`${method} ${response.url()} answered ${response.status()}`);
  }
  return response;
}
