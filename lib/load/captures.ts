/**
 * A step's `capture` (spelling A) and `extract` (spelling B): names and
 * their sources, a JSONPath or `{path, first}`, `{header}`, `{cookie}`,
 * `{regex}`, `{xpath}` (each source read in capture_source.ts).
 *
 * @module
 */
import { isMap } from "./nodes.ts";
import type { Capture } from "../model/flow.ts";
import type { PathRoot } from "../expr/path.ts";
import type { Loading } from "./context.ts";
import { describe, isEmpty } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { isName, nameHint } from "../model/names.ts";
import { captureSource, pathSource } from "./capture_source.ts";
import { CAPTURE_SOURCES } from "../model/checks.ts";
import { STEP_KEYS } from "./key_hints.ts";

/** A capture's name: one that can be referenced, once per step. Whether it is. */
function goodName(ctx: Loading, e: Entry, label: string, seen: Set<string>): boolean {
  if (!isName(e.key)) {
    ctx.problem(
      "bad-name",
      `Capture name "${e.key}" cannot be referenced.`,
      e.keyNode,
      nameHint("order_id"),
    );
    return false;
  }
  if (seen.has(e.key)) {
    ctx.problem(
      "duplicate-capture",
      `${label} captures "${e.key}" twice.`,
      e.keyNode,
      "Give each captured value its own name.",
    );
    return false;
  }
  seen.add(e.key);
  return true;
}

/**
 * Whether `e` is a key of the step indented under `capture` (`assert:` one
 * indent too deep reads as a capture named "assert"): one problem at it whose
 * hint is the indent that makes it the step's, then nothing more about it.
 */
function stepKeyHere(ctx: Loading, e: Entry, block: Entry, label: string): boolean {
  const isStepKey = (STEP_KEYS as readonly string[]).includes(e.key) && e.key !== "name";
  if (
    !isStepKey || !isMap(e.value) ||
    ctx.entries(e.value).some((x) => (CAPTURE_SOURCES as readonly string[]).includes(x.key))
  ) return false;
  const { line, column } = ctx.at(block.keyNode);
  ctx.problem(
    "unknown-key",
    `"${e.key}" is a key of ${label}, but it is indented under "${block.key}", which reads it as a capture.`,
    e.keyNode,
    `Indent "${e.key}:" ${column - 1} spaces, like "${block.key}:" on line ${line}.`,
  );
  return true;
}

/** One block (`capture` or `extract`): a map of names to sources, its paths at `root`. */
interface Block {
  entry: Entry | undefined;
  root: PathRoot;
  key: "capture" | "extract";
}

/** The captures of one block, added to `out`. */
function blockCaptures(
  ctx: Loading,
  { entry, root, key }: Block,
  label: string,
  owner: TemplateUse["owner"] | undefined,
  seen: Set<string>,
  out: Capture[],
): void {
  if (!entry || isEmpty(entry.value)) return;
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
    return;
  }
  for (const e of ctx.entries(entry.value)) {
    if (stepKeyHere(ctx, e, entry, label)) continue;
    if (!goodName(ctx, e, label, seen)) continue;
    const what = `capture "${e.key}" of ${label}`;
    // Its `when` and `otherwise` may read the captures above it: they are taken first.
    const own = owner?.kind === "step"
      ? { ...owner, capture: { name: e.key, above: out.map((c) => c.name) } }
      : owner;
    const from = isMap(e.value)
      ? captureSource(ctx, e.value, root, what, owner, own)
      : pathSource(ctx, e.value, root, what, false, owner);
    const at = ctx.at(e.keyNode);
    // A capture whose source has a problem still names a value: uses of it are not mistakes too.
    // (A flow with problems never runs, so the placeholder is never read.)
    const source = from ?? { kind: "header", name: "" };
    out.push({ name: e.key, from: source, line: at.line, column: at.column });
  }
}

/**
 * The captures of a step: `capture` (paths at the response) and `extract` (paths at the body), each name once.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    capture: {id: $.json.id}\n    extract: {id: $.id}\n",
 *   "f.yaml",
 * );
 * if (problems[0]?.code !== "duplicate-capture") throw new Error(problems[0]?.code);
 * ```
 */
export function loadCaptures(
  ctx: Loading,
  capture: Entry | undefined,
  extract: Entry | undefined,
  label: string,
  owner?: TemplateUse["owner"],
): Capture[] {
  const out: Capture[] = [];
  const seen = new Set<string>();
  blockCaptures(ctx, { entry: capture, root: "response", key: "capture" }, label, owner, seen, out);
  blockCaptures(ctx, { entry: extract, root: "body", key: "extract" }, label, owner, seen, out);
  return out;
}
