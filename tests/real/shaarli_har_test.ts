/**
 * `convert har` on a bookmarking app nobody here wrote whose forms carry
 * single-use tokens: Shaarli 0.12.1 from Debian bookworm
 * (tests/real/shaarli.ts), run by `php -S` on a flat-file datastore. Every
 * page hands out a new `token` (in its forms' hidden input and in the
 * query of its pin and delete links) and the server forgets each once a
 * request spends it; the login form posts it with a "remember me"
 * checkbox named `longlastingsession` (302, the `shaarli` session cookie
 * and `shaarli_staySignedIn`); every save answers 302 back to the list.
 * The journey (shaarli_journey.ts): log in, add three links (tags, a
 * private one, a note), edit one, pin one, rename a tag in the tag
 * management page, search by tag, change the title in the configure page,
 * delete a link, log out.
 *
 * Measured 2026-11-27 on the stored recordings (Chromium 156), converted
 * with the default options and run on a fresh instance with only what the
 * summary asks: before, both asked `LOGIN_LONGLASTINGSESSION` beside the
 * password (the checkbox's name ends in SESSION), so the run was refused;
 * given `on` by hand, chrome-har's passed 36 of 36 and Playwright's asked
 * `TOKEN` too: 18 of 34 (its list page read twice in a row was folded into
 * one step keeping the first read, whose token the pin did not send). The
 * box sends the page's own value (har_checkbox_field_test.ts); the step of
 * reads whose answers differ is the last (har_repeated_page_test.ts). After
 * both: only LOGIN_PASSWORD asked, 34 of 34 and 36 of 36, twice. The ids
 * the edit, pin and delete send are the recorded ones (3, 5, 4): a fresh
 * instance's first run makes the same, the second acts on the first run's
 * links (see docs/real-servers.md). The stored recordings run without a
 * browser; a new one is recorded in Chromium with `SHAARLI_FRESH=1`.
 */
import assert from "node:assert/strict";

import { LOGIN, shaarliLaunch, shaarliMissing } from "./shaarli.ts";
import { MADE, recordJourney } from "./shaarli_journey.ts";
import { convertStored, loginAppTests, passesTwice, rememberedApp } from "./har_login_app.ts";

const missing = shaarliMissing();
const FIXTURES = new URL("./fixtures/shaarli/", import.meta.url).pathname;

/** The steps each stored recording converts to. */
const STEPS: Record<string, number> = { "journey.pw.har": 34, "journey.cdp.har": 36 };

/** Fresh instances, their folders remembered: the runs read their datastore. */
const SHAARLI = rememberedApp("shaarli", shaarliLaunch, LOGIN.password);

/** One bookmark of the datastore, as PHP serialized it. */
interface Bookmark {
  title: string;
  tags: string[];
  sticky: boolean;
  private: boolean;
}

/** The serialized PHP string or boolean property `name` of one bookmark's text. */
function property(text: string, name: string): string | boolean | undefined {
  const m = new RegExp(`"\\0\\*\\0${name}";(?:s:\\d+:"([^"]*)"|b:([01]))`).exec(text);
  return m ? m[1] ?? m[2] === "1" : undefined;
}

/** The bookmarks of the datastore: base64 of PHP's deflate of its serialize(), between comments. */
async function bookmarks(dir: string): Promise<Bookmark[]> {
  const file = await Deno.readTextFile(`${dir}/data/datastore.php`);
  const packed = Uint8Array.from(
    atob(file.slice("<?php /* ".length, -" */ ?>".length)),
    (c) => c.charCodeAt(0),
  );
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  const text = await new Response(stream).text();
  return text.split(/O:\d+:"Shaarli\\Bookmark\\Bookmark"/).slice(1).map((one) => {
    const tags = /"\0\*\0tags";a:\d+:\{([^}]*)\}/.exec(one)?.[1] ?? "";
    return {
      title: String(property(one, "title")),
      tags: [...tags.matchAll(/s:\d+:"([^"]*)"/g)].map((m) => m[1]),
      sticky: property(one, "sticky") === true,
      private: property(one, "private") === true,
    };
  });
}

/** What a run left in the latest instance: its bookmarks and the title of its configuration. */
async function state(_origin: string) {
  const dir = SHAARLI.latest();
  const config = await Deno.readTextFile(`${dir}/data/config.json.php`);
  const json = JSON.parse(config.replace("<?php /*", "").replace("*/ ?>", ""));
  return { bookmarks: await bookmarks(dir), title: json.general.title as string };
}

/** Converts the stored recording `name` and runs it twice on one fresh instance: every step passes. */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const converted = await convertStored(SHAARLI, `${FIXTURES}${name}`, dir);
  const [first, second] = await passesTwice(SHAARLI, converted, STEPS[name], state);
  const titled = (run: typeof first, title: string) =>
    run.bookmarks.filter((b) => b.title === title);
  // The first run added three links, edited the first, pinned the note, deleted the private one,
  // renamed a tag and the instance.
  assert.equal(titled(first, MADE.edited).length, 1, JSON.stringify(first.bookmarks));
  assert.equal(titled(first, MADE.links[1].title).length, 0);
  assert.deepEqual(titled(first, MADE.links[2].title).map((b) => b.sticky), [true]);
  assert.ok(first.bookmarks.every((b) => !b.tags.includes(MADE.tag.from)));
  assert.ok(titled(first, MADE.edited)[0].tags.includes(MADE.tag.to));
  assert.equal(first.title, MADE.title);
  // The second added three more (a token of its own for each form), and renamed their tag too.
  assert.equal(second.bookmarks.length, first.bookmarks.length + 3);
  assert.equal(titled(second, MADE.links[2].title).length, 2);
  assert.ok(second.bookmarks.every((b) => !b.tags.includes(MADE.tag.from)));
}

loginAppTests({
  label: "Shaarli",
  app: SHAARLI,
  fixtures: FIXTURES,
  missing,
  steps: STEPS["journey.pw.har"],
  storedPassesTwice,
  record: recordJourney,
  freshMin: 30,
});
