/**
 * A step's kind (`request:`, `grpc:`, `websocket:`, `sse:`): the loader
 * finds the kind by its key in the registry and hands it a
 * {@linkcode KindReading} over this file's loading context, so the kind's
 * problems are positioned and listed with every other, and its templates'
 * references checked like a request's.
 *
 * @module
 */
import type { Node } from "yaml";
import { isMap, isScalar } from "./nodes.ts";
import { DEFAULT_KIND, type KindReading, KINDS, type StepKind } from "../kinds/mod.ts";
import type { Step } from "../model/flow.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import { readBesideFlow } from "./flow_file.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { KEY_HINTS } from "./key_hints.ts";
import { loadRequest } from "./request.ts";

/**
 * The kind of a step map: the first of {@linkcode KINDS} whose key it
 * holds, or the default kind (HTTP's) when it holds none.
 *
 * @example
 * ```ts
 * import { kindOfStep } from "./kind_step.ts";
 * import { parseDocument } from "yaml";
 * if (kindOfStep(parseDocument("{name: s, sse: {url: x}}").contents).key !== "sse") throw new Error();
 * if (kindOfStep(parseDocument("{name: s}").contents).key !== "request") throw new Error();
 * ```
 */
export function kindOfStep(node: Node | null): StepKind {
  if (!isMap(node)) return DEFAULT_KIND;
  const keys = new Set(node.items.map((p) => isScalar(p.key) ? String(p.key.value) : ""));
  return KINDS.find((kind) => keys.has(kind.key)) ?? DEFAULT_KIND;
}

/**
 * Reads the map under a kind's key through the kind: what the step holds of
 * it ({@linkcode stepSpec}), or nothing when the key is missing (a problem
 * already) or after problems.
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
  entry: Entry | undefined,
  label: string,
  owner: TemplateUse["owner"],
): Partial<Pick<Step, "request" | "call">> {
  if (!entry) return {};
  const what = `"${kind.key}" of ${label}`;
  const node = ctx.deref(entry.value);
  // A kind whose key names a table of hints (request's) is told what other tools call its keys.
  const hints = kind.key in KEY_HINTS ? kind.key : "step";
  const map = ctx.map(node, what, hints, kind.keys, {
    required: kind.required,
    anchor: entry.keyNode,
  });
  if (!map) return {};
  const before = ctx.problems.length;
  const spec = kind.read(map, reading(ctx, owner, label), node ?? entry.keyNode);
  return spec === undefined || ctx.problems.length > before ? {} : stepSpec(kind, spec);
}

/**
 * Where a step keeps what its kind read: another kind's in `call`, with
 * its key; HTTP's (the default kind's) as the step's `request`, where
 * exports, `--tag`'s needs and library users have always read it.
 *
 * @example
 * ```ts
 * import { stepSpec } from "./kind_step.ts";
 * import { KINDS } from "../kinds/mod.ts";
 * const sse = KINDS.find((k) => k.key === "sse")!;
 * if (stepSpec(sse, { url: 1 }).call?.kind !== "sse") throw new Error();
 * ```
 */
export function stepSpec(kind: StepKind, spec: unknown): Partial<Pick<Step, "request" | "call">> {
  return kind === DEFAULT_KIND
    ? { request: spec as Step["request"] }
    : { call: { kind: kind.key, spec } };
}

/** The loading context as a kind sees it: its own owner and label bound to every template. */
function reading(ctx: Loading, owner: TemplateUse["owner"], label: string): KindReading {
  return {
    request: (map) => loadRequest(ctx, map, label, owner),
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
