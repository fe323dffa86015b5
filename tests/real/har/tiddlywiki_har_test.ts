/**
 * Issue 52, "how it is proven", HAR on another real single-page app:
 * TiddlyWiki (npm `tiddlywiki`, pinned), whose browser client syncs each
 * tiddler over the server's REST API on a timer. The set-up installs it into
 * a cache outside the repository, starts a fresh instance A1 and records the
 * journey of tiddlywiki_journey.ts in Chromium (both HAR forms: Playwright's
 * and chrome-har's), then records it again on a fresh A2.
 *
 * Each way of converting — default options, `--verify` against a fresh
 * instance, the two recordings together — is run on another fresh instance
 * exactly as the flow's header asks, then once more on that instance (the
 * first run's saves and deletes are there), then cut after its save of the
 * renamed tiddler and run there once more, and the tiddler read back: it
 * must hold what the browser saved (the changed text, the tag, a date the
 * wiki reads as one). The goal is every step passing on the first run and
 * again, and the same tiddler.
 *
 * No control without correlation: the wiki's API takes nothing from a
 * response (no token, no id it made; the `Etag` revision is never sent
 * back), so nothing here needs one.
 *
 * Slow: an install on the first run (about 11 s, from the npm registry), two
 * recordings in Chromium and ten TiddlyWiki starts (about 20 CPU-seconds).
 */
import assert from "node:assert/strict";
import { recordSession } from "../../support/record_har.ts";
import { ignoreBrowser, whyBrowserIgnored } from "../../support/browser.ts";
import { failures, table } from "./measure.ts";
import { installTiddlyWiki, startTiddlyWiki } from "./tiddlywiki.ts";
import {
  driveTiddlyWiki,
  RENAMED_TITLE,
  SECOND_TEXT,
  TAG,
  TIDDLER_TITLE,
} from "./tiddlywiki_journey.ts";
import { measureTw, type TwMeasure } from "./tiddlywiki_measure.ts";

/** Records the journey once on a fresh instance, into DIR/STEM.pw.har and DIR/STEM.cdp.har. */
async function record(dir: string, stem: string): Promise<void> {
  const instance = await startTiddlyWiki();
  try {
    const recorded = await recordSession((page) => driveTiddlyWiki(page, instance.origin), 120_000);
    await Deno.writeTextFile(`${dir}/${stem}.pw.har`, recorded.playwright);
    await Deno.writeTextFile(`${dir}/${stem}.cdp.har`, recorded.chromeHar);
  } finally {
    await instance.close();
  }
}

interface Entry {
  request: { method: string; url: string; headers: { name: string; value: string }[] };
}

/** Each request of a recording as `METHOD /decoded/path`, with its headers. */
async function sentIn(path: string): Promise<{ line: string; entry: Entry }[]> {
  const har = JSON.parse(await Deno.readTextFile(path));
  return har.log.entries.map((entry: Entry) => ({
    line: `${entry.request.method} ${decodeURIComponent(new URL(entry.request.url).pathname)}`,
    entry,
  }));
}

/** Why a way does not meet the goal ("" when it does). */
function shortOf(m: TwMeasure): string {
  if (m.convert.code !== 0) return `convert exit ${m.convert.code}`;
  if (!m.run || m.run.code !== 0 || m.passed !== m.steps.length || m.steps.length === 0) {
    return "the first run did not pass";
  }
  if (!m.again || m.again.code !== 0 || m.again.passed !== m.steps.length) {
    return "the second run did not pass";
  }
  const held = m.held;
  if (held?.text !== SECOND_TEXT || held?.tags !== TAG) {
    return `the wiki holds ${JSON.stringify(held)}`;
  }
  // TiddlyWiki's dates are YYYYMMDDHHmmssSSS; anything else it cannot read as a date.
  if (!/^\d{17}$/.test(held.created ?? "") || !/^\d{17}$/.test(held.modified ?? "")) {
    return `the wiki holds dates ${held.created} and ${held.modified}`;
  }
  return "";
}

Deno.test({
  name:
    `real HAR: a TiddlyWiki journey recorded in Chromium passes on a fresh instance${whyBrowserIgnored}`,
  ignore: ignoreBrowser,
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const install = await installTiddlyWiki();
  console.error(
    `tiddlywiki install: ${install.cached ? "cached" : "cold"}, ${Math.round(install.ms)} ms`,
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-real-har-" });
  const measures: TwMeasure[] = [];
  try {
    await record(dir, "a1");
    await record(dir, "a2");

    await t.step(
      "the recordings hold the journey: list, three saves, a rename, a delete",
      async () => {
        for (const form of ["pw", "cdp"]) {
          const sent = await sentIn(`${dir}/a1.${form}.har`);
          const count = (line: string) => sent.filter((s) => s.line === line).length;
          assert.ok(count("GET /recipes/default/tiddlers.json") >= 1, form);
          assert.equal(count(`PUT /recipes/default/tiddlers/${TIDDLER_TITLE}`), 3, form);
          // The rename saves the new title and deletes the old; then the new one is deleted.
          assert.equal(count(`PUT /recipes/default/tiddlers/${RENAMED_TITLE}`), 1, form);
          assert.equal(count(`DELETE /bags/default/tiddlers/${TIDDLER_TITLE}`), 1, form);
          assert.equal(count(`DELETE /bags/default/tiddlers/${RENAMED_TITLE}`), 1, form);
          // Every write carries the wiki's CSRF guard, which the flow must send too.
          for (const { line, entry } of sent) {
            if (!/^(PUT|DELETE) /.test(line)) continue;
            const guard = entry.request.headers.find((h) => /^x-requested-with$/i.test(h.name));
            assert.equal(guard?.value, "TiddlyWiki", `${form} ${line}`);
          }
        }
      },
    );

    for (const form of ["pw", "cdp"]) {
      const a1 = `${dir}/a1.${form}.har`;
      measures.push(await measureTw(`${form} default`, dir, [a1]));
      measures.push(await measureTw(`${form} verify`, dir, [a1], { verify: true }));
      measures.push(await measureTw(`${form} two`, dir, [a1, `${dir}/a2.${form}.har`]));
    }
    console.error(
      `\nTiddlyWiki journey, each flow run on a fresh instance, then again on it:\n${
        table(measures)
      }`,
    );
    for (const m of measures) {
      console.error(`${m.label}: the wiki held ${JSON.stringify(m.held)}`);
      const why = failures(m);
      if (why) console.error(`${m.label}, steps that did not pass:\n${why}`);
    }

    await t.step("no flow asks for a variable beyond its base URL", () => {
      for (const m of measures) {
        assert.deepEqual(Object.keys(m.env).filter((n) => !/BASE_URL/.test(n)), [], m.label);
      }
    });

    for (const m of measures) {
      await t.step(
        `${m.label}: passes on a fresh instance and again, and saves what the browser saved`,
        () => {
          const account = `${table([m])}\n${failures(m)}\n${m.convert.stderr.slice(-3000)}`;
          assert.equal(shortOf(m), "", account);
        },
      );
    }
  } finally {
    // REAL_HAR_KEEP=DIR keeps the recordings, flows and reports for a diagnosis.
    const keep = Deno.env.get("REAL_HAR_KEEP");
    if (keep) {
      await Deno.mkdir(keep, { recursive: true });
      for await (const entry of Deno.readDir(dir)) {
        await Deno.copyFile(`${dir}/${entry.name}`, `${keep}/${entry.name}`);
      }
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
