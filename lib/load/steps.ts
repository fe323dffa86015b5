/**
 * The `steps` list and each step: its name, request, captures, checks, loop
 * and `depends_on`.
 *
 * @module
 */
import type { Node } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import { parseTemplate } from "../expr/template.ts";
import type { Checks, PathCheck, Step } from "../model/flow.ts";
import { compilePath } from "../expr/path.ts";
import { loadCaptures } from "./captures.ts";
import { loadChecks } from "./checks.ts";
import { loadConditions } from "./conditions.ts";
import { describe, type Entry, type Loading } from "./context.ts";
import { INCLUDE_KEYS, loadInclude } from "./include.ts";
import { loadLoop } from "./loop.ts";
import { loadOptions } from "./options.ts";
import { loadRequest } from "./request.ts";
import { loadTags } from "./tags.ts";

/** Keys other tools use for running another file, which flowrun spells "include". */
const INCLUDE_SPELLINGS = ["use", "import", "call", "run"];

/** The keys a step that sends a request may have. */
const STEP_KEYS = [
  "name",
  "request",
  "capture",
  "extract",
  "depends_on",
  "assert",
  "loop",
  "always",
  "if",
  "tags",
  "options",
];

/** A step as listed, with what the cross-step checks need. */
export type RawStep = Step & {
  index: number;
  dependsOnNode?: Node;
  nameNode?: Node;
  /** An include whose file could not be loaded: what it hands out is unknown, so uses are not checked. */
  opaque?: boolean;
};

/** The `steps` list: each step, and step names unique in the flow. */
export function loadSteps(
  ctx: Loading,
  entry: Entry | undefined,
): RawStep[] | undefined {
  if (!entry) return undefined;
  const node = entry.value;
  if (!isSeq(node) || node.items.length === 0) {
    ctx.problem(
      "wrong-type",
      `Expected "steps" to be a non-empty list, got ${describe(node)}.`,
      node ?? entry.keyNode,
      'Write each step as a list item: "- name: login".',
    );
    return undefined;
  }
  const steps: RawStep[] = [];
  const first = new Map<string, RawStep>();
  node.items.forEach((item, index) => {
    const step = loadStep(ctx, ctx.deref(item), index);
    if (!step) return;
    const earlier = first.get(step.name);
    if (earlier && step.nameNode) {
      ctx.problem(
        "duplicate-step",
        `Duplicate step name "${step.name}".`,
        step.nameNode,
        `Step names must be unique in a flow; the first "${step.name}" is at line ${earlier.line}.`,
      );
    } else if (step.nameNode) first.set(step.name, step);
    steps.push(step);
  });
  return steps;
}

