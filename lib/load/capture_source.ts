/**
 * Where one captured value comes from, written as a map: `{path, first}`,
 * `{header[, query | regex | rel]}`, `{cookie}`, `{regex}`, `{xpath}` or `{body: base64}`, exactly one
 * source, each read by its entry in a table (a header's part in capture_header.ts);
 * `claim` keeps one claim of the JWT the source gives (check/capture_claim.ts).
 *
 * @module
 */
import type { Node, YAMLMap } from "yaml";
import { isScalar, isSeq } from "./nodes.ts";
import { CAPTURE_SOURCES, type CaptureSource } from "../model/flow.ts";
import { CAPTURE_TYPES, type CaptureType } from "../model/checks.ts";
import type { PathRoot } from "../expr/path.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { METHOD } from "./spelling.ts";
import { loadPattern } from "./pattern.ts";
import { HEADER_PARTS, headerPart, regexPart } from "./capture_header.ts";
import { captureWhen } from "./capture_when.ts";

/** A capture source's key. */
type SourceKey = typeof CAPTURE_SOURCES[number];

/**
 * A capture by JSONPath, rooted the way its block says.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    extract: {id: $.id}\n",
 *   "f.yaml",
 * );
 * const from = flow?.steps[0].captures[0].from;
 * if (from?.kind !== "path" || from.path.source !== "$.id" || from.first) throw new Error();
 * ```
 */
export function pathSource(
  ctx: Loading,
  node: Node | null,
  root: PathRoot,
  what: string,
  first: boolean,
  owner?: TemplateUse["owner"],
): CaptureSource | undefined {
  const path = ctx.path(node, root, what, owner);
  return path ? { kind: "path", path, first } : undefined;
}

/** The one source a capture names, or undefined with the problem reported. */
function oneSource(
  ctx: Loading,
  node: YAMLMap,
  map: Map<string, Entry>,
  what: string,
): SourceKey | undefined {
  // Beside a header or a path, a regex reads its text: a part of it, not a second source.
  const sources = CAPTURE_SOURCES.filter((k) =>
    map.has(k) && !(k === "regex" && (map.has("header") || map.has("path")))
  );
  // An unknown key was the mistake (xpath, say): it is reported already, with its hint.
  if (sources.length === 0 && node.items.length > map.size) return undefined;
  if (sources.length === 1) return sources[0];
  ctx.problem(
    sources.length === 0 ? "missing-key" : "wrong-type",
    sources.length === 0
      ? `Expected ${what} to name its source.`
      : `Expected ${what} to have one source, got ${sources.join(" and ")}.`,
    sources.length === 0 ? node : map.get(sources[1])!.keyNode,
    `Use one of: path (a JSONPath), header, cookie, regex, xpath or body (base64), e.g. {cookie: session}.`,
  );
  return undefined;
}

/** `first` (a path's, true or false): its value, or undefined with the problem reported. */
function firstFlag(
  ctx: Loading,
  first: Entry | undefined,
  source: SourceKey,
  what: string,
): boolean | undefined {
  if (!first) return false;
  if (source !== "path") {
    ctx.problem(
      "unknown-key",
      `"first" applies to a path, not to ${source}, in ${what}.`,
      first.keyNode,
      "Remove it: a header, cookie, regex, xpath or body capture is one value already.",
    );
    return undefined;
  }
  if (isScalar(first.value) && typeof first.value.value === "boolean") return first.value.value;
  ctx.problem(
    "wrong-type",
    `Expected "first" in ${what} to be true or false, got ${describe(first.value)}.`,
    first.value ?? first.keyNode,
    "Write first: true to keep the first match of a path that can match several values.",
  );
  return undefined;
}

