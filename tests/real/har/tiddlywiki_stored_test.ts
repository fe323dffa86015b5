/**
 * The TiddlyWiki journey of tiddlywiki_har_test.ts, as recorded there once
 * (both HAR forms, fixtures/tiddlywiki.{pw,cdp}.har, and again on another
 * fresh instance, fixtures/tiddlywiki.second.*.har) and converted here
 * without a browser or a server: a quick check of what the slow test runs
 * live. The fixtures are the recordings with the wiki's page (2.9 MB of
 * markup) emptied; every API call is as the browser recorded it.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { runCli } from "../../support/cli.ts";
import { headerVariables } from "../../support/convert_apps.ts";
import { RENAMED_TITLE, TAG, TIDDLER_TITLE } from "./tiddlywiki_journey.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;

interface Step {
  request: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    body?: Record<string, unknown>;
  };
}

/** Converts one form's recording (with `two`, the second too) with default options. */
async function convert(form: string, two = false): Promise<{ flow: string; steps: Step[] }> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-tiddlywiki-stored-" });
  try {
    const out = `${dir}/flow.yaml`;
    const hars = [`${FIXTURES}tiddlywiki.${form}.har`];
    if (two) hars.push(`${FIXTURES}tiddlywiki.second.${form}.har`);
    const run = await runCli(["convert", "har", ...hars, "-o", out]);
    assert.equal(run.code, 0, run.stderr);
    const flow = await Deno.readTextFile(out);
    const validated = await runCli(["validate", out]);
    assert.equal(validated.code, 0, `${validated.stdout}${validated.stderr}\n${flow}`);
    return { flow, steps: parse(flow).steps };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The steps that send `method` for the tiddler titled `title`. */
const sending = (steps: Step[], method: string, title: string) =>
  steps.filter((s) =>
    s.request.method === method && decodeURIComponent(s.request.url).endsWith(`/tiddlers/${title}`)
  );

for (const form of ["pw", "cdp"]) {
  for (const two of [false, true]) {
    const way = two ? "two recordings" : "one recording";
    Deno.test(`tiddlywiki ${form}, ${way}: the saves send the guard, the text, the tag and the page's dates`, async () => {
      const { flow, steps } = await convert(form, two);
      // Nothing to ask for: the wiki takes no password and hands out nothing a request sends back.
      assert.deepEqual(headerVariables(flow).filter((v) => v.required), []);
      for (const s of steps.filter((s) => /^(PUT|DELETE)$/.test(s.request.method))) {
        assert.equal(s.request.headers?.["x-requested-with"], "TiddlyWiki", s.request.url);
      }
      // Three saves, then the rename: a save of the new title and a delete of the old.
      const saved = [
        ...sending(steps, "PUT", TIDDLER_TITLE),
        ...sending(steps, "PUT", RENAMED_TITLE),
      ];
      assert.equal(saved.length, 4, flow);
      assert.equal(sending(steps, "DELETE", TIDDLER_TITLE).length, 1, flow);
      assert.equal(sending(steps, "DELETE", RENAMED_TITLE).length, 1, flow);
      const last = saved[3].request.body!;
      assert.equal(last.title, RENAMED_TITLE);
      assert.equal(last.text, "Ship the blue crates by Monday.");
      // chrome-har keeps a one-item list only as its item (a limit the conversion notes).
      assert.deepEqual(last.tags, form === "pw" ? [TAG] : TAG);
      // The dates the page stamped are sent as dates: with two recordings they differ, and until
      // 2026-11-26 they were written as ${RANDOM.HEX_17} (the wiki then held "NaNNaN…").
      for (const s of saved) {
        assert.match(String(s.request.body?.created), /^\d{17}$/, flow);
        assert.match(String(s.request.body?.modified), /^\d{17}$/, flow);
      }
      assert.ok(!/RANDOM|RUN_ID/.test(flow), flow);
    });
  }
}
