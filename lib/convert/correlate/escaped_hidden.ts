/**
 * A form field whose page wrote its hidden input with character references:
 * Sympa's compose form holds a fresh message id as
 * `value="&lt;sympa.1796.22@localhost&gt;"` and the browser posts it read,
 * `<sympa.1796.22@localhost>`. No answer holds the sent value as it was sent,
 * so a search by value (producers.ts) finds nothing and the recording's id
 * would be sent on every run. The evidence is the markup: the latest page
 * before the post holding an input of the field's name holds it hidden, and
 * its written value, read as a browser reads an attribute, is the value sent,
 * and the page's own request did not send it (Adminer writes back the
 * `Referer` it was sent, which the flow's own headers decide). It is
 * captured from that page with `as: html-decoded`.
 *
 * @module
 */
import { htmlDecoded } from "../../_util/html_references.ts";
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";
import type { Step } from "../model.ts";
import { useProducer } from "./captures.ts";
import { hiddenPattern, latestPage } from "./hidden_fields.ts";
import type { Correlator } from "./state.ts";

/** The value attribute of the first input named `key` in `html`, as written; else undefined. */
function writtenValue(html: string, key: string): string | undefined {
  for (const tag of html.matchAll(/<input\b[^>]{0,2000}>/gi)) {
    const attr = (name: string) =>
      new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "i").exec(tag[0])?.slice(1)
        .find((v) => v !== undefined);
    if (attr("name") === key) return attr("value");
  }
  return undefined;
}

/**
 * Whether the page's own request sent `value` (a header, its URL): a page that writes back the
 * `Referer` it was sent (Adminer's `referer` input) holds what the flow sends, not the server's
 * own value, and a flow that sends another header there is answered with another.
 */
function echoed(page: Step, value: string): boolean {
  return page.records.some((r) =>
    r.url.href === value || (r.headers ?? []).some((h) => h.value === value)
  );
}

/**
 * The template of form field `key` that `step` sends as `value` when its form
 * page held the input hidden with `value` written with character references
 * (see the module): a capture of it from that page, read back; else undefined.
 *
 * @example
 * ```ts
 * import { escapedHiddenField } from "./escaped_hidden.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const page = { name: "open_compose", noun: "compose", uses: new Set(), captures: [], records: [],
 *   captureNames: { take: (n: string) => n }, captureByPath: new Map(),
 *   last: { url: new URL("http://w.test/compose"), mimeType: "text/html",
 *     responseText: '<input type="hidden" name="mid" value="&lt;m.1@w&gt;">' } };
 * const post = { name: "post", uses: new Set(), first: { method: "POST", url: new URL("http://w.test/compose") } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(page as any);
 * // deno-lint-ignore no-explicit-any
 * if (escapedHiddenField(c, "mid", "<m.1@w>", post as any) !== "${steps.open_compose.capture.mid}") throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (escapedHiddenField(c, "mid", "<m.2@w>", post as any) !== undefined) throw new Error();
 * ```
 */
export function escapedHiddenField(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): string | undefined {
  if (!/[&<>"']/.test(value) || step.first.method === "GET" || !c.linking) return undefined;
  const named = new RegExp(`<input\\b[^>]*\\bname=["']${escape(key)}["']`, "i");
  const page = latestPage(c, step, named);
  const html = page?.last.responseText ?? "";
  const written = writtenValue(html, key);
  if (!page || written === undefined || written === value || htmlDecoded(written) !== value) {
    return undefined;
  }
  if (echoed(page, value)) return undefined;
  const pattern = hiddenPattern(html, key, written);
  if (pattern === undefined) return undefined;
  const source = { kind: "regex" as const, name: key, pattern, as: "html-decoded" as const };
  return useProducer(c, { step: page, source, secret: false }, step);
}
