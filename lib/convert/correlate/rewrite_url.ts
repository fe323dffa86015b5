/**
 * A request's URL rewritten for replay: its origin as a base-URL var, each
 * path segment a capture, a generated value or itself, each query value
 * rewritten like a body field (JSON inside one rewritten and re-encoded).
 * A URL a response handed out whole is its capture, and so is an item's URL a JSON answer
 * handed out absolute with one word of a part after it (`<secret_ref>/payload`).
 *
 * @module
 */
import { encodedJson } from "../encoded.ts";
import type { HarRecord } from "../har_model.ts";
import { safeDecode, valueKey } from "../json.ts";
import type { Producer, Source, Step } from "../model.ts";
import { singular, snake } from "../names.ts";
import { isSecretShaped, isUuid } from "../values.ts";
import { useProducer } from "./captures.ts";
import { actionQueryIdProducer } from "./action_rows.ts";
import { createdIdProducer, queryIdProducer } from "./created_ids.ts";
import { baseRef, innerValue } from "./rewrite_value.ts";
import { namedOnPageProducer } from "./named_on_page.ts";
import { sentTimes } from "./sent_times.ts";
import { siblingRowProducer } from "./sibling_rows.ts";
import { jsonRowProducer } from "./json_rows.ts";
import { keyNamedIdProducer } from "./key_named_ids.ts";
import { linkedSegmentProducer } from "./linked_paths.ts";
import { routeDataProducer } from "./route_data_paths.ts";
import { ownName } from "./listed_names.ts";
import { type Correlator, NOT_A_BODY } from "./state.ts";
import { withTokens } from "./tokens.ts";

/**
 * The template of the URL `r` requested, for `step`.
 *
 * @example
 * ```ts
 * import { rewriteUrl } from "./rewrite_url.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const r = { url: new URL("https://a.test/orders/42?page=2") };
 * // deno-lint-ignore no-explicit-any
 * const url = rewriteUrl(c, r as any, { uses: new Set() } as any);
 * if (url !== "${vars.base_url}/orders/42?page=2") throw new Error(url);
 * ```
 */
export function rewriteUrl(c: Correlator, r: HarRecord, step: Step): string {
  const base = baseRef(c, r.url.origin);
  const whole = c.handed.urlOf(r);
  if (whole) return wholeUrl(c, whole, r, step, base);
  const path = pathTemplate(c, r.url.pathname, step);
  const times = sentTimes(r.url.searchParams, r.started, c.span);
  // Perl's CGI takes `;` between fields as `&` (`Update.html?Action=Comment;id=1`): each its own.
  const query = r.url.search.slice(1).split("&").filter((q) => q !== "").map((pair) =>
    pair.split(FIELD_SEMICOLON).map((p) => queryPair(c, p, step, r.url.searchParams, times))
      .join(";")
  );
  return `${base}${path}${query.length > 0 ? `?${query.join("&")}` : ""}`;
}

/** A `;` that starts another `name=` of a query. */
const FIELD_SEMICOLON = /;(?=[\w.[\]-]+=)/;

/** The path, each segment a capture, a generated value or itself. */
function pathTemplate(c: Correlator, pathname: string, step: Step): string {
  let previous = "";
  const segments = pathname.split("/");
  const last = segments.findLastIndex((segment) => segment !== "");
  // A POST or PUT ending with a name a listing showed makes what it names (listed_names.ts).
  const names = step.method === "POST" || step.method === "PUT";
  return segments.map((segment, i) => {
    if (segment === "") return "";
    const decoded = safeDecode(segment);
    const under = safeDecode(segments.slice(0, i).join("/"));
    const own = ownName(c, decoded, names, i === last);
    const p = own ? undefined : c.rules.producerFor(decoded) ??
      (/^\d+$/.test(decoded) ? c.rules.producerFor(Number(decoded)) : undefined) ??
      (c.linking
        ? createdIdProducer(c, under, decoded) ?? siblingRowProducer(c, under, decoded) ??
          keyNamedIdProducer(c, under, decoded)
        : undefined);
    if (p) return useProducer(c, p, step);
    const gen = c.generated.get(decoded);
    if (gen) {
      c.replaced.generated++;
      return gen;
    }
    if (isUuid(decoded) && !c.responseSeen.has(valueKey(decoded))) {
      return c.rules.freshUuid(`${singular(snake(previous)) || "resource"}_id`, decoded);
    }
    const linked = linkedSegment(c, segments, i, step);
    if (linked !== undefined) return linked;
    previous = decoded;
    return withTokens(c, segment, step);
  }).join("/");
}

