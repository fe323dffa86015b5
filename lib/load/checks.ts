/**
 * `assert` and `loop.until` blocks: the status check and path checks, with
 * each operator's expected value validated by the operator table.
 *
 * @module
 */
import type { Node, Scalar, YAMLMap } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import { yamlEngine } from "./yaml_engine.ts";
import { parseBounded } from "./yaml_limits.ts";
import type { ValueTemplate } from "../expr/template.ts";
import {
  type CheckGroup,
  type Checks,
  type Operator,
  OPERATORS,
  type PathCheck,
  type SchemaCheck,
  type StatusCheck,
  TYPE_NAMES,
  type XPathCheck,
} from "../model/flow.ts";
import { OPERATOR_SPECS, type OperatorSpec } from "../model/operators.ts";
import { compilePattern } from "../_util/regex.ts";
import { type CompiledPath, compilePath, type PathRoot } from "../expr/path.ts";
import { parseDuration } from "../_util/duration.ts";
import { MAX_DEPTH, MAX_DOCUMENT_BYTES } from "../model/limits.ts";
import { loadGroupConditions } from "./conditions.ts";
import { suggest } from "../_util/suggest.ts";
import { getOwn } from "../_util/own_property.ts";
import { describe, type Entry, type Loading, type TemplateUse } from "./context.ts";

/** Type names people bring from other languages, and the JSON type they mean. */
export const TYPE_HINTS: Record<string, string> = {
  int: "integer",
  float: "number",
  double: "number",
  bool: "boolean",
  str: "string",
  list: "array",
  dict: "object",
  map: "object",
};

/** An `assert` or `loop.until` block: `status`, then `json` (A) and `jsonpath` (B) checks. */
export function loadChecks(
  ctx: Loading,
  node: Node | null,
  what: string,
  owner: TemplateUse["owner"],
): Checks | undefined {
  const map = ctx.map(node, what, "assert", [
    "status",
    "headers",
    "cookies",
    "duration",
    "schema",
    "openapi",
    "json",
    "jsonpath",
  ]);
  if (!map) return undefined;
  const checks: Checks = { paths: [] };
  const status = map.get("status");
  if (status) checks.status = loadStatus(ctx, status, what);
  // Spelling-neutral blocks: headers, cookies and the response time, in both spellings.
  for (const kind of ["headers", "cookies"] as const) {
    const entry = map.get(kind);
    if (entry) checks.paths.push(...namedChecks(ctx, entry, kind, what, owner));
  }
  const duration = map.get("duration");
  if (duration) checks.paths.push(...durationChecks(ctx, duration, what, owner));
  const schemas = [map.get("schema"), map.get("openapi")].flatMap((e) =>
    e ? loadSchemaCheck(ctx, e, what) : []
  );
  if (schemas.length > 0) checks.schemas = schemas;
  for (const [key, root] of [["json", "response"], ["jsonpath", "body"]] as const) {
    const entry = map.get(key);
    if (!entry) continue;
    if (!isSeq(entry.value)) {
      ctx.problem(
        "wrong-type",
        `Expected "${key}" in ${what} to be a list of checks, got ${describe(entry.value)}.`,
        entry.value ?? entry.keyNode,
        `Write each check as a list item: "- {path: ${
          root === "response" ? "$.json.id" : "$.id"
        }, exists: true}".`,
      );
      continue;
    }
    addChecks(ctx, checks, entry.value.items, {
      root,
      what,
      owner,
      depth: 0,
      base: [],
      groups: [],
    });
  }
  return checks;
}

/**
 * `headers: {content-type: {matches: json}, x-id: abc}` or
 * `cookies: {sid: {exists: true}}`: a value is `equals`, a map names
 * operators; a header's name compares case-insensitively, a cookie's
 * operators apply to its value (`exists` to the cookie).
 */
