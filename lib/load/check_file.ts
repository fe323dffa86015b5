/**
 * A check group whose `checks` (or `else`) names a check file:
 * `{at: $.json.article, checks: ../checks/article.yaml}`. The file (read and
 * parsed once per set by `check_files.ts`) is read here for each use, in a
 * loading of its own, so its problems keep its positions while its
 * expressions are checked against the flow that uses it.
 *
 * @module
 */
import type { Node, Scalar } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry } from "./entry.ts";
import type { CheckFileRead } from "./load_options.ts";
import { refuseExpression } from "./not_allowed.ts";

/**
 * How deep check files may use check files (a file using one that uses
 * another is 2 levels): enough for an article with its author's profile,
 * small enough that a mistaken chain is short to read.
 *
 * @example
 * ```ts
 * import { MAX_CHECK_FILE_DEPTH } from "./check_file.ts";
 * if (MAX_CHECK_FILE_DEPTH !== 8) throw new Error();
 * ```
 */
export const MAX_CHECK_FILE_DEPTH = 8;

/** A check file being read: its path, its loading, and the use in it that leads further in. */
export interface ChainLink {
  file: string;
  sub: Loading;
  /** The use (in the file before it, or in the flow) through which this file is read. */
  use: Node;
}

/** A check file's items, read in `sub`, ready for the check list reader. */
export interface CheckFileItems {
  file: string;
  sub: Loading;
  items: unknown[];
}

/**
 * Whether a document is a check file rather than a flow: a list whose
 * first item is a check or a group, or a map of `checks` without `steps`.
 *
 * @example
 * ```ts
 * import { isCheckFile } from "./check_file.ts";
 * import { parseDocument } from "yaml";
 * const list = parseDocument("- {path: $.id, exists: true}\n").contents;
 * const flow = parseDocument("name: a\nsteps: []\n").contents;
 * if (!isCheckFile(list) || isCheckFile(flow)) throw new Error();
 * ```
 */
export function isCheckFile(root: unknown): boolean {
  const keys = (node: unknown) =>
    isMap(node) ? node.items.map((p) => (isScalar(p.key) ? p.key.value : undefined)) : [];
  if (isSeq(root)) return keys(root.items[0]).some((k) => k === "path" || k === "checks");
  const top = keys(root);
  return top.includes("checks") && !top.includes("steps");
}

/**
 * Whether a group's `checks` or `else` names a check file: a string, not a list.
 *
 * @example
 * ```ts
 * import { namesCheckFile } from "./check_file.ts";
 * import { parseDocument } from "yaml";
 * if (!namesCheckFile(parseDocument("a.yaml").contents)) throw new Error();
 * if (namesCheckFile(parseDocument("[]").contents)) throw new Error();
 * ```
 */
export function namesCheckFile(node: Node | null | undefined): node is Scalar<string> {
  return isScalar(node) && typeof node.value === "string";
}

/**
 * The file's name without folders or extension, the name of a group that
 * uses it without naming itself: `../checks/article.yaml` → `article`.
 *
 * @example
 * ```ts
 * import { checkFileName } from "./check_file.ts";
 * if (checkFileName("../checks/article.yaml") !== "article") throw new Error();
 * ```
 */
export function checkFileName(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * The items of the check file `node` names (in `ctx`'s file, read through
 * `chain`), or `undefined` with one problem at the place to fix.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   "name: f\nsteps:\n  - name: s\n    request: {url: http://x.test}\n" +
 *     "    assert: {json: [{at: $.json.a, checks: a.yaml}]}\n",
 *   "f.yaml",
 * );
 * if (problems[0]?.code !== "check-file-unavailable") throw new Error(problems[0]?.code);
 * ```
 */
export function checkFileItems(
  ctx: Loading,
  entry: Entry,
  node: Scalar<string>,
  chain: readonly ChainLink[],
): CheckFileItems | undefined {
  const path = node.value;
  // The file is read as the flow loads: a path made at run time could not be.
  if (refuseExpression(ctx, node, `The check file of "${entry.key}"`)) return undefined;
  if (path === "") {
    ctx.problem(
      "wrong-type",
      `Expected "${entry.key}" to be a list of checks or a check file's path, got an empty string.`,
      node,
      `For example: ${entry.key}: ../checks/article.yaml`,
    );
    return undefined;
  }
  const resolve = ctx.options.checkFile;
  if (!resolve) {
    ctx.problem(
      "check-file-unavailable",
      `"${entry.key}" names the check file "${path}", but this flow was loaded from its text alone.`,
      node,
      "Load flows with loadFlows (or run them with the CLI), which reads check files.",
    );
    return undefined;
  }
  const got = resolve(path, ctx.file);
  if ("code" in got) {
    const before = ctx.problems.length;
    ctx.problem(got.code, got.message, node, got.hint);
    if (got.followOn && ctx.problems.length > before) ctx.problems[before].followOn = true;
    return undefined;
  }
  if (closesCycle(ctx, got.file, node, chain) || tooDeep(ctx, got.file, node, path, chain)) {
    return undefined;
  }
  const sub = subLoading(ctx, got);
  if (!sub) return undefined;
  const items = fileItems(sub);
  if (items) return { file: got.file, sub, items };
  ctx.problems.push(...sub.problems);
  return undefined;
}

