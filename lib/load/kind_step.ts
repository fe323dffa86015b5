/**
 * A step of another kind (`grpc:`, `websocket:`, `sse:`): the loader finds
 * the kind by its key and hands it a {@linkcode KindReading} over this
 * file's loading context, so the kind's problems are positioned and listed
 * with every other, and its templates' references checked like a request's.
 *
 * @module
 */
import type { Node } from "yaml";
import { isMap, isScalar } from "./nodes.ts";
import { type KindReading, KINDS, type StepKind } from "../kinds/mod.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import { readBesideFlow } from "./flow_file.ts";
import type { Entry, TemplateUse } from "./entry.ts";

/**
 * The kind of a step map: the first of {@linkcode KINDS} whose key it holds.
 *
 * @example
 * ```ts
 * import { kindOfStep } from "./kind_step.ts";
 * import { parseDocument } from "yaml";
 * if (kindOfStep(parseDocument("{name: s, request: {url: x}}").contents) !== undefined) throw new Error();
 * ```
 */
export function kindOfStep(node: Node | null): StepKind | undefined {
  if (!isMap(node)) return undefined;
  const keys = new Set(node.items.map((p) => isScalar(p.key) ? String(p.key.value) : ""));
  return KINDS.find((kind) => keys.has(kind.key));
}

/**
 * Reads the map under a kind's key through the kind: its call, or
 * `undefined` after problems.
 *
 * @example
 * ```ts
 * import { loadKindCall } from "./kind_step.ts";
 * if (typeof loadKindCall !== "function") throw new Error();
 * ```
 */
export function loadKindCall(
  ctx: Loading,
  kind: StepKind,
  entry: Entry,
  label: string,
  owner: TemplateUse["owner"],
): { kind: string; spec: unknown } | undefined {
  const what = `"${kind.key}" of ${label}`;
  const node = ctx.deref(entry.value);
  const map = ctx.map(node, what, "step", kind.keys, {
    required: kind.required,
    anchor: entry.keyNode,
  });
  if (!map) return undefined;
  const before = ctx.problems.length;
  const spec = kind.read(map, reading(ctx, owner), node ?? entry.keyNode);
  return spec === undefined || ctx.problems.length > before ? undefined : { kind: kind.key, spec };
}

/** The loading context as a kind sees it: its own owner bound to every template. */
function reading(ctx: Loading, owner: TemplateUse["owner"]): KindReading {
  return {
    file: ctx.file,
    problem: (code, message, node, hint) => ctx.problem(code, message, node, hint),
    map: (node, what, allowed, required) =>
      ctx.map(ctx.deref(node), what, "step", allowed, { required }),
    value: (node) => ctx.value(ctx.deref(node), owner),
    template: (node, what) => {
      const n = ctx.deref(node);
      if (isScalar(n) && typeof n.value === "string") return ctx.template(n, owner);
      ctx.problem(
        "wrong-type",
        `Expected ${what} to be a string, got ${describe(n)}.`,
        n,
        `Write it in quotes: "text".`,
      );
      return undefined;
    },
    string: (entry, what) => ctx.string(entry, what),
    integer: (entry, what, min, max) => ctx.integer(entry, what, min, max),
    duration: (entry, what, min, max) => ctx.duration(entry, what, min, max),
    readFile: (node, what) => flowRelativeFile(ctx, ctx.deref(node), what),
    plain: (node) => ctx.deref(node)?.toJSON() ?? null,
  };
}

/** A file named relative to the flow file, when it can be read: its resolved path and text. */
function flowRelativeFile(
  ctx: Loading,
  node: Node | null,
  what: string,
): { path: string; text: string } | undefined {
  if (!isScalar(node) || typeof node.value !== "string" || node.value === "") {
    ctx.problem(
      "wrong-type",
      `Expected ${what} to be a file path, got ${describe(node)}.`,
      node,
      "Write the path relative to the flow file.",
    );
    return undefined;
  }
  const path = node.value;
  const bytes = readBesideFlow(ctx, node, path, what, "reads");
  if (!bytes) return undefined;
  return { path: resolvedPath(path, ctx.file), text: new TextDecoder().decode(bytes) };
}

/** `path` relative to the folder of `file`, as the loader's `readFile` resolves it. */
function resolvedPath(path: string, file: string): string {
  if (path.startsWith("/")) return path;
  const slash = file.lastIndexOf("/");
  return slash < 0 ? path : `${file.slice(0, slash + 1)}${path}`;
}
