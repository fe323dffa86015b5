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
import { loadAuth } from "./auth.ts";
import { loadCaptures } from "./captures.ts";
import { loadChecks } from "./checks.ts";
import { loadConditions } from "./conditions.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { FOREACH_KEYS, loadForeach, outside } from "./foreach.ts";
import { INCLUDE_KEYS, loadInclude } from "./include.ts";
import { STEP_KEYS } from "./key_hints.ts";
import { loadLoop } from "./loop.ts";
import { loadOptions } from "./options.ts";
import { loadTags } from "./tags.ts";
import { kindOfStep, loadKindCall } from "./kind_step.ts";
import type { StepKind } from "../kinds/kind.ts";

/** Keys other tools use for running another file, which flowrun spells "include". */
const INCLUDE_SPELLINGS = ["use", "import", "call", "run"];

/** A step as listed, with what the cross-step checks need. */
export type RawStep = Step & {
  index: number;
  dependsOnNode?: Node;
  nameNode?: Node;
  /** An include whose file could not be loaded: what it hands out is unknown, so uses are not checked. */
  opaque?: boolean;
};

/**
 * The `steps` list: each step, and step names unique in the flow.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow("name: f\nsteps: []\n", "f.yaml");
 * if (problems[0]?.message !== 'Expected "steps" to be a non-empty list, got an empty list.') {
 *   throw new Error(problems[0]?.message);
 * }
 * ```
 */
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

/** Whether a step map has one of the keys. */
const hasKey = (node: Node | null, keys: readonly string[]) =>
  isMap(node) && node.items.some((p) => isScalar(p.key) && keys.includes(String(p.key.value)));

/**
 * A step's map, checked against the keys of what it is: a step that
 * includes a flow or one that sends a request. Messages name the step even
 * before its map is checked.
 */
function stepMap(ctx: Loading, node: Node | null, index: number) {
  const named = isMap(node)
    ? node.items.find((p) => isScalar(p.key) && p.key.value === "name")?.value
    : undefined;
  const what = isScalar(named) && typeof named.value === "string"
    ? `step "${named.value}"`
    : `step ${index + 1}`;
  const includes = hasKey(node, ["include"]);
  // "use:" or "import:" from other tools is a misspelt include: one problem, not also "no request".
  const meantInclude = hasKey(node, INCLUDE_SPELLINGS);
  // A step's kind is the one whose key it holds ("grpc:", "request:"); HTTP's when it holds none.
  const kind = includes ? undefined : kindOfStep(node);
  const map = kind
    ? ctx.map(node, what, "step", stepKeys(kind), {
      required: meantInclude ? ["name"] : ["name", kind.key],
    })
    : ctx.map(node, what, "include", [...INCLUDE_KEYS, ...FOREACH_KEYS], {
      required: ["name", "include"],
    });
  return map && { map, what, includes, kind };
}

/** The keys a step of `kind` may hold: every step's, with its kind's key in the place of `request`. */
function stepKeys(kind: StepKind): readonly string[] {
  return STEP_KEYS.map((k) => k === "request" ? kind.key : k);
}

/** `always`: true for a cleanup step that runs even after a failure. */
function loadAlways(ctx: Loading, entry: Entry | undefined, label: string): boolean {
  if (!entry) return false;
  const v = isScalar(entry.value) ? entry.value.value : undefined;
  if (typeof v === "boolean") return v;
  ctx.problem(
    "wrong-type",
    `Expected "always" of ${label} to be true or false, got ${describe(entry.value)}.`,
    entry.value ?? entry.keyNode,
    "Write always: true for a cleanup step that runs even after a failure.",
  );
  return false;
}

/** What a step does: its include or request, captures and checks (read in this order). */
function stepAction(
  ctx: Loading,
  map: Map<string, Entry>,
  { includes, kind }: { includes: boolean; kind?: StepKind },
  label: string,
  owner: TemplateUse["owner"],
) {
  const include = includes ? loadInclude(ctx, map, label, owner) : undefined;
  const { request, call } = kind ? loadKindCall(ctx, kind, map.get(kind.key), label, owner) : {};
  const captures = loadCaptures(ctx, map.get("capture"), map.get("extract"), label, owner);
  const assertEntry = map.get("assert");
  const checks = assertEntry
    ? loadChecks(ctx, assertEntry.value, `"assert" of ${label}`, owner, kind?.statuses)
    : undefined;
  const loopEntry = map.get("loop");
  const loop = loopEntry ? loadLoop(ctx, loopEntry, label, owner, kind?.statuses) : undefined;
  return { include, request, captures, checks, loop, call };
}

