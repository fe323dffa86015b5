/**
 * Taking a step's captured values from its response: by JSONPath, from a
 * header (or a part of it: a URL's query parameter, a regular expression's
 * group, a `Link` relation's URL), from a cookie the response sets, or by a
 * regular expression over the body text. Each capture gives its value or a plain reason it has none.
 *
 * @module
 */
import { queryXPath } from "./xpath.ts";
import type { CaptureSource } from "../model/flow.ts";
import { type Scope, valueOf } from "../expr/template.ts";
import { resolvePath, rootHint } from "../expr/path.ts";
import { execPattern, MatchTimeoutError } from "../_util/regex.ts";
import type { ReceivedResponse } from "../http/response.ts";
import { nestsDeeperThan } from "./json_value.ts";
import { nearKey } from "./near_key.ts";
import { MAX_DEPTH } from "../model/limits.ts";
import { linkRelation } from "./link_header.ts";
import { toBase64 } from "../_util/base64.ts";
import { asType } from "./capture_type.ts";
import { jwtClaim } from "./capture_claim.ts";
import { around, ownWords as own, tell, type Told, told } from "../model/told.ts";

/**
 * A captured value, or why there is none (a sentence without a final period); `said` is that
 * sentence with flowrun's words apart from the values it quotes (a key of the response, a value
 * of the wrong type, a reason that may quote the body), so that the values are masked where
 * the reason is shown and the words never are (a short password `found` or `path`).
 */
export type Captured = { found: true; value: unknown } | {
  found: false;
  why: string;
  said?: Told;
};

/**
 * Nothing captured, for the reason `said`.
 *
 * @example
 * ```ts
 * import { notFound } from "./capture.ts";
 * import { told } from "../model/told.ts";
 * const got = notFound(told`$.id matched nothing (did you mean "${"ids"}"?)`);
 * if (got.found || got.why !== '$.id matched nothing (did you mean "ids"?)') throw new Error();
 * if (got.said?.values[0] !== "ids") throw new Error();
 * ```
 */
export function notFound(said: Told): Captured {
  return { found: false, why: tell(said), said };
}

/**
 * The value `from` selects in `response`.
 *
 * @example
 * ```ts
 * import { capture } from "./capture.ts";
 * import { compilePath } from "../expr/path.ts";
 * import { pathEngine } from "../expr/path_engine.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * await pathEngine.load(); // json-p3, for paths beyond plain member chains
 * const r = new ReceivedResponse(
 *   200,
 *   { "content-type": "application/json", "x-request-id": "r-1" },
 *   '{"items": [{"name": "Tea", "id": 4}, {"name": "Ruby", "id": 9}]}',
 *   ["sid=s-1; Path=/"],
 * );
 * const path = compilePath("$.json.items[?@.name == 'Ruby'].id", "response");
 * const first = capture(r, { kind: "path", path, first: true });
 * if (!first.found || first.value !== 9) throw new Error(JSON.stringify(first));
 * const all = capture(r, { kind: "path", path, first: false });
 * if (!all.found || JSON.stringify(all.value) !== "[9]") throw new Error();
 * if ((capture(r, { kind: "header", name: "x-request-id" }) as { value: string }).value !== "r-1") throw new Error();
 * if ((capture(r, { kind: "cookie", name: "sid" }) as { value: string }).value !== "s-1") throw new Error();
 * const re = capture(r, { kind: "regex", pattern: /"id": (\d+)/, source: '"id": (\\d+)' });
 * if (!re.found || re.value !== "4") throw new Error();
 * const typed = capture(r, { kind: "regex", pattern: /"id": (\d+)/, source: '"id": (\\d+)', as: "number" });
 * if (!typed.found || typed.value !== 4) throw new Error();
 * ```
 */
