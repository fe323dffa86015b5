/**
 * A value the server made, sent back untouched from a visible text box its
 * page prefilled: a URL shortener draws a six-letter address for a new link
 * (`pfqsZQ`), shows it in the create's answer, and its edit page holds it in
 * `<input name="address" type="text" value="pfqsZQ">`; the edit posts it
 * back as it was. Sent as recorded, the edit renames another instance's link
 * to the recorded address, or is refused where that address is taken.
 *
 * The evidence is where the value came from: the form's page (the latest
 * page before the submission with an input of that name) held it in that
 * input, a write's answer showed it first, and no request before the
 * submission sent it, so the write made it and the user typed none of it:
 * the browser sent what the page held, and so does the flow, by a capture
 * from that page. A default a read showed first is every instance's and is
 * kept; too short a value (under 4 characters) may match by chance.
 *
 * @module
 */
import type { Producer, Step } from "../model.ts";
import type { Correlator } from "./state.ts";
import { formPage, hiddenPattern } from "./hidden_fields.ts";

/** Input types whose value a user could leave as the page wrote it. */
const TEXT_TYPES = new Set(["text", "url", "email", "search", "tel", "number"]);

/**
 * The capture of the text box `key` of the form's page, when `step` sends
 * `value` as that page prefilled it and the value is the server's (see the
 * module); else `undefined`.
 *
 * @example
 * ```ts
 * import { prefilledMadeProducer } from "./prefilled_made.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const url = new URL("http://w.test/links");
 * const made = { name: "create", first: { method: "POST", url }, last: { url, mimeType: "text/html",
 *   responseText: "<a>pfqsZQ</a>" }, records: [] };
 * const edit = { name: "open_edit", first: { method: "GET", url }, last: { url, mimeType: "text/html",
 *   responseText: '<input name="address" type="text" value="pfqsZQ">' }, records: [] };
 * const save = { name: "save", first: { method: "POST", url }, records: [] };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(made as any, edit as any);
 * // deno-lint-ignore no-explicit-any
 * if (prefilledMadeProducer(c, "address", "pfqsZQ", save as any)?.step.name !== "open_edit") throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (prefilledMadeProducer(c, "address", "other1", save as any) !== undefined) throw new Error();
 * ```
 */
export function prefilledMadeProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  if (value.length < 4 || step.first.method === "GET") return undefined;
  const page = formPage(c, key, step);
  if (!page) return undefined;
  const pattern = hiddenPattern(page.last.responseText!, key, value, (t) => TEXT_TYPES.has(t));
  if (pattern === undefined || !madeBeforeSent(c, value, page)) return undefined;
  return { step: page, source: { kind: "regex", name: key, pattern }, secret: false };
}

/**
 * Whether a write's answer before `page` showed `value` first, and no request
 * up to `page` sent it (in its URL or its body, as written or percent-encoded).
 * A value a read showed first (a form's default, `public`, `%znc%`) is the
 * same on every instance and stays as recorded.
 */
function madeBeforeSent(c: Correlator, value: string, page: Step): boolean {
  const encoded = encodeURIComponent(value);
  const sends = (s: Step) =>
    (s.records ?? [s.first]).some((r) =>
      [r.url.href, r.bodyText ?? ""].some((t) => t.includes(value) || t.includes(encoded))
    );
  for (const s of c.steps) {
    if (sends(s)) return false;
    if (s === page) return false;
    if ((s.last.responseText ?? "").includes(value)) return s.first.method !== "GET";
  }
  return false;
}
