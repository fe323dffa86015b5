/**
 * `convert har` on a login cookie whose NAME is a digest of the instance,
 * as DokuWiki's is (tests/real/dokuwiki_har_test.ts): it logs in with
 * `DW` + the MD5 of its base path and port, so a fresh instance on another
 * port sets another name, and the capture `{cookie: DW37d434e3…}` failed
 * the login there ("the response sets no cookie"), every later step
 * skipped. WordPress names its cookies `wordpress_logged_in_` + an MD5 of
 * the site's URL, Drupal `SESS` + a SHA-256 of its cookie domain.
 *
 * What the converter does (lib/convert/correlate/cookie_names.ts): a span
 * of the name that is a hex digest (32, 40 or 64 hex digits: an MD5, a SHA-1,
 * a SHA-256, 128 bits or more no word of an API spells) is the instance's,
 * read from the fresh `Set-Cookie` by a pattern, and the `Cookie` header
 * names the cookie by that capture. Widened: the four spellings, and a name
 * of words and a short number stays a capture by its name.
 */
import assert from "node:assert/strict";
import {
  convertWiki,
  type CookieName,
  dokuwikiName,
  hexDigest,
  runWiki,
  wikiRecording,
  wikiStandIn,
} from "./har_rendered_wiki.ts";

const spellings: [string, CookieName][] = [
  ["DokuWiki's DW<md5>", dokuwikiName],
  [
    "WordPress's wordpress_logged_in_<md5>",
    async (h) => `wordpress_logged_in_${await hexDigest(h, 32)}`,
  ],
  ["Drupal's SESS<sha256>", async (h) => `SESS${await hexDigest(h)}`],
  ["a SHA-1 between words", async (h) => `auth-${await hexDigest(h, 40)}-v2`],
];

for (const [what, name] of spellings) {
  Deno.test(`convert har: a login cookie named ${what} of the instance is read by a pattern and passes on another instance`, async () => {
    const dir = await Deno.makeTempDir();
    const fresh = wikiStandIn(name);
    try {
      const recorded = await name("127.0.0.1:8181");
      const { converted, flow, flowPath } = await convertWiki(dir, await wikiRecording(name));
      assert.equal(converted.code, 0, converted.stderr);
      assert.ok(!flow.includes(`{ cookie: ${recorded} }`), flow);
      const run = await runWiki(flowPath, fresh.origin);
      assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
      assert.notEqual(await name(new URL(fresh.origin).host), recorded);
    } finally {
      await fresh.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("convert har: a login cookie named in words and a short number is captured by its name", async () => {
  const dir = await Deno.makeTempDir();
  const named: CookieName = () => Promise.resolve("wiki_auth_v2");
  const fresh = wikiStandIn(named);
  try {
    const { converted, flow, flowPath } = await convertWiki(dir, await wikiRecording(named));
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(flow, /\{ cookie: wiki_auth_v2 \}/, flow);
    const run = await runWiki(flowPath, fresh.origin);
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});
