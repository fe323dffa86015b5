/**
 * A value the server escaped into a link's path, captured from the page that linked it. An
 * accounting journal's web UI (hledger-web) links its edit page as
 * `/edit/%2Fsrv%2Fa1%2Fledger.journal`, the journal file's full path, which differs on every
 * instance kept in another folder; no JSON or header held it, so the flow sent the recorded
 * path and met 404. A route word needs no escape; a segment that holds one (`%2F`, `%20`) is a
 * value the page wrote into the link, and so is text only a server makes up (Postorius's form
 * posts a pending subscription's token as `handle_subscription_request/<token>/`). When the latest earlier page of the flow links the
 * request's exact path, and its first link under the same path around the segment holds that
 * segment, the segment is captured from there, as the page wrote it.
 *
 * @module
 */
import type { Producer } from "../model.ts";
import { safeDecode } from "../json.ts";
import { isMadeUpText } from "../made_up_text.ts";
import type { Correlator } from "./state.ts";
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";

/** How many earlier pages are searched: the one the user clicked from is among the last. */
const PAGES = 20;

/**
 * The producer of path segment `i` of `segments` (the path as sent, split at `/`), when it holds
 * an escape or is made-up text and an earlier page of the flow links the whole path (see the module).
 *
 * @example
 * ```ts
 * import { linkedSegmentProducer } from "./linked_paths.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { mimeType: "text/html",
 *   responseText: '<a href="http://h.test/journal">J</a><a href="http://h.test/edit/%2Fsrv%2Fledger">e</a>' };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push({ name: "open_manage", last } as any);
 * const p = linkedSegmentProducer(c, ["", "edit", "%2Fsrv%2Fledger"], 2);
 * if (p?.source.kind !== "regex" || p.step.name !== "open_manage") throw new Error();
 * if (linkedSegmentProducer(c, ["", "journal"], 1) !== undefined) throw new Error();
 * ```
 */
export function linkedSegmentProducer(
  c: Correlator,
  segments: readonly string[],
  i: number,
): Producer | undefined {
  const segment = segments[i];
  // A segment the page escaped, or text only a server writes (a pending request's token in
  // Postorius's `handle_subscription_request/<token>/`): the page's, not a route's word.
  const written = /%[0-9A-Fa-f]{2}/.test(segment) || isMadeUpText(safeDecode(segment));
  if (!written || !c.linking) return undefined;
  // What follows the segment, its trailing slash included (`/handle/<token>/`).
  const after = segments.slice(i + 1);
  const pattern = `\\b(?:href|action)\\s*=\\s*["'](?:https?://[^/"']+)?` +
    `${escape(segments.slice(0, i).join("/"))}/([^/"'?#\\s]+)` +
    `${after.length === 0 ? "" : escape(`/${after.join("/")}`)}(?:[?#][^"']*)?["']`;
  const hit = latestLink(c, new RegExp(pattern, "i"));
  if (hit?.found !== segment) return undefined;
  return { step: hit.step, source: { kind: "regex", name: "linked_path", pattern }, secret: false };
}

/**
 * The latest of the flow's last pages (HTML) whose text `re` matches, with the link's value (its
 * first group): the page the user clicked from is among the last, and the latest linking the
 * path decides.
 *
 * @example
 * ```ts
 * import { latestLink } from "./linked_paths.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * // deno-lint-ignore no-explicit-any
 * c.steps.push({ name: "open_jobs", last: { mimeType: "text/html", responseText: '<a href="/jobs/7a">' } } as any);
 * const hit = latestLink(c, /href="\/jobs\/([^"]+)"/);
 * if (hit?.found !== "7a" || hit.step.name !== "open_jobs") throw new Error();
 * ```
 */
export function latestLink(
  c: Correlator,
  re: RegExp,
): { step: Correlator["steps"][number]; found: string } | undefined {
  for (let s = c.steps.length - 1; s >= Math.max(0, c.steps.length - PAGES); s--) {
    const page = c.steps[s].last;
    if (page.responseText === undefined || !/html/.test(page.mimeType)) continue;
    const found = re.exec(page.responseText)?.[1];
    if (found !== undefined) return { step: c.steps[s], found };
  }
  return undefined;
}
