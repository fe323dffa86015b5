/**
 * The items of a `json` or `jsonpath` check list: path checks, XPath checks,
 * aliased lists merged in place, and check groups (`checks` at a base path
 * `at`, under a condition `if` with `else`, named), nested at most 8 deep;
 * a group's `checks` or `else` may name a check file (`check_file.ts`).
 *
 * @module
 */
import type { Node, Scalar, YAMLMap } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import {
  type CheckGroup,
  type Checks,
  type Operator,
  OPERATORS,
  type PathCheck,
  type XPathCheck,
} from "../model/flow.ts";
import type { CompiledPath, PathRoot } from "../expr/path.ts";
import { loadGroupConditions } from "./conditions.ts";
import { expectedValue } from "./expected.ts";
import { pathChecks } from "./path_check.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import {
  type ChainLink,
  checkFileItems,
  checkFileName,
  finishCheckFile,
  namesCheckFile,
} from "./check_file.ts";

/** How deep lists and groups nest in a check list. */
const MAX_NESTING = 8;

/** Where checks are being added: their root, enclosing groups and their `at` paths. */
export interface Place {
  root: PathRoot;
  what: string;
  owner: TemplateUse["owner"];
  depth: number;
  base: CompiledPath[];
  groups: NonNullable<PathCheck["groups"]>;
  /** The enclosing groups' names, joined. */
  name?: string;
  /** The check files being read, outermost first: the last is the one these items are in. */
  chain?: ChainLink[];
}

/** A group's or a check's name under the enclosing groups' names. */
const joinName = (outer: string | undefined, own: string | undefined) =>
  outer && own ? `${outer} › ${own}` : outer ?? own;

/** Whether a map has the key. */
const hasKey = (node: YAMLMap, key: string) =>
  node.items.some((p) => isScalar(p.key) && p.key.value === key);

/**
 * Items of a check list: checks, aliased lists of checks (merged in place) and groups.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    assert: {json: [{name: item, at: $.json.item, checks: [{path: $.id, exists: true}]}]}\n",
 *   "f.yaml",
 * );
 * const check = flow?.steps[0].assert?.paths[0];
 * if (check?.name !== "item" || check.base?.[0].source !== "$.json.item") throw new Error();
 * ```
 */
export function addChecks(ctx: Loading, checks: Checks, items: unknown[], place: Place): void {
  for (const item of items) {
    const node = ctx.deref(item);
    const nested = place.depth < MAX_NESTING;
    if (isSeq(node) && nested) {
      addChecks(ctx, checks, node.items, { ...place, depth: place.depth + 1 });
    } else if (isGroup(node) && nested) {
      addGroup(ctx, checks, node, place);
    } else if (isMap(node) && hasKey(node, "xpath")) {
      const found = xpathChecks(ctx, node, place);
      if (found.length > 0) (checks.xpaths ??= []).push(...found);
    } else addPathChecks(ctx, checks, node, place);
  }
}

/** One path check item, under the enclosing groups. */
function addPathChecks(ctx: Loading, checks: Checks, node: Node | null, place: Place): void {
  // Inside a group with "at", $ is the value it selects: the paths are plain JSONPath.
  const root = place.base.length > 0 ? "body" : place.root;
  for (const check of pathChecks(ctx, node, root, place.what, place.owner)) {
    const name = joinName(place.name, check.name);
    checks.paths.push({
      ...check,
      ...(name ? { name } : {}),
      ...(place.chain?.length ? { file: ctx.file } : {}),
      ...(place.base.length > 0 ? { base: place.base } : {}),
      ...(place.groups.length > 0 ? { groups: place.groups } : {}),
    });
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

/** A group's head: its name, the place its checks are added at, and the group if it has `if`. */
function groupHead(ctx: Loading, map: Map<string, Entry>, node: YAMLMap, place: Place) {
  const what = `a check group in ${place.what}`;
  // A group that uses a check file is named after it unless it says otherwise.
  const file = map.get("checks")?.value;
  const own = map.get("name")
    ? ctx.string(map.get("name"), `the name of ${what}`)
    : namesCheckFile(file)
    ? checkFileName(file.value)
    : undefined;
  const name = joinName(place.name, own);
  const root = place.base.length > 0 ? "body" : place.root;
  const atEntry = map.get("at");
  const at = atEntry && ctx.path(atEntry.value, root, `"at" of ${what}`, place.owner);
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
    ...(place.chain?.length ? { file: ctx.file } : {}),
    ...ctx.at(ifEntry?.keyNode ?? node),
  };
  const inner = {
    ...place,
    base: at ? [...place.base, at] : place.base,
    ...(name ? { name } : {}),
  };
  return { what, group, conditional: ifEntry !== undefined, inner };
}

/** A group: its checks at a base path (`at`), under a condition (`if`, with `else`), named. */
function addGroup(ctx: Loading, checks: Checks, node: YAMLMap, place: Place): void {
  const map = ctx.map(node, `a check group in ${place.what}`, "group", [
    "name",
    "at",
    "if",
    "checks",
    "else",
  ], { required: ["checks"] });
  if (!map) return;
  const { what, group, conditional, inner } = groupHead(ctx, map, node, place);
  for (const [branch, entry] of [["then", map.get("checks")], ["else", map.get("else")]] as const) {
    if (!entry) continue;
    const list = ctx.deref(entry.value);
    const inBranch = {
      ...inner,
      groups: conditional ? [...place.groups, { group, branch }] : place.groups,
    };
    if (namesCheckFile(list)) {
      group.counts[branch] = addCheckFile(ctx, checks, entry, list, inBranch);
      continue;
    }
    if (!isSeq(list)) {
      ctx.problem(
        "wrong-type",
        `Expected "${entry.key}" of ${what} to be a list of checks, got ${describe(list)}.`,
        list ?? entry.keyNode,
        `For example: ${entry.key}: [{path: $.title, type: string}], an alias of such a list, or a check file's path.`,
      );
      continue;
    }
    const before = checks.paths.length;
    addChecks(ctx, checks, list.items, { ...inBranch, depth: place.depth + 1 });
    group.counts[branch] = checks.paths.length - before;
  }
}

/** The checks of a check file a group names, read in the file's own loading; how many. */
function addCheckFile(
  ctx: Loading,
  checks: Checks,
  entry: Entry,
  node: Scalar<string>,
  place: Place,
): number {
  const chain = place.chain ?? [];
  const got = checkFileItems(ctx, entry, node, chain);
  if (!got) return 0;
  const before = checks.paths.length;
  // Nesting is counted per file: a chain of check files has its own limit.
  addChecks(got.sub, checks, got.items, {
    ...place,
    what: `the check file ${got.file}`,
    depth: 0,
    chain: [...chain, { file: got.file, sub: got.sub, use: node }],
  });
  finishCheckFile(ctx, got.sub);
  return checks.paths.length - before;
}
