/**
 * Two numbers equal on a fresh instance, told apart by the name the page gave each. DAViCal
 * numbers a new user's principal and its user record from two sequences that both start at
 * 1001: the create's answer holds `principal_id` 1001, and the user's page links "Create
 * Collection" as `…&user_no=1001` and its form holds a hidden `user_no` 1001. Found by value,
 * `user_no` was sent as the create's `principal_id`: right on a fresh instance, but a second run's
 * principal is 1007 and its user 1002, and the collection went to no user (a 500). A small number
 * a request sends under a name, which an earlier answer gave under another name, is taken from
 * the page the request came from when that page names it so: the form's hidden input of that
 * name holding that number (the browser sends a form's hidden fields as the page had them), or,
 * for a query, the page's link to the very URL the request asked for (the user followed it),
 * found again by the link's text up to that parameter.
 *
 * @module
 */
import type { Producer, Source, Step } from "../model.ts";
import { heldHiddenProducer, latestPage } from "./hidden_fields.ts";
import type { Correlator } from "./state.ts";
import { linkHead } from "../pages.ts";

/**
 * A row's number: up to seven digits. A longer one is a time or a revision the server stamped
 * (DokuWiki's `date` 1700000000), which the hidden state of the page it came from names already.
 */
const ROW = /^\d{1,7}$/;

/** The name a source reads its value by: a regex's or cookie's name, a JSON path's last key. */
function sourceName(source: Source): string | undefined {
  if (source.kind === "json") {
    const last = source.path.at(-1);
    return typeof last === "string" ? last : undefined;
  }
  return "name" in source ? source.name : undefined;
}

/**
 * The producer of `value` sent as `key` by `step` from the page it came from, when an earlier
 * answer gave the same number under another name (see the module); else undefined.
 *
 * @example
 * ```ts
 * import { namedOnPageProducer } from "./named_on_page.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const made = { name: "create", last: { url: new URL("http://d.test/a"), mimeType: "text/html",
 *   responseText: '<input type="hidden" name="principal_id" value="1001">' } };
 * const page = { name: "open_user", last: { url: new URL("http://d.test/a?id=1001"),
 *   mimeType: "text/html", responseText: '<a href="/a?t=collection&amp;user_no=1001">New</a>' } };
 * const held = { step: made, source: { kind: "regex", name: "principal_id", pattern: "" }, secret: false };
 * c.rules = { ...c.rules, producerFor: (v: unknown) => v === "1001" ? held : undefined } as typeof c.rules;
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(made as any, page as any);
 * const open = { name: "open_new", first: { method: "GET", url: new URL("http://d.test/a?t=collection&user_no=1001") } };
 * // deno-lint-ignore no-explicit-any
 * if (namedOnPageProducer(c, "user_no", "1001", open as any)?.step !== page) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (namedOnPageProducer(c, "principal_id", "1001", open as any) !== undefined) throw new Error();
 * // A list linking two rows alike names neither by its first link.
 * page.last.responseText += '<a href="/a?t=collection&amp;user_no=1002">New</a>';
 * // deno-lint-ignore no-explicit-any
 * if (namedOnPageProducer(c, "user_no", "1001", open as any) !== undefined) throw new Error();
 * ```
 */
export function namedOnPageProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  if (!ROW.test(value)) return undefined;
  const known = c.rules.producerFor(value) ?? c.rules.producerFor(Number(value));
  if (!known || sourceName(known.source) === key) return undefined;
  const hidden = heldHiddenProducer(c, key, value, step);
  if (hidden && hidden.step !== known.step) return hidden;
  if (step.first.method !== "GET" || step.first.url.searchParams.get(key) !== value) {
    return undefined;
  }
  const page = latestPage(c, step, /\bhref\s*=/i);
  const written = page && followedLink(page, step);
  if (!page || page === known.step || written === undefined) return undefined;
  const pattern = `${linkHead(written, key)}(\\d+)`;
  // A list's links name many rows alike (WordPress's `post.php?post=` per post): the first is
  // a position, not the row; only a page whose every such link names this one number says it.
  const named = new Set(
    [...page.last.responseText!.matchAll(new RegExp(pattern, "g"))].map((m) => m[1]),
  );
  if (named.size !== 1 || !named.has(value)) return undefined;
  return { step: page, source: { kind: "regex", name: key, pattern }, secret: false };
}

/** The `href` of `page` (as written) that leads to the URL `step` asked for, if one does. */
function followedLink(page: Step, step: Step): string | undefined {
  const asked = step.first.url;
  for (const a of page.last.responseText!.matchAll(/\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    const written = a[1] ?? a[2];
    const href = written.replace(/&amp;/g, "&");
    if (!URL.canParse(href, page.last.url)) continue;
    const to = new URL(href, page.last.url);
    if (
      to.origin === asked.origin && to.pathname === asked.pathname && to.search === asked.search
    ) {
      return written;
    }
  }
  return undefined;
}