export function capture(
  response: ReceivedResponse,
  from: CaptureSource,
  scope?: Scope,
): Captured {
  const got = select(response, from, scope);
  // A captured value travels into expressions, conditions, masking and every report: a value
  // nested deeper than a flow may be is refused here, once, rather than met by each of them.
  if (got.found && nestsDeeperThan(got.value, MAX_DEPTH)) {
    return notFound(
      own(
        `${describeSource(from)} selected a value nested more than ${MAX_DEPTH} levels deep; ` +
          "capture a part of it",
      ),
    );
  }
  if (!got.found) return got;
  const value = from.claim === undefined ? got : claimed(got.value, from);
  if (!value.found || from.as === undefined) return value;
  const typed = asType(value.value, from.as);
  if (typed.why === undefined) return { found: true, value: typed.value };
  return notFound(around(`${describeSource(from)} gave no ${from.as}: `, typed.said, ""));
}

/** The claim `from` names of the JWT `value` is (capture_claim.ts). */
function claimed(value: unknown, from: CaptureSource): Captured {
  const got = jwtClaim(value, from.claim!);
  if (got.why === undefined) return { found: true, value: got.value };
  const names = [from.claim!].flat().join(", ");
  return notFound(around(`${describeSource(from)} gave no claim ${names}: `, got.said, ""));
}

/** Takes a capture of one kind of source. */
type Take<K extends CaptureSource["kind"]> = (
  response: ReceivedResponse,
  from: Extract<CaptureSource, { kind: K }>,
  scope?: Scope,
) => Captured;

/** How each kind of source is captured, keyed by every kind so that a new one must say how. */
const TAKE: { readonly [K in CaptureSource["kind"]]: Take<K> } = {
  path: byPath,
  header: byHeader,
  cookie: (response, from) => {
    const value = response.cookie(from.name);
    return value === undefined
      ? notFound(own(`the response sets no cookie "${from.name}"`))
      : { found: true, value };
  },
  regex: byRegex,
  body: (response) => {
    const bytes = response.bytes;
    // A spilled body's reason is flowrun's words with its limits, never the body.
    return bytes === undefined
      ? notFound(own(response.spilled!.reason))
      : { found: true, value: toBase64(bytes) };
  },
  xpath: (response, from) => {
    const got = queryXPath(response, from.expression);
    if (got.found) return got;
    // Its own "matched nothing" quotes the expression the flow wrote; any other reason (a
    // parser's) may quote the body, and is a value.
    return notFound(
      got.why === `${from.expression} matched nothing` ? own(got.why) : told`${got.why}`,
    );
  },
};

function select(response: ReceivedResponse, from: CaptureSource, scope?: Scope): Captured {
  return (TAKE[from.kind] as Take<CaptureSource["kind"]>)(response, from, scope);
}

function byPath(
  response: ReceivedResponse,
  from: Extract<CaptureSource, { kind: "path" }>,
  scope?: Scope,
): Captured {
  const path = scope ? resolvePath(from.path, (e) => valueOf(e, scope)) : from.path;
  const s = response.select(path);
  // The path is the flow's own text; a reason it could not be searched may quote the body.
  if (s.problem !== undefined) {
    return notFound(around(`${from.path.source}: `, told`${s.problem}`, ""));
  }
  const why = own(
    `${from.path.source} matched nothing${
      s.bodyNotJson ? " (the response body is not JSON)" : rootHint(from.path)
    }`,
  );
  // A wildcard or filter that selects nothing captures an empty list, as checks see it.
  if (!s.found && !path.singular && !from.first && !s.bodyNotJson) {
    return { found: true, value: [] };
  }
  if (!s.found) {
    // A typo of a key the response has is named, as for a check.
    const near = nearKey(path, (p) => response.select(p));
    // The key named is the response's: a value.
    return notFound(near ? around(why.words[0], told` (did you mean "${near}"?)`, "") : why);
  }
  return picked(s.value, from, why);
}