function namedChecks(
  ctx: Loading,
  entry: Entry,
  kind: "headers" | "cookies",
  what: string,
  owner: TemplateUse["owner"],
): PathCheck[] {
  const node = ctx.deref(entry.value);
  if (!isMap(node)) {
    ctx.problem(
      "wrong-type",
      `Expected "${kind}" in ${what} to be a map of names to checks, got ${describe(node)}.`,
      node ?? entry.keyNode,
      kind === "headers"
        ? "For example: headers: {content-type: {matches: json}, cache-control: no-store}"
        : "For example: cookies: {sid: {exists: true}}",
    );
    return [];
  }
  const out: PathCheck[] = [];
  for (const e of ctx.entries(node)) {
    const name = kind === "headers" ? e.key.toLowerCase() : e.key;
    const quoted = `'${name.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
    const base = `$.${kind}[${quoted}]`;
    for (const [operator, opEntry] of operatorsOf(ctx, e, `${kind.slice(0, -1)} "${e.key}"`)) {
      const expected = expectedValue(ctx, operator, opEntry, owner);
      if (!expected) continue;
      const source = kind === "cookies" && operator !== "exists" ? `${base}.value` : base;
      out.push({
        path: compilePath(source, "response"),
        operator,
        expected,
        ...ctx.at(opEntry.keyNode),
      });
    }
  }
  return out;
}

/** `duration: {lt: 500ms}`: the response time, with durations for the comparison operators. */
function durationChecks(
  ctx: Loading,
  entry: Entry,
  what: string,
  owner: TemplateUse["owner"],
): PathCheck[] {
  const out: PathCheck[] = [];
  for (const [operator, opEntry] of operatorsOf(ctx, entry, `"duration" in ${what}`)) {
    if (!["lt", "lte", "gt", "gte"].includes(operator)) {
      ctx.problem(
        "wrong-type",
        `"duration" in ${what} takes lt, lte, gt or gte, not "${operator}".`,
        opEntry.keyNode,
        "For example: duration: {lt: 500ms}",
      );
      continue;
    }
    const v = isScalar(opEntry.value) ? opEntry.value.value : undefined;
    const ms = typeof v === "number" ? v : typeof v === "string" ? parseDuration(v) : undefined;
    const expected = ms !== undefined && !(typeof v === "string" && v.includes("${"))
      ? { kind: "const" as const, value: ms }
      : expectedValue(ctx, operator, opEntry, owner);
    if (!expected) continue;
    out.push({
      path: compilePath("$.duration_ms", "response"),
      operator,
      expected,
      name: "response time",
      ...ctx.at(opEntry.keyNode),
    });
  }
  return out;
}

/**
 * `schema: {…}` (inline), `schema: schemas/item.json` or
 * `openapi: api/openapi.yaml`: the document, read and parsed now so a
 * missing or malformed file is a problem before anything is sent.
 */
function loadSchemaCheck(ctx: Loading, entry: Entry, what: string): SchemaCheck[] {
  const node = ctx.deref(entry.value);
  const at = { file: ctx.file, ...ctx.at(entry.keyNode) };
  if (entry.key === "schema" && isMap(node)) {
    return [{ kind: "schema", source: "the inline schema", schema: node.toJSON(), ...at }];
  }
  const path = ctx.string(entry, `"${entry.key}" in ${what}`);
  if (path === undefined) return [];
  const read = ctx.options.readFile?.(path, ctx.file, MAX_DOCUMENT_BYTES);
  const fail = (why: string, hint: string) => {
    ctx.problem(
      (read && "code" in read && read.code) || "file-read",
      `Could not use "${path}" for "${entry.key}" in ${what}: ${why}.`,
      node,
      hint,
    );
    return [];
  };
  if (!read) {
    return fail("this flow was loaded from its text alone", "Load it with loadFlows or the CLI.");
  }
  if ("message" in read) return fail(read.message, "The path is relative to the flow file.");
  let document: unknown;
  // Outside the try: needing the full parser is not a problem of the file (the loader retries).
  const yaml = /\.json$/i.test(path) ? undefined : yamlEngine.get();
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
    // The YAML parser recurses several times per level: bounded first, as flow files are, so a
    // document nested 100,000 deep gets a limit, not the stack's end. (JSON.parse does not
    // recurse: a JSON document may nest up to the schema limit, 1,000 levels.)
    const bounded = yaml && parseBounded(text, undefined, MAX_DEPTH);
    if (bounded && "tooDeepAt" in bounded) {
      const line = text.slice(0, bounded.tooDeepAt).split("\n").length;
      return fail(
        `as YAML it nests deeper than ${MAX_DEPTH} levels (line ${line}); a JSON file may nest ` +
          "up to 1,000",
        "A schema that describes deep data recurses through a $ref to itself instead.",
      );
    }
    document = /\.json$/i.test(path) ? JSON.parse(text) : yaml!.parse(text);
  } catch (error) {
    return fail(
      `it is not ${/\.json$/i.test(path) ? "JSON" : "YAML or JSON"} (${
        (error as Error).message.split("\n")[0]
      })`,
      "Write the schema as a JSON or YAML document.",
    );
  }
  if (document === null || typeof document !== "object") {
    return fail(
      "it holds no schema object",
      "The file must hold a JSON Schema or an OpenAPI document.",
    );
  }
  if (entry.key === "openapi" && !("paths" in document)) {
    return fail(
      'it has no "paths", so it is not an OpenAPI document',
      "Give the OpenAPI 3 document of the API.",
    );
  }
  return entry.key === "schema"
    ? [{ kind: "schema", source: path, schema: document, ...at }]
    : [{ kind: "openapi", source: path, document, ...at }];
}

/** The operators of a check written as a map, or `equals` for a plain value. */
function operatorsOf(ctx: Loading, entry: Entry, what: string): [Operator, Entry][] {
  const node = ctx.deref(entry.value);
  if (!isMap(node)) return [["equals", entry]];
  const map = ctx.map(node, what, "check", OPERATORS);
  if (!map) return [];
  if (map.size === 0 && node.items.length === 0) {
    ctx.problem(
      "missing-key",
      `The check of ${what} has no operator.`,
      node,
      `Add one of: ${OPERATORS.join(", ")}; e.g. "exists: true".`,
    );
  }
  return [...map.entries()].map(([k, e]) => [k as Operator, e]);
}

/** Where checks are being added: their root, enclosing groups and their `at` paths. */
interface Place {
  root: PathRoot;
  what: string;
  owner: TemplateUse["owner"];
  depth: number;
  base: CompiledPath[];
  groups: NonNullable<PathCheck["groups"]>;
  /** The enclosing groups' names, joined. */
  name?: string;
}

/** Items of a check list: checks, aliased lists of checks (merged in place) and groups. */
function addChecks(ctx: Loading, checks: Checks, items: unknown[], place: Place): void {
  for (const item of items) {
    const node = ctx.deref(item);
    if (isSeq(node) && place.depth < 8) {
      addChecks(ctx, checks, node.items, { ...place, depth: place.depth + 1 });
    } else if (isGroup(node) && place.depth < 8) {
      addGroup(ctx, checks, node, place);
    } else if (isMap(node) && node.items.some((p) => isScalar(p.key) && p.key.value === "xpath")) {
      const found = xpathChecks(ctx, node, place);
      if (found.length > 0) (checks.xpaths ??= []).push(...found);
    } else {
      // Inside a group with "at", $ is the value it selects: the paths are plain JSONPath.
      const root = place.base.length > 0 ? "body" : place.root;
      for (const check of pathChecks(ctx, node, root, place.what, place.owner)) {
        const name = place.name && check.name ? `${place.name} › ${check.name}` : place.name ??
          check.name;
        checks.paths.push({
          ...check,
          ...(name ? { name } : {}),
          ...(place.base.length > 0 ? { base: place.base } : {}),
          ...(place.groups.length > 0 ? { groups: place.groups } : {}),
        });
      }
    }
  }
}

/** `{xpath: "//title", equals: …, name?}`: checks of an XML or HTML body. */
function xpathChecks(ctx: Loading, node: YAMLMap, place: Place): XPathCheck[] {
  const what = `an XPath check in ${place.what}`;
  const map = ctx.map(node, what, "check", ["xpath", "name", ...OPERATORS]);
  if (!map) return [];
  if (place.base.length > 0 || place.groups.length > 0) {
    ctx.problem(
      "wrong-type",
      `${what[0].toUpperCase()}${what.slice(1)} cannot be inside a group with "at" or "if".`,
      node,
      "Put XPath checks directly in the check list; XPath selects what it needs itself.",
    );
    return [];
  }
  const xpath = ctx.string(map.get("xpath"), `the xpath of ${what}`);
  const nameEntry = map.get("name");
  const name = nameEntry && ctx.string(nameEntry, `the name of ${what}`);
  const operators = [...map.keys()].filter((k) => k !== "xpath" && k !== "name") as Operator[];
  if (operators.length === 0 && node.items.length === map.size) {
    ctx.problem(
      "missing-key",
      `The XPath check of "${xpath}" has no operator.`,
      node,
      'Add one, e.g. "exists: true" or "equals: …".',
    );
  }
  const out: XPathCheck[] = [];
  for (const operator of operators) {
    const entry = map.get(operator)!;
    const expected = expectedValue(ctx, operator, entry, place.owner);
    if (xpath !== undefined && expected) {
      out.push({ xpath, operator, expected, ...(name ? { name } : {}), ...ctx.at(entry.keyNode) });
    }
  }
  return out;
}

/** A map with a group's keys and no `path`: `{checks, at, if, else, name}`. */
function isGroup(node: Node | null): node is YAMLMap {
  if (!isMap(node)) return false;
  const keys = node.items.map((p) => isScalar(p.key) ? p.key.value : undefined);
  return !keys.includes("path") && keys.some((k) => k === "checks" || k === "at" || k === "if");
}

/** A group: its checks at a base path (`at`), under a condition (`if`, with `else`), named. */
function addGroup(ctx: Loading, checks: Checks, node: YAMLMap, place: Place): void {
  const what = `a check group in ${place.what}`;
  const map = ctx.map(node, what, "group", ["name", "at", "if", "checks", "else"], {
    required: ["checks"],
  });
  if (!map) return;
  const own = map.get("name") && ctx.string(map.get("name"), `the name of ${what}`);
  const name = place.name && own ? `${place.name} › ${own}` : place.name ?? own;
  const root = place.base.length > 0 ? "body" : place.root;
  const atEntry = map.get("at");
  const at = atEntry && ctx.path(atEntry.value, root, `"at" of ${what}`, place.owner);
  const base = at ? [...place.base, at] : place.base;
  const ifEntry = map.get("if");
  const elseEntry = map.get("else");
  if (elseEntry && !ifEntry) {
    ctx.problem(
      "missing-key",
      `The "else" checks of ${what} need an "if" to depend on.`,
      elseEntry.keyNode,
      'Add the condition, e.g. if: {path: $.json.items, notEquals: []}, or move the checks into "checks".',
    );
  }
  // The condition is on what the enclosing checks see, not on the group's own "at".
  const when = ifEntry
    ? loadGroupConditions(ctx, ifEntry, `"if" of ${what}`, place.owner, root, place.base)
    : [];
  const group: CheckGroup = {
    ...(name ? { name } : {}),
    when,
    counts: { then: 0, else: 0 },
    ...ctx.at(ifEntry?.keyNode ?? node),
  };
  for (const [branch, entry] of [["then", map.get("checks")], ["else", elseEntry]] as const) {
    if (!entry) continue;
    const list = ctx.deref(entry.value);
    if (!isSeq(list)) {
      ctx.problem(
        "wrong-type",
        `Expected "${entry.key}" of ${what} to be a list of checks, got ${describe(list)}.`,
        list ?? entry.keyNode,
        `For example: ${entry.key}: [{path: $.title, type: string}], or an alias of such a list.`,
      );
      continue;
    }
    const before = checks.paths.length;
    addChecks(ctx, checks, list.items, {
      ...place,
      depth: place.depth + 1,
      base,
      groups: ifEntry ? [...place.groups, { group, branch }] : place.groups,
      ...(name ? { name } : {}),
    });
    group.counts[branch] = checks.paths.length - before;
  }
}

/** `status: 200`, `status: {anyOf: [...]}` or `status: {in: [...]}`. */
export function loadStatus(
  ctx: Loading,
  entry: Entry,
  what: string,
): StatusCheck | undefined {
  const node = entry.value;
  const at = ctx.at(entry.keyNode);
  const isCode = (n: Node | null) =>
    isScalar(n) && Number.isInteger(n.value) && (n.value as number) >= 100 &&
    (n.value as number) <= 599;
  if (isCode(node)) {
    return { operator: "equals", expected: [(node as Scalar).value as number], ...at };
  }
  if (isMap(node)) {
    const map = ctx.map(node, `"status" in ${what}`, "check", ["anyOf", "in"]);
    const [key, list] = map?.get("anyOf")
      ? ["anyOf", map.get("anyOf")] as const
      : ["in", map?.get("in")] as const;
    if (map && map.size > 1) {
      ctx.problem("wrong-type", `Use either "anyOf" or "in" for "status", not both.`, node);
    }
    if (list && isSeq(list.value) && list.value.items.length > 0) {
      const codes = list.value.items.map((i) => ctx.deref(i));
      const bad = codes.find((c) => !isCode(c));
      if (bad === undefined) {
        return {
          operator: key,
          expected: codes.map((c) => (c as Scalar).value as number),
          ...at,
        };
      }
      ctx.problem(
        "wrong-type",
        `Expected a status code from 100 to 599, got ${describe(bad)}.`,
        bad ?? list.value,
      );
      return undefined;
    }
    if (map && map.size > 0) {
      ctx.problem(
        "wrong-type",
        `Expected "${key}" to be a non-empty list of status codes, got ${describe(list?.value)}.`,
        list?.value ?? node,
        `For example: status: {${key}: [200, 201]}.`,
      );
      return undefined;
    }
  }
  if (!isMap(node) || (isMap(node) && node.items.length === 0)) {
    ctx.problem(
      "wrong-type",
      `Expected "status" to be a status code or {anyOf: [...]}, got ${describe(node)}.`,
      node ?? entry.keyNode,
      "For example: status: 200, status: {anyOf: [200, 201]} or status: {in: [200, 201]}.",
    );
  }
  return undefined;
}

/**
 * One `{path, <operator>: expected, …}` item, with an optional `name` and
 * `each` (the operators apply to every value a wildcard or filter selects):
 * a check per operator it names.
 */
export function pathChecks(
  ctx: Loading,
  node: Node | null,
  root: PathRoot,
  what: string,
  owner: TemplateUse["owner"],
): PathCheck[] {
  const map = ctx.map(node, `a check in ${what}`, "check", ["path", "name", "each", ...OPERATORS], {
    required: ["path"],
  });
  if (!map) return [];
  const pathEntry = map.get("path");
  const path = pathEntry && ctx.path(pathEntry.value, root, `a check in ${what}`, owner);
  const nameEntry = map.get("name");
  const name = nameEntry && ctx.string(nameEntry, `the name of a check in ${what}`);
  const eachEntry = map.get("each");
  const each = eachEntry && isScalar(eachEntry.value) ? eachEntry.value.value : undefined;
  if (eachEntry && typeof each !== "boolean") {
    ctx.problem(
      "wrong-type",
      `Expected "each" in a check in ${what} to be true or false, got ${
        describe(eachEntry.value)
      }.`,
      eachEntry.value ?? eachEntry.keyNode,
      "Write each: true to apply the operators to every value the path selects.",
    );
  } else if (each === true && path?.singular) {
    ctx.problem(
      "wrong-type",
      `"each" applies the operators to every value of a path that selects several, but "${path.source}" selects one.`,
      eachEntry!.keyNode,
      `Select every value with a wildcard or a filter, e.g. "${
        path.source.replace(/\[\d+\]/, "[*]")
      }".`,
    );
  }
  const operators = [...map.keys()].filter((k) =>
    k !== "path" && k !== "name" && k !== "each"
  ) as Operator[];
  // An unknown key (eq, regex, …) is the mistake, already reported with its fix.
  const unknownKeys = isMap(node) && node.items.length > map.size;
  if (operators.length === 0 && map.size > 0 && !unknownKeys) {
    ctx.problem(
      "missing-key",
      `The check of "${pathEntry?.value}" has no operator.`,
      node,
      `Add one of: ${OPERATORS.join(", ")}; e.g. "exists: true".`,
    );
  }
  const out: PathCheck[] = [];
  for (const operator of operators) {
    const entry = map.get(operator)!;
    const expected = expectedValue(ctx, operator, entry, owner);
    if (path && expected) {
      out.push({
        path,
        operator,
        expected,
        ...(name ? { name } : {}),
        ...(each === true ? { each: true } : {}),
        ...ctx.at(entry.keyNode),
      });
    }
  }
  return out;
}