/** When and how a step runs: options, tags, `depends_on`, `if` and `always` (read in this order). */
function stepSchedule(
  ctx: Loading,
  map: Map<string, Entry>,
  label: string,
  owner: TemplateUse["owner"],
) {
  const options = loadOptions(ctx, map.get("options"), label);
  const tagsEntry = map.get("tags");
  const tags = tagsEntry ? loadTags(ctx, tagsEntry) : [];
  const dependsEntry = map.get("depends_on");
  const dependsOn = dependsEntry ? loadNames(ctx, dependsEntry, `"depends_on" of ${label}`) : [];
  const ifEntry = map.get("if");
  const when = ifEntry ? loadConditions(ctx, ifEntry, `"if" of ${label}`, owner) : undefined;
  const always = loadAlways(ctx, map.get("always"), label);
  const auth = loadAuth(ctx, map.get("auth"), { what: label, owner });
  return {
    auth,
    options,
    tags,
    dependsOn,
    dependsOnNode: dependsEntry?.value ?? undefined,
    when,
    always,
  };
}

/** The keys a step has only when they say something. */
function extras(
  { always, when, include, tags, options, opaque, auth }: Pick<
    RawStep,
    "always" | "when" | "include" | "tags" | "options" | "opaque" | "auth"
  >,
): Partial<RawStep> {
  return {
    ...(always ? { always: true } : {}),
    ...(when && when.length > 0 ? { when } : {}),
    ...(include ? { include } : {}),
    ...(tags && tags.length > 0 ? { tags } : {}),
    ...(options ? { options } : {}),
    ...(opaque ? { opaque: true } : {}),
    ...(auth ? { auth } : {}),
  };
}

/**
 * One step: its name, request, captures, checks, loop and `depends_on`.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: a\n    request: {url: "http://x.test"}\n' +
 *     '  - name: b\n    request: {url: "http://x.test"}\n    depends_on: a\n    always: true\n',
 *   "f.yaml",
 * );
 * const b = flow?.steps[1];
 * if (b?.dependsOn.join() !== "a" || b.always !== true) throw new Error();
 * ```
 */
export function loadStep(
  ctx: Loading,
  node: Node | null,
  index: number,
): RawStep | undefined {
  const step = stepMap(ctx, node, index);
  if (!step) return undefined;
  const { map, what, includes, kind } = step;
  const name = ctx.string(map.get("name"), `the name of ${what}`);
  const label = name === undefined ? what : `step "${name}"`;
  const owner = { kind: "step", index } as const;
  const { include, request, captures, checks, loop, call } = stepAction(
    ctx,
    map,
    { includes, kind },
    label,
    owner,
  );
  // A GraphQL API answers 200 with an "errors" list: surface it unless the step checks it.
  const assert = request?.graphql ? withGraphqlCheck(checks, ctx.at(node)) : checks;
  // The "if" of a foreach step is evaluated once, before its list: it cannot read the element.
  const scheduled = ctx.uses.length;
  const { options, tags, dependsOn, dependsOnNode, when, always, auth } = stepSchedule(
    ctx,
    map,
    label,
    owner,
  );
  outside(ctx, scheduled);
  const foreach = loadForeach(ctx, map, label, owner, node);
  return {
    name: name ?? `#${index + 1}`,
    ...ctx.at(node),
    // A step with problems is never run; placeholders keep the cross-step checks going.
    request: request ??
      { method: kind ? kind.key.toUpperCase() : "GET", url: parseTemplate(""), headers: [] },
    ...(call ? { call } : {}),
    captures,
    dependsOn,
    assert: assert ?? { paths: [] },
    loop,
    ...extras({ always, when, include, tags, options, opaque: includes && !include, auth }),
    ...(foreach ? { foreach } : {}),
    index,
    dependsOnNode,
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

/**
 * `depends_on`: one step name or a list of them.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: a\n    request: {url: "http://x.test"}\n' +
 *     '  - name: b\n    depends_on: a\n    request: {url: "http://x.test"}\n',
 *   "f.yaml",
 * );
 * if (flow?.steps[1].dependsOn.join() !== "a") throw new Error();
 * ```
 */
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