/** One step: its name, request, captures, checks, loop and `depends_on`. */
export function loadStep(
  ctx: Loading,
  node: Node | null,
  index: number,
): RawStep | undefined {
  // Name the step in messages about its other keys, even before its map is checked.
  const named = isMap(node)
    ? node.items.find((p) => isScalar(p.key) && p.key.value === "name")?.value
    : undefined;
  const what = isScalar(named) && typeof named.value === "string"
    ? `step "${named.value}"`
    : `step ${index + 1}`;
  // A step either sends a request or includes a flow; its keys follow from which.
  const includes = isMap(node) &&
    node.items.some((p) => isScalar(p.key) && p.key.value === "include");
  // "use:" or "import:" from other tools is a misspelt include: one problem, not also "no request".
  const meantInclude = isMap(node) &&
    node.items.some((p) => isScalar(p.key) && INCLUDE_SPELLINGS.includes(String(p.key.value)));
  const map = includes
    ? ctx.map(node, what, "include", INCLUDE_KEYS, { required: ["name", "include"] })
    : ctx.map(node, what, "step", STEP_KEYS, {
      required: meantInclude ? ["name"] : ["name", "request"],
    });
  if (!map) return undefined;
  const name = ctx.string(map.get("name"), `the name of ${what}`);
  const label = name === undefined ? what : `step "${name}"`;
  const owner = { kind: "step", index } as const;
  const include = includes ? loadInclude(ctx, map, label, owner) : undefined;
  const request = includes ? undefined : loadRequest(ctx, map.get("request"), label, owner);
  const captures = loadCaptures(ctx, map.get("capture"), map.get("extract"), label, owner);
  const assertEntry = map.get("assert");
  const checks = assertEntry
    ? loadChecks(ctx, assertEntry.value, `"assert" of ${label}`, owner)
    : undefined;
  // A GraphQL API answers 200 with an "errors" list: surface it unless the step checks it.
  const assert = request?.graphql ? withGraphqlCheck(checks, ctx.at(node)) : checks;
  const loopEntry = map.get("loop");
  const loop = loopEntry ? loadLoop(ctx, loopEntry, label, owner) : undefined;
  const options = loadOptions(ctx, map.get("options"), label);
  const tagsEntry = map.get("tags");
  const tags = tagsEntry ? loadTags(ctx, tagsEntry) : [];
  const dependsEntry = map.get("depends_on");
  const dependsOn = dependsEntry ? loadNames(ctx, dependsEntry, `"depends_on" of ${label}`) : [];
  const ifEntry = map.get("if");
  const when = ifEntry ? loadConditions(ctx, ifEntry, `"if" of ${label}`, owner) : undefined;
  const alwaysEntry = map.get("always");
  let always = false;
  if (alwaysEntry) {
    const v = isScalar(alwaysEntry.value) ? alwaysEntry.value.value : undefined;
    if (typeof v === "boolean") always = v;
    else {
      ctx.problem(
        "wrong-type",
        `Expected "always" of ${label} to be true or false, got ${describe(alwaysEntry.value)}.`,
        alwaysEntry.value ?? alwaysEntry.keyNode,
        "Write always: true for a cleanup step that runs even after a failure.",
      );
    }
  }
  return {
    name: name ?? `#${index + 1}`,
    ...ctx.at(node),
    // A step with problems is never run; placeholders keep the cross-step checks going.
    request: request ?? { method: "GET", url: parseTemplate(""), headers: [] },
    captures,
    dependsOn,
    assert: assert ?? { paths: [] },
    loop,
    ...(always ? { always: true } : {}),
    ...(when && when.length > 0 ? { when } : {}),
    ...(include ? { include } : {}),
    ...(tags.length > 0 ? { tags } : {}),
    ...(options ? { options } : {}),
    ...(includes && !include ? { opaque: true } : {}),
    index,
    dependsOnNode: dependsEntry?.value ?? undefined,
    nameNode: name === undefined ? undefined : map.get("name")!.value!,
  };
}

/** A GraphQL step's checks, with "no errors" added unless a check reads `errors` already. */
function withGraphqlCheck(
  checks: Checks | undefined,
  at: { line: number; column: number },
): Checks {
  const own = checks ?? { paths: [] };
  if (own.paths.some((c) => /\berrors\b/.test(c.path.source))) return own;
  const check: PathCheck = {
    path: compilePath("$.json.errors", "response"),
    operator: "exists",
    expected: { kind: "const", value: false },
    name: "no GraphQL errors",
    ...at,
  };
  return { ...own, paths: [check, ...own.paths] };
}

/** `depends_on`: one step name or a list of them. */
export function loadNames(
  ctx: Loading,
  entry: Entry,
  what: string,
): string[] {
  const node = entry.value;
  if (isScalar(node) && typeof node.value === "string") return [node.value];
  if (isSeq(node)) {
    const names: string[] = [];
    for (const item of node.items) {
      const n = ctx.deref(item);
      if (isScalar(n) && typeof n.value === "string") names.push(n.value);
      else {ctx.problem(
          "wrong-type",
          `Expected ${what} to list step names, got ${describe(n)}.`,
          n,
        );}
    }
    return names;
  }
  ctx.problem(
    "wrong-type",
    `Expected ${what} to be a list of step names, got ${describe(node)}.`,
    node ?? entry.keyNode,
    "For example: depends_on: [login]",
  );
  return [];
}

// ---- cross-step checks
