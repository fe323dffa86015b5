/**
 * The password inputs of the pages the flow does not keep. A single-page
 * app's login page (Tiny Tiny RSS's `index.php`) is an HTML document that
 * sets no cookie and holds nothing a later request sends, so it is dropped;
 * yet its `<input type="password" name="password">` is what says the form's
 * post (to `public.php`, a path not named like a login) is the login. The
 * user typed into that page whether or not the flow keeps it.
 *
 * @module
 */
import { loadBodies } from "./har_bodies.ts";
import type { HarRecord } from "./har_model.ts";
import { addChoiceFields, type Correlator, passwordFields, textFields } from "./correlate/mod.ts";

/**
 * Adds to `c` the password inputs declared by the recorded HTML pages of
 * `all` that are not in `kept`, on the hosts the kept requests go to (a
 * page of another site declares nothing for the app). Returns `c`.
 *
 * @example
 * ```ts
 * import { dropPagesPasswords } from "./login_pages.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const page = {
 *   url: new URL("http://rss.test/index.php"), mimeType: "text/html", raw: { response: {} },
 *   responseText: '<input type="password" name="password">',
 * };
 * const call = { url: new URL("http://rss.test/backend.php"), mimeType: "text/json" };
 * // deno-lint-ignore no-explicit-any
 * const c = dropPagesPasswords(newCorrelator("a"), [page, call] as any, [call] as any);
 * if (!c.passwordFields.has("password")) throw new Error();
 * ```
 */
export function dropPagesPasswords(
  c: Correlator,
  all: readonly HarRecord[],
  kept: readonly HarRecord[],
): Correlator {
  const hosts = new Set(kept.map((r) => r.url.host));
  const flowHas = new Set(kept);
  const pages = all.filter((r) =>
    !flowHas.has(r) && hosts.has(r.url.host) && /html/i.test(r.mimeType)
  );
  // The bodies of dropped records were never decoded; their limits are no note of the flow's.
  loadBodies(pages.filter((r) => r.responseText === undefined), []);
  for (const name of passwordFields(pages)) c.passwordFields.add(name);
  addChoiceFields(c, pages);
  for (const name of textFields(pages)) c.textFields.add(name);
  return c;
}