/** Segment `i` taken from a link of an earlier page, or undefined when no page linked it. */
function linkedSegment(
  c: Correlator,
  segments: string[],
  i: number,
  step: Step,
): string | undefined {
  // A value escaped into a link of an earlier page (linked_paths.ts): sent as the page wrote it.
  const linked = linkedSegmentProducer(c, segments, i);
  if (linked) return useProducer(c, linked, step).replace(/^\$\{/, "${raw:");
  // A route's data at its linked path plus a suffix (`<uuid>.data`, route_data_paths.ts).
  const data = routeDataProducer(c, segments, i);
  return data ? useProducer(c, data.producer, step) + c.sp.lit(data.suffix) : undefined;
}

/** One `name=value` of the query, its value rewritten; the recorded encoding kept if unchanged. */
function queryPair(
  c: Correlator,
  pair: string,
  step: Step,
  query: URLSearchParams,
  times: Map<string, string>,
): string {
  const eq = pair.indexOf("=");
  if (eq === -1) return withTokens(c, pair, step);
  const name = safeDecode(pair.slice(0, eq));
  const value = safeDecode(pair.slice(eq + 1));
  // A time an answer handed out (a revision's date) is the server's: correlated below, not the clock.
  const time = times.get(value);
  const handedOut = c.responseSeen.has(valueKey(value)) ||
    c.responseSeen.has(valueKey(Number(value))) || c.rules.producerFor(value) !== undefined;
  if (time !== undefined && !handedOut) return `${c.sp.lit(pair.slice(0, eq))}=${time}`;
  // A number the page named so, which an earlier answer gave under another name (named_on_page.ts).
  const named = c.linking ? namedOnPageProducer(c, name, value, step) : undefined;
  if (named) return `${c.sp.lit(pair.slice(0, eq))}=${useProducer(c, named, step)}`;
  // A row's number in a filter beside its collection's name (`…[item][_eq]=1`).
  // Or a row an action-style create answered, sent to another action of its resource (action_rows.ts).
  const row = c.linking
    ? queryIdProducer(c, name, value, query) ?? actionQueryIdProducer(c, name, value, step)
    : undefined;
  if (row) return `${c.sp.lit(pair.slice(0, eq))}=${useProducer(c, row, step)}`;
  // JSON inside the value (GraphQL GET `variables=`): its ids correlated, re-encoded.
  // A row's number a row's link sent inside JSON under this name (json_rows.ts) first.
  const rowIn = (v: unknown) => c.linking ? jsonRowProducer(c, name, v, step) : undefined;
  const inner = encodedJson(
    value,
    (k, v) => {
      const row = rowIn(v);
      return row ? useProducer(c, row, step) : innerValue(c, k, v, step);
    },
    (t) => c.sp.lit(t),
  );
  if (inner !== undefined) return `${c.sp.lit(pair.slice(0, eq))}=${inner}`;
  // A route sent as a query value (`index.php?rest_route=/wp/v2/posts/5`): a path, segment by segment.
  if (/^\/[^/?#\s]+(?:\/[^/?#\s]*)+$/.test(value)) {
    const route = pathTemplate(c, value, step);
    if (route !== c.sp.lit(value)) return `${c.sp.lit(pair.slice(0, eq))}=${route}`;
  }
  const replaced = c.rules.stringValue(name, value, step, { ...NOT_A_BODY });
  const unchanged = replaced === c.sp.lit(value);
  return `${c.sp.lit(pair.slice(0, eq))}=${
    unchanged ? withTokens(c, pair.slice(eq + 1), step) : replaced
  }`;
}

/** A request URL that a response handed out whole: the capture, after the base if relative. */
function wholeUrl(
  c: Correlator,
  whole: { step: Step; source: Source; absolute: boolean; prefix?: string; suffix?: string },
  r: HarRecord,
  step: Step,
  base: string,
): string {
  const producer: Producer = { step: whole.step, source: whole.source, secret: false };
  // Its signature and other opaque parameters are secrets: masked in comments, never sent.
  for (const [, v] of r.url.searchParams) if (isSecretShaped(v)) c.secrets.add(v);
  const ref = useProducer(c, producer, step).replace(/^\$\{/, "${raw:");
  const url = whole.absolute ? ref : `${base}${c.sp.lit(whole.prefix ?? "")}${ref}`;
  return `${url}${c.sp.lit(whole.suffix ?? "")}`;
}