/** Compiles an operator's expected value and checks its type when it is a constant. */
export function expectedValue(
  ctx: Loading,
  operator: Operator,
  entry: Entry,
  owner: TemplateUse["owner"],
): ValueTemplate | undefined {
  const value = ctx.value(entry.value, owner);
  if (!value || value.kind !== "const") return value;
  const v = value.value;
  const fail = (expected: string, hint?: string) => {
    ctx.problem(
      "wrong-type",
      `Expected "${operator}" to be ${expected}, got ${describe(entry.value)}.`,
      entry.value ?? entry.keyNode,
      hint,
    );
    return undefined;
  };
  if (operator === "type") {
    if (typeof v === "string" && (TYPE_NAMES as readonly string[]).includes(v)) return value;
    const close = typeof v === "string"
      ? getOwn(TYPE_HINTS, v) ?? suggest(v, TYPE_NAMES)
      : undefined;
    return fail(
      `one of ${TYPE_NAMES.join(", ")}`,
      close ? `Did you mean "${close}"?` : undefined,
    );
  }
  const spec: OperatorSpec = OPERATOR_SPECS[operator];
  if (spec.accepts && !spec.accepts(v)) return fail(spec.expects ?? "another value", spec.hint);
  if (operator === "matches") {
    try {
      compilePattern(v as string);
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
  return value;
}
