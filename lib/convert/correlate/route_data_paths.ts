/**
 * A route's data fetched at the route's path plus a suffix, the id in it captured from the link
 * the page before wrote. A single-page app's router (React Router's `.data` requests, pg-boss
 * dashboard 1.9) opens `/queues/mail/jobs/<uuid>` by fetching `/queues/mail/jobs/<uuid>.data`,
 * and acts on the row by posts to that same address. The server made the UUID; sent as recorded,
 * a fresh instance answers 404. Evidence, not names: the request's last segment is an id a server
 * made (a UUID or made-up text) plus a short suffix, and the latest earlier page links the same
 * path without the suffix; the id is captured from that link and the suffix sent as recorded.
 *
 * @module
 */
import type { Producer } from "../model.ts";
import { safeDecode } from "../json.ts";
import { isMadeUpText } from "../made_up_text.ts";
import { isUuid } from "../values.ts";
import type { Correlator } from "./state.ts";
import { latestLink } from "./linked_paths.ts";
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";

/** A last segment: an id and the suffix a router adds (`.data`, `.json`). */
const WITH_SUFFIX = /^([^.]+)(\.[a-z]{2,5})$/i;

/**
 * The producer of the id in segment `i` of `segments` (the path as sent, split at `/`) and the
 * suffix sent after it, when the segment is the last one and an earlier page links the path
 * without the suffix (see the module).
 *
 * @example
 * ```ts
 * import { routeDataProducer } from "./route_data_paths.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const id = "2b3065e7-a2e2-40f5-9552-0384c63c9954";
 * const last = { mimeType: "text/html", responseText: `<a href="/jobs/${id}">j</a>` };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push({ name: "open_jobs", last } as any);
 * const found = routeDataProducer(c, ["", "jobs", `${id}.data`], 2);
 * if (found?.suffix !== ".data" || found.producer.step.name !== "open_jobs") throw new Error();
 * if (routeDataProducer(c, ["", "jobs", "list.data"], 2) !== undefined) throw new Error();
 * ```
 */
export function routeDataProducer(
  c: Correlator,
  segments: readonly string[],
  i: number,
): { producer: Producer; suffix: string } | undefined {
  const m = WITH_SUFFIX.exec(segments[i]);
  if (!m || i !== segments.length - 1 || !c.linking) return undefined;
  const id = safeDecode(m[1]);
  if (!isUuid(id) && !isMadeUpText(id)) return undefined;
  const pattern = `\\bhref\\s*=\\s*["'](?:https?://[^/"']+)?` +
    `${escape(segments.slice(0, i).join("/"))}/([^/"'?#\\s.]+)(?:[?#][^"']*)?["']`;
  const hit = latestLink(c, new RegExp(pattern, "i"));
  if (hit?.found !== m[1]) return undefined;
  const producer: Producer = {
    step: hit.step,
    source: { kind: "regex", name: "route_data_id", pattern },
    secret: false,
  };
  return { producer, suffix: m[2] };
}