/** What a path found: the first of a list with `first`, the part of its text with `regex`. */
function picked(
  found: unknown,
  from: Extract<CaptureSource, { kind: "path" }>,
  why: ReturnType<typeof own>,
): Captured {
  const one = !from.first || from.path.singular;
  const list = found as unknown[];
  if (!one && list.length === 0) return notFound(why);
  const value = one ? found : list[0];
  if (!from.regex) return { found: true, value };
  // A pattern reads text, as a script's `.split(" ")` or `.match(…)` of a member does.
  if (typeof value !== "string") return notFound(own(`${from.path.source} is no text to match`));
  return regexOf(value, from.regex.source, `${from.path.source}`, "the text of");
}

function byHeader(
  response: ReceivedResponse,
  from: Extract<CaptureSource, { kind: "header" }>,
): Captured {
  const value = response.headers[from.name];
  // No next page is where pagination ends, not a failure: the flow's `if` tells it apart.
  if (from.rel !== undefined) {
    return { found: true, value: linkRelation(value ?? "", from.rel, response.url) ?? null };
  }
  if (value === undefined) return notFound(own(`the response has no "${from.name}" header`));
  if (from.regex) return regexOf(value, from.regex.source, from.name);
  return from.query === undefined ? { found: true, value } : queryOf(value, from.query, from.name);
}

/** The first group of a regular expression over a header's value or a path's text (the loader saw it has one). */
function regexOf(value: string, source: string, header: string, of?: string): Captured {
  try {
    const m = execPattern(source, value);
    const where = of ? `${of} ${header}` : `the "${header}" header`;
    return m
      ? { found: true, value: m[1] ?? "" }
      : notFound(own(`/${source}/ matched nothing in ${where}`));
  } catch (error) {
    if (error instanceof MatchTimeoutError) return notFound(timedOut(source, error));
    throw error;
  }
}

function byRegex(
  response: ReceivedResponse,
  from: Extract<CaptureSource, { kind: "regex" }>,
): Captured {
  if (response.spilled) return notFound(told`${response.spilled.reason}`);
  try {
    const m = execPattern(from.source, response.text);
    if (!m) return notFound(own(`/${from.source}/ matched nothing in the body`));
    return { found: true, value: m.length > 1 ? m[1] : m[0] };
  } catch (error) {
    if (error instanceof MatchTimeoutError) return notFound(timedOut(from.source, error));
    throw error;
  }
}

/** A pattern that ran out of time: the pattern is the flow's text, the runtime's words a value. */
function timedOut(source: string, error: Error): Told {
  return around(`/${source}/: `, told`${error.message}`, "");
}

/**
 * One query parameter of the URL a header holds (an OAuth redirect's `code`),
 * decoded; a relative URL is read against a placeholder base, since only its
 * query matters.
 */
function queryOf(value: string, name: string, header: string): Captured {
  const url = URL.canParse(value, "http://x.invalid/")
    ? new URL(value, "http://x.invalid/")
    : undefined;
  const got = url?.searchParams.get(name);
  return got === null || got === undefined
    ? notFound(own(`the "${header}" header has no query parameter "${name}"`))
    : { found: true, value: got };
}

/**
 * How a capture's source reads in messages: the path, or `header x`, `cookie x`, `regex /…/`.
 *
 * @example
 * ```ts
 * import { describeSource } from "./capture.ts";
 * if (describeSource({ kind: "cookie", name: "sid" }) !== "cookie sid") throw new Error();
 * ```
 */
export function describeSource(from: CaptureSource): string {
  switch (from.kind) {
    case "path": {
      const path = from.first ? `first of ${from.path.source}` : from.path.source;
      return from.regex ? `regex /${from.regex.source}/ of ${path}` : path;
    }
    case "regex":
      return `regex /${from.source}/`;
    case "xpath":
      return `xpath ${from.expression}`;
    case "body":
      return `body as ${from.encoding}`;
    case "header":
      if (from.rel !== undefined) return `rel ${from.rel} of header ${from.name}`;
      if (from.regex) return `regex /${from.regex.source}/ of header ${from.name}`;
      return from.query === undefined
        ? `header ${from.name}`
        : `query ${from.query} of header ${from.name}`;
    default:
      return `${from.kind} ${from.name}`;
  }
}