/** A loading of the file for one use: its own positions and anchors; its YAML problems once read. */
function subLoading(ctx: Loading, read: CheckFileRead): Loading | undefined {
  const sub = new Loading(read.file, ctx.options);
  sub.text = read.text;
  for (const start of read.lineStarts) sub.lines.addNewLine(start);
  if (!read.doc) {
    ctx.problems.push(...read.problems);
    return undefined;
  }
  sub.doc = read.doc;
  sub.targets = read.targets ?? new Map();
  return sub;
}

/** A list of checks, or a map of `checks` and `x-` keys (which hold anchors). */
function fileItems(sub: Loading): unknown[] | undefined {
  const root = sub.doc.contents as Node | null;
  if (isSeq(root)) return root.items;
  const what = `the check file ${sub.file}`;
  // A map is a check file only with "checks"; anything else is one mistake, said once.
  if (isMap(root) && root.items.some((p) => isScalar(p.key) && p.key.value === "checks")) {
    const map = sub.map(root, what, "group", ["checks"], {
      required: ["checks"],
      ignore: (k) => k.startsWith("x-"),
    });
    const list = map?.get("checks");
    if (!list) return undefined;
    if (isSeq(list.value)) return list.value.items;
    sub.problem(
      "wrong-type",
      `Expected "checks" of ${what} to be a list of checks, got ${describe(list.value)}.`,
      list.value ?? list.keyNode,
      "For example: checks: [{path: $.title, type: string}]",
    );
    return undefined;
  }
  sub.problem(
    "wrong-type",
    `A check file holds a list of checks, but ${sub.file} holds ${describe(root)}.`,
    root,
    'Write each check as a list item, "- {path: $.title, type: string}", or a map of "checks:" (that list) and x- keys for anchors.',
  );
  return undefined;
}

/**
 * A use of a file already being read: one problem, at the use that closes
 * the cycle counted from its first file in path order, so every flow that
 * reaches the cycle reports the same one.
 */
function closesCycle(ctx: Loading, file: string, node: Node, chain: readonly ChainLink[]): boolean {
  const at = chain.findIndex((link) => link.file === file);
  if (at < 0) return false;
  const ring = chain.slice(at);
  const first = ring.reduce((a, b, i) => (b.file < ring[a].file ? i : a), 0);
  const order = [...ring.slice(first), ...ring.slice(0, first)];
  // The use that closes the cycle is the one in its last file that reads its first file.
  const closing = first === 0
    ? { sub: ctx, use: node }
    : { sub: chain[at + first - 1].sub, use: order[0].use };
  closing.sub.problem(
    "check-file-cycle",
    `Using "${(closing.use as Scalar).value}" makes a cycle of check files: ${
      [...order.map((l) => l.file), order[0].file].join(" → ")
    }.`,
    closing.use,
    "A check file cannot use itself, directly or through another: move what they share into a third file that both use.",
  );
  return true;
}

/** A chain of check files past {@linkcode MAX_CHECK_FILE_DEPTH}: one problem at the use too deep. */
function tooDeep(
  ctx: Loading,
  file: string,
  node: Node,
  path: string,
  chain: readonly ChainLink[],
): boolean {
  if (chain.length < MAX_CHECK_FILE_DEPTH) return false;
  const files = [...chain.map((l) => l.file), file];
  const shown = files.length <= 9
    ? files
    : [...files.slice(0, 4), `… ${files.length - 8} more …`, ...files.slice(-4)];
  ctx.problem(
    "check-file-too-deep",
    `Using "${path}" nests check files ${files.length} levels deep, past the limit of ${MAX_CHECK_FILE_DEPTH}: ${
      shown.join(" → ")
    }.`,
    node,
    "Flatten the chain: use the inner check files directly from a list further out.",
  );
  return true;
}

/**
 * Hands what reading a check file for one use found to the loading that
 * uses it: its problems (already positioned in the file) and its
 * expressions, which are checked with the flow's steps, in the file's positions.
 *
 * @example
 * ```ts
 * import { finishCheckFile } from "./check_file.ts";
 * import { Loading } from "./context.ts";
 * const flow = new Loading("f.yaml", {});
 * const file = new Loading("checks/a.yaml", {});
 * file.problemAt("wrong-type", "Not a list.", 0, "Write a list.");
 * finishCheckFile(flow, file);
 * if (flow.problems[0]?.file !== "checks/a.yaml") throw new Error();
 * ```
 */
export function finishCheckFile(ctx: Loading, sub: Loading): void {
  ctx.problems.push(...sub.problems);
  for (const use of sub.uses) {
    ctx.nodeFiles.set(use.node, sub.nodeFiles.get(use.node) ?? sub);
    ctx.uses.push(use);
  }
}
