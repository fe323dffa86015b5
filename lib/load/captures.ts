/**
 * A step's `capture` (spelling A) and `extract` (spelling B): names and
 * their sources, a JSONPath or `{path, first}`, `{header}`, `{cookie}`,
 * `{regex}`.
 *
 * @module
 */
import type { Node, Scalar, YAMLMap } from "yaml";
import { isMap, isScalar } from "./nodes.ts";
import { type Capture, CAPTURE_SOURCES, type CaptureSource } from "../model/flow.ts";
import { compilePattern } from "../_util/regex.ts";
import type { PathRoot } from "../expr/path.ts";
import {
  describe,
  type Entry,
  isEmpty,
  type Loading,
  METHOD,
  NAME,
  type TemplateUse,
} from "./context.ts";

/** The captures of a step: `capture` (paths at the response) and `extract` (paths at the body), each name once. */
export function loadCaptures(
  ctx: Loading,
  capture: Entry | undefined,
  extract: Entry | undefined,
  label: string,
  owner?: TemplateUse["owner"],
): Capture[] {
  const out: Capture[] = [];
  const seen = new Set<string>();
  for (
    const [entry, root, key] of [[capture, "response", "capture"], [
      extract,
      "body",
      "extract",
    ]] as const
  ) {
    if (!entry || isEmpty(entry.value)) continue;
    if (!isMap(entry.value)) {
      ctx.problem(
        "wrong-type",
        `Expected "${key}" of ${label} to be a map of name to JSONPath, got ${
          describe(entry.value)
        }.`,
        entry.value,
        root === "response"
          ? "For example: capture: {token: $.json.token}"
          : "For example: extract: {token: $.token}",
      );
      continue;
    }
    for (const e of ctx.entries(entry.value)) {
      if (!NAME.test(e.key)) {
        ctx.problem(
          "bad-name",
          `Capture name "${e.key}" cannot be referenced.`,
          e.keyNode,
          'Use letters, digits, "_" and "-", e.g. order_id.',
        );
        continue;
      }
      if (seen.has(e.key)) {
        ctx.problem(
          "duplicate-capture",
          `${label} captures "${e.key}" twice.`,
          e.keyNode,
          "Give each captured value its own name.",
        );
        continue;
      }
      seen.add(e.key);
      const what = `capture "${e.key}" of ${label}`;
      const from = isMap(e.value)
        ? captureSource(ctx, e.value, root, what, owner)
        : pathSource(ctx, e.value, root, what, false, owner);
      if (from) {
        const at = ctx.at(e.keyNode);
        out.push({ name: e.key, from, line: at.line, column: at.column });
      }
    }
  }
  return out;
}

/** A capture by JSONPath, rooted the way its block says. */
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

/** `{path, first}`, `{header[, query]}`, `{cookie}`, `{regex}` or `{xpath}`: exactly one source. */
export function captureSource(
  ctx: Loading,
  node: YAMLMap,
  root: PathRoot,
  what: string,
  owner?: TemplateUse["owner"],
): CaptureSource | undefined {
  const map = ctx.map(node, what, "capture", [...CAPTURE_SOURCES, "first", "query"]);
  if (!map) return undefined;
  const sources = CAPTURE_SOURCES.filter((k) => map.has(k));
  // An unknown key was the mistake (xpath, say): it is reported already, with its hint.
  if (sources.length === 0 && node.items.length > map.size) return undefined;
  if (sources.length !== 1) {
    ctx.problem(
      sources.length === 0 ? "missing-key" : "wrong-type",
      sources.length === 0
        ? `Expected ${what} to name its source.`
        : `Expected ${what} to have one source, got ${sources.join(" and ")}.`,
      sources.length === 0 ? node : map.get(sources[1])!.keyNode,
      `Use one of: path (a JSONPath), header, cookie, regex or xpath, e.g. {cookie: session}.`,
    );
    return undefined;
  }
  const first = map.get("first");
  if (first && sources[0] !== "path") {
    ctx.problem(
      "unknown-key",
      `"first" applies to a path, not to ${sources[0]}, in ${what}.`,
      first.keyNode,
      "Remove it: a header, cookie, regex or xpath capture is one value already.",
    );
    return undefined;
  }
  if (first && !(isScalar(first.value) && typeof first.value.value === "boolean")) {
    ctx.problem(
      "wrong-type",
      `Expected "first" in ${what} to be true or false, got ${describe(first.value)}.`,
      first.value ?? first.keyNode,
      "Write first: true to keep the first match of a path that can match several values.",
    );
    return undefined;
  }
  const query = map.get("query");
  if (query && sources[0] !== "header") {
    ctx.problem(
      "unknown-key",
      `"query" applies to a header, not to ${sources[0]}, in ${what}.`,
      query.keyNode,
      "Remove it, or capture a query parameter of a URL header: {header: location, query: code}.",
    );
    return undefined;
  }
  const queryName = isScalar(query?.value) ? query.value.value : undefined;
  if (query && (typeof queryName !== "string" || queryName === "")) {
    ctx.problem(
      "wrong-type",
      `Expected "query" in ${what} to be a parameter name, got ${describe(query.value)}.`,
      query.value ?? query.keyNode,
      "For example: {header: location, query: code}",
    );
    return undefined;
  }
  const entry = map.get(sources[0])!;
  if (sources[0] === "path") {
    return pathSource(
      ctx,
      entry.value,
      root,
      what,
      (first?.value as Scalar | undefined)?.value === true,
      owner,
    );
  }
  const v = isScalar(entry.value) ? entry.value.value : undefined;
  if (typeof v !== "string" || v === "") {
    ctx.problem(
      "wrong-type",
      `Expected "${sources[0]}" in ${what} to be a non-empty string, got ${describe(entry.value)}.`,
      entry.value ?? entry.keyNode,
      sources[0] === "regex"
        ? `For example: regex: 'name="csrf" content="([^"]+)"' (the first group is kept).`
        : `For example: ${sources[0]}: ${sources[0] === "header" ? "x-request-id" : "session"}`,
    );
    return undefined;
  }
  if (sources[0] === "header") {
    if (!METHOD.test(v)) {
      ctx.problem(
        "bad-header",
        `Header name "${v}" in ${what} is not an HTTP token.`,
        entry.value,
        "Use letters, digits and -, e.g. x-request-id.",
      );
      return undefined;
    }
    return typeof queryName === "string"
      ? { kind: "header", name: v.toLowerCase(), query: queryName }
      : { kind: "header", name: v.toLowerCase() };
  }
  if (sources[0] === "cookie") return { kind: "cookie", name: v };
  if (sources[0] === "xpath") return { kind: "xpath", expression: v };
  try {
    return { kind: "regex", pattern: compilePattern(v), source: v };
  } catch (error) {
    ctx.problem(
      "bad-regex",
      `Invalid regular expression "${v}": ${
        (error as Error).message.replace(/^Invalid regular expression: /, "")
      }.`,
      entry.value,
      "Escape special characters with a backslash, e.g. \\. for a dot.",
    );
    return undefined;
  }
}