/** `as`: `{}` when absent, `{as}` when it names a type, undefined with the problem reported. */
function captureType(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
): { as?: CaptureType } | undefined {
  if (!entry) return {};
  const v = isScalar(entry.value) ? entry.value.value : undefined;
  if ((CAPTURE_TYPES as readonly unknown[]).includes(v)) return { as: v as CaptureType };
  ctx.problem(
    "wrong-type",
    `Expected "as" in ${what} to be ${CAPTURE_TYPES.join(", ")}, got ${describe(entry.value)}.`,
    entry.value ?? entry.keyNode,
    "Write as: number to send a value taken from a text (an id in a Location path) as a JSON number, as: string to send a number as text, as: json-string to undo the escapes of a string literal a regex cut from a page, as: url-decoded to read a query value a regex cut from a link as the server reads it (%2A is *), as: html-decoded to read an attribute's value a regex cut from a page as a browser reads it (&lt; is <), or as: length to keep a list's count of elements.",
  );
  return undefined;
}

/** Whether a source other than a header is free of a header's part (`query`, `rel`). */
function noHeaderPart(
  ctx: Loading,
  map: Map<string, Entry>,
  source: SourceKey,
  what: string,
): boolean {
  if (source === "header") return true;
  const key = HEADER_PARTS.find((k) => k !== "regex" && map.has(k));
  if (!key) return true;
  ctx.problem(
    "unknown-key",
    `"${key}" applies to a header, not to ${source}, in ${what}.`,
    map.get(key)!.keyNode,
    key === "query"
      ? "Remove it, or capture a query parameter of a URL header: {header: location, query: code}."
      : "Remove it, or capture a relation's URL from the Link header: {header: link, rel: next}.",
  );
  return false;
}

/** A source's text: a non-empty string, or undefined with the problem reported. */
function sourceText(ctx: Loading, entry: Entry, source: SourceKey, what: string) {
  const v = isScalar(entry.value) ? entry.value.value : undefined;
  if (typeof v === "string" && v !== "") return v;
  ctx.problem(
    "wrong-type",
    `Expected "${source}" in ${what} to be a non-empty string, got ${describe(entry.value)}.`,
    entry.value ?? entry.keyNode,
    source === "regex"
      ? `For example: regex: 'name="csrf" content="([^"]+)"' (the first group is kept).`
      : `For example: ${source}: ${source === "header" ? "x-request-id" : "session"}`,
  );
  return undefined;
}

/** What a text source reader is given. */
interface TextSource {
  ctx: Loading;
  entry: Entry;
  text: string;
  what: string;
  /** The capture's map, for a header's part. */
  map: Map<string, Entry>;
}

/** The readers of the sources written as text. */
const TEXT_SOURCES: Record<
  Exclude<SourceKey, "path">,
  (s: TextSource) => CaptureSource | undefined
> = {
  header({ ctx, entry, text, what, map }) {
    if (!METHOD.test(text)) {
      ctx.problem(
        "bad-header",
        `Header name "${text}" in ${what} is not an HTTP token.`,
        entry.value,
        "Use letters, digits and -, e.g. x-request-id.",
      );
      return undefined;
    }
    const name = text.toLowerCase();
    const part = headerPart(ctx, map, name, what);
    return part && { kind: "header", name, ...part };
  },
  cookie: ({ text }) => ({ kind: "cookie", name: text }),
  xpath: ({ text }) => ({ kind: "xpath", expression: text }),
  body({ ctx, entry, text, what }) {
    if (text === "base64") return { kind: "body", encoding: "base64" };
    ctx.problem(
      "wrong-type",
      `Expected "body" in ${what} to be base64, got "${text}".`,
      entry.value,
      "Write {body: base64} to capture the body's bytes as base64 (send them with body_base64 or content_base64); $.body captures its text.",
    );
    return undefined;
  },
  regex({ ctx, entry, text }) {
    const pattern = loadPattern(ctx, text, entry.value);
    return pattern && { kind: "regex", pattern, source: text };
  },
};

/**
 * `{path, first}`, `{header[, query | regex | rel]}`, `{cookie}`, `{regex}` or `{xpath}`: exactly one source.
 * `own` is whose its `when` and `otherwise` are: the step's, naming the capture and those above it.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    capture: {code: {header: Location, query: code}}\n",
 *   "f.yaml",
 * );
 * const from = flow?.steps[0].captures[0].from;
 * if (from?.kind !== "header" || from.name !== "location" || from.query !== "code") {
 *   throw new Error();
 * }
 * ```
 */
