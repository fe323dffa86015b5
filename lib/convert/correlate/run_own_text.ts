/**
 * A row found by a text the journey typed, when the flow sends that text as the run's own: the
 * create's e-mail address becomes `harbour-${RUN_ID}@example.com` (a second run would be
 * refused the same address), so the list a later step reads shows that, not what was recorded.
 * DAViCal's principal list named the new user's row only by its address; the capture looked for
 * `harbour@example.com` and failed on the first run, every step after it skipped. The pattern
 * that finds the row is built from what the flow sends: its literal text as it is, each run-made
 * part (`${RUN_ID}`, `${RANDOM.…}`) as any text without spaces or markup; it finds the recorded
 * text too, so a capture checked against the recorded page still finds it there.
 *
 * @module
 */
import { escapeRegExpSlash } from "../../_util/regex_escape.ts";
import type { Correlator } from "./state.ts";

/** What the run fills in at run time: the run id, a random value. */
const MADE = /\$\{(?:RUN_ID|RANDOM\.[A-Z0-9_]+)\}/;
/** A reference to a var, in either spelling. */
const VAR = /^\$\{(?:vars\.)?([A-Za-z_][\w]*)\}$/;

/** The template the flow sends for `text`, resolved through one var; `undefined` when recorded. */
function sentTemplate(c: Correlator, text: string): string | undefined {
  const sent = c.generated.get(text);
  if (sent === undefined) return undefined;
  const name = VAR.exec(sent)?.[1];
  return name === undefined ? sent : c.vars.find(([n]) => n === name)?.[1];
}

/**
 * A pattern (no group) for `text` as it is shown in a page the flow reads: the text itself, or,
 * when the flow sends a run-made version of it (see the module), that version with its run-made
 * parts open, or the recorded text. `escape` is the caller's escaping of literal text.
 *
 * @example
 * ```ts
 * import { shownTextPattern } from "./run_own_text.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * c.generated.set("ann@example.com", "ann+${RUN_ID}@example.com");
 * const p = new RegExp(`^${shownTextPattern(c, "ann@example.com")}$`);
 * if (!p.test("ann+20261130-041200-a1b2c3@example.com") || !p.test("ann@example.com")) {
 *   throw new Error(p.source);
 * }
 * if (shownTextPattern(c, "a.b") !== "a\\.b") throw new Error();
 * ```
 */
export function shownTextPattern(
  c: Correlator,
  text: string,
  escape: (text: string) => string = escapeRegExpSlash,
): string {
  const sent = sentTemplate(c, text);
  if (sent === undefined || !MADE.test(sent)) return escape(text);
  const parts = sent.split(new RegExp(MADE.source, "g"));
  // `$${` is how a template writes a literal `${`.
  const own = parts.map((p) => escape(p.replaceAll("$${", "${"))).join(`[^\\s<>"']+?`);
  return `(?:${own}|${escape(text)})`;
}
