/**
 * `convert har` on a journey recorded in Chromium through the page of a real
 * LoopBack 4 application (`@loopback/example-file-transfer`, published by the
 * LoopBack project): open the page (it lists the files), upload a file with a
 * note, see the list refresh, download the file. Recorded on a fresh instance
 * A (Playwright's HAR and a DevTools-style one), converted with default
 * options, and run once on a fresh instance B with only the base URL set.
 * Measured: steps passed on the first run, and which of the journey's API
 * requests the conversion dropped.
 */
import assert from "node:assert/strict";
import { ignoreBrowser, whyBrowserIgnored } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { FILES, filesLaunch } from "./loopback.ts";
import { readReport } from "./measure.ts";
import { type Instance, prepare, realTest, withInstance } from "./servers.ts";

const files = await prepare([FILES]);

/** The journey, as a user does it on the app's own page. */
async function record(a: Instance, upload: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    const listed = (method: string) => (r: { url(): string; request(): { method(): string } }) =>
      new URL(r.url()).pathname === "/files" && r.request().method() === method;
    await Promise.all([page.waitForResponse(listed("GET")), page.goto(`${a.origin}/`)]);
    await page.setInputFiles("#files", upload);
    await page.fill("#note", "quarterly notes");
    await Promise.all([
      page.waitForResponse(listed("POST")),
      page.waitForResponse(listed("GET")),
      page.click("input[type=submit]"),
    ]);
    const link = page.locator("#fileList a", { hasText: "notes.txt" });
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    await download.path();
  });
}

/** What one recording gave on instance B. */
interface Outcome {
  steps: number;
  passed: number;
  dropped: string;
  failures: string;
  uploadedOnB: number;
}

/** Converts `har` with default options and runs the flow once on a fresh instance. */
async function replay(prefix: string, har: string, out: string): Promise<Outcome> {
  const converted = await runCli(["convert", "har", har, "-o", `${out}/flow.yaml`]);
  assert.equal(converted.code, 0, converted.stderr);
  const flow = await Deno.readTextFile(`${out}/flow.yaml`);
  return await withInstance(filesLaunch(prefix), async (b) => {
    const env = userEnv(flow, b.origin, () => undefined);
    const run = await runCli(["run", `${out}/flow.yaml`, "--report-json", `${out}/report.json`], {
      env,
    });
    const { steps } = await readReport(`${out}/report.json`);
    const failed = steps.filter((s) => s.status !== "passed");
    let uploadedOnB = 0;
    for await (const _ of Deno.readDir(`${b.dir}/uploads`)) uploadedOnB++;
    return {
      steps: steps.length,
      passed: steps.length - failed.length,
      dropped: /^Dropped[^\n]*(\n(?!Replaced)[^\n]*)*/m.exec(converted.stderr)?.[0] ?? "",
      failures: failed.length ? `${run.stdout.slice(0, 4000)}\n${flow}` : "",
      uploadedOnB,
    };
  });
}

realTest(
  "a journey through LoopBack file transfer's page, recorded in Chromium, passes on a fresh instance on its first run",
  files.ignoredBecause || whyBrowserIgnored,
  async (dir) => {
    const prefix = files.install!.prefix;
    await Deno.writeTextFile(`${dir}/notes.txt`, "first line\n");
    const recorded = await withInstance(
      filesLaunch(prefix),
      (a) => record(a, `${dir}/notes.txt`),
    );
    await writeRecordings(dir, "files", recorded);
    for (const form of ["pw", "cdp"]) {
      await Deno.mkdir(`${dir}/${form}`);
      const o = await replay(prefix, `${dir}/files.${form}.har`, `${dir}/${form}`);
      console.error(
        `file transfer (${form} HAR): ${o.passed} of ${o.steps} steps passed on a fresh instance; ${
          o.dropped.replaceAll("\n", " ")
        }`,
      );
      // Goal met: every step passes on the first run, and the upload reached instance B.
      // Measured 2026-11-26: 4 steps; the download (GET /files/notes.txt, an attachment
      // opened as a navigation) is kept and opens the name the listing gave on B (the
      // placeholder upload's), captured: a literal notes.txt answered 404 there.
      assert.ok(o.steps >= 4 && o.passed === o.steps, o.failures);
      assert.equal(o.uploadedOnB, 1);
    }
  },
  ignoreBrowser,
);
