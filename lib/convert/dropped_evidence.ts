/**
 * What the records a flow drops say of the ones it keeps, for one recording or two alike: the
 * pages' `type="password"` and text inputs (which fields the user types), the scripts' literals
 * (what the client sends the same for every user), and the cookies only the dropped assets show
 * the browser held for a request recorded without them, the cookies only a dropped answer set
 * (no step can read them: dropped_cookies.ts), and every page the recording holds (what
 * a write's answered page shows that no other page does is its verdict: write_verdict.ts).
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import { nameAppOrigin } from "./correlate/app_origin.ts";
import { noteScriptLiterals } from "./correlate/script_literals.ts";
import type { HarRecord } from "./har_model.ts";
import { holdDroppedCookies } from "./held_cookies.ts";
import { noteDroppedSetCookies } from "./correlate/dropped_cookies.ts";
import { dropPagesPasswords } from "./login_pages.ts";

/**
 * Seeds `c` with what the records of `all` not in `kept` say of `kept` (which origin is the app's:
 * the first page's) and returns `c`.
 *
 * @example
 * ```ts
 * import { seedFromDropped } from "./dropped_evidence.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const page = {
 *   url: new URL("http://app.test/login"), mimeType: "text/html", raw: { response: {} },
 *   responseText: '<input type="password" name="p">', headers: [], cookies: [], setCookies: [],
 * };
 * const post = { url: new URL("http://app.test/do"), mimeType: "application/json", headers: [], cookies: [], setCookies: [] };
 * // deno-lint-ignore no-explicit-any
 * const c = seedFromDropped(newCorrelator("a"), [page, post] as any, [post] as any);
 * if (!c.passwordFields.has("p")) throw new Error();
 * ```
 */
export function seedFromDropped<C extends Correlator>(
  c: C,
  all: readonly HarRecord[],
  kept: readonly HarRecord[],
): C {
  c.pages.push(...all.filter((r) => /^(text\/html|application\/xhtml\+xml)$/.test(r.mimeType)));
  nameAppOrigin(c, kept);
  holdDroppedCookies(noteScriptLiterals(dropPagesPasswords(c, all, kept), all, kept), all, kept);
  noteDroppedSetCookies(c, all, kept);
  return c;
}
