/**
 * The part of a header a capture keeps, besides the whole value: `query` (a
 * parameter of the URL it holds), `regex` (the first group of a regular
 * expression over its value) or `rel` (the URL of a `Link` relation). At most
 * one, each only where it means something, checked when the flow loads.
 *
 * @module
 */
import { isScalar } from "./nodes.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry } from "./entry.ts";
import { loadPattern } from "./pattern.ts";

/** The keys that take a part of a header. */
export const HEADER_PARTS = ["query", "regex", "rel"] as const;

/** A header capture's part: at most one key set. */
export interface HeaderPart {
  query?: string;
  regex?: { pattern: RegExp; source: string };
  rel?: string;
}

const EXAMPLE: Record<typeof HEADER_PARTS[number], string> = {
  query: "{header: location, query: code}",
  regex: `{header: x-ratelimit, regex: 'remaining=(\\d+)'}`,
  rel: "{header: link, rel: next}",
};

/** A part's text: a non-empty string, or undefined with the problem reported. */
function text(ctx: Loading, key: keyof HeaderPart, entry: Entry, what: string) {
  const v = isScalar(entry.value) ? entry.value.value : undefined;
  if (typeof v === "string" && v !== "") return v;
  ctx.problem(
    "wrong-type",
    `Expected "${key}" in ${what} to be a non-empty string, got ${describe(entry.value)}.`,
    entry.value ?? entry.keyNode,
    `For example: ${EXAMPLE[key]}`,
  );
  return undefined;
}

/** How many groups a pattern has: `(?:…)` and lookarounds are none. */
function groups(pattern: RegExp): number {
  return new RegExp(`${pattern.source}|`, pattern.flags).exec("")!.length - 1;
}

/** `regex` over a header's value (or what `of` names): compiled, with a group to keep. */
export function regexPart(
  ctx: Loading,
  entry: Entry,
  source: string,
  what: string,
  of = "the header",
): { regex: { pattern: RegExp; source: string } } | undefined {
  const pattern = loadPattern(ctx, source, entry.value);
  if (!pattern) return undefined;
  if (groups(pattern) > 0) return { regex: { pattern, source } };
  ctx.problem(
    "bad-regex",
    `Regular expression "${source}" in ${what} has no group, so it names no part of ${of}.`,
    entry.value,
    `Put the part to keep in parentheses (the first group is kept), e.g. ${EXAMPLE.regex}.`,
  );
  return undefined;
}

/**
 * The part of header `name` that `map` names, `{}` for the whole value, or
 * undefined with the problem reported: two parts, `rel` on another header
 * than `link`, a regular expression without a group.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const flow = (capture: string) =>
 *   loadFlow(`name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n    capture: {${capture}}\n`, "f.yaml");
 * const from = flow("next: {header: Link, rel: next}").flow?.steps[0].captures[0].from;
 * if (from?.kind !== "header" || from.rel !== "next") throw new Error();
 * if (flow("n: {header: x-next, rel: next}").problems[0]?.code !== "unknown-key") throw new Error();
 * if (flow("n: {header: x-rate, regex: 'n=\\d+'}").problems[0]?.code !== "bad-regex") throw new Error();
 * ```
 */
export function headerPart(
  ctx: Loading,
  map: Map<string, Entry>,
  name: string,
  what: string,
): HeaderPart | undefined {
  const keys = HEADER_PARTS.filter((k) => map.has(k));
  if (keys.length === 0) return {};
  if (keys.length > 1) {
    ctx.problem(
      "conflicting-keys",
      `"${keys[0]}" and "${keys[1]}" in ${what} both take a part of the header.`,
      map.get(keys[1])!.keyNode,
      `A capture keeps one part of a header: keep one of them, e.g. ${EXAMPLE[keys[0]]}.`,
    );
    return undefined;
  }
  const key = keys[0];
  const entry = map.get(key)!;
  if (key === "rel" && name !== "link") {
    ctx.problem(
      "unknown-key",
      `"rel" applies to the Link header, not to header "${name}", in ${what}.`,
      entry.keyNode,
      `Capture a relation's URL from the Link header, ${EXAMPLE.rel}, or remove "rel".`,
    );
    return undefined;
  }
  const value = text(ctx, key, entry, what);
  if (value === undefined) return undefined;
  if (key === "regex") return regexPart(ctx, entry, value, what);
  return key === "rel" ? { rel: value.toLowerCase() } : { query: value };
}