export function captureSource(
  ctx: Loading,
  node: YAMLMap,
  root: PathRoot,
  what: string,
  owner?: TemplateUse["owner"],
  own = owner,
): CaptureSource | undefined {
  const map = ctx.map(node, what, "capture", [
    ...CAPTURE_SOURCES,
    "first",
    "query",
    "rel",
    "as",
    "claim",
    "optional",
    "when",
    "otherwise",
  ]);
  const source = map && oneSource(ctx, node, map, what);
  if (!map || !source) return undefined;
  const first = firstFlag(ctx, map.get("first"), source, what);
  if (first === undefined) return undefined;
  if (!noHeaderPart(ctx, map, source, what)) return undefined;
  const typed = captureType(ctx, map.get("as"), what);
  const claim = claimName(ctx, map.get("claim"), what);
  const optional = optionalFlag(ctx, map.get("optional"), what);
  const when = own ? captureWhen(ctx, map, root, what, own) : {};
  if (typed === undefined || optional === undefined || when === undefined) return undefined;
  if (claim === undefined) return undefined;
  const entry = map.get(source)!;
  const text = source === "path" ? undefined : sourceText(ctx, entry, source, what);
  const from = source === "path"
    ? withPattern(ctx, map, pathSource(ctx, entry.value, root, what, first, owner), what)
    : text === undefined
    ? undefined
    : TEXT_SOURCES[source]({ ctx, entry, text, what, map });
  return from && { ...from, ...claim, ...typed, ...optional, ...when };
}

/** A path's `regex` (the first group over the text it selects), when given; undefined with the problem reported. */
function withPattern(
  ctx: Loading,
  map: Map<string, Entry>,
  from: CaptureSource | undefined,
  what: string,
): CaptureSource | undefined {
  const entry = map.get("regex");
  if (!from || !entry) return from;
  const text = sourceText(ctx, entry, "regex", what);
  const part = text === undefined
    ? undefined
    : regexPart(ctx, entry, text, what, "the text the path selects");
  return part && { ...from, ...part };
}

/**
 * `claim` (a JWT claim's name, or a list of them, the first the token holds): `{claim}`, `{}` when
 * absent, or undefined with the problem reported.
 */
function claimName(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
): { claim?: string | string[] } | undefined {
  if (!entry) return {};
  const name = (node: unknown) => {
    const v = isScalar(node) ? node.value : undefined;
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  const list = isSeq(entry.value) ? entry.value.items.map((i) => name(ctx.deref(i))) : undefined;
  const one = list ? undefined : name(entry.value);
  if (one !== undefined) return { claim: one };
  if (list && list.length > 0 && list.every((n) => n !== undefined)) return { claim: list };
  ctx.problem(
    "wrong-type",
    `Expected "claim" in ${what} to be the name of a JWT claim or a list of names, got ${
      describe(entry.value)
    }.`,
    entry.value ?? entry.keyNode,
    "Write claim: sub to keep the subject (the account) of the JWT the source gives, e.g. {path: $.json.token, claim: sub}, or claim: [sub, id] for the first of them it holds.",
  );
  return undefined;
}

/** `optional` (true or false): `{optional: true}`, `{}`, or undefined with the problem reported. */
function optionalFlag(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
): { optional?: true } | undefined {
  const v = entry && isScalar(entry.value) ? entry.value.value : undefined;
  if (!entry || v === false) return {};
  if (v === true) return { optional: true };
  ctx.problem(
    "wrong-type",
    `Expected "optional" in ${what} to be true or false, got ${describe(entry.value)}.`,
    entry.value ?? entry.keyNode,
    "Write optional: true to leave the capture unset, instead of failing the step, when its source has nothing to give.",
  );
  return undefined;
}
