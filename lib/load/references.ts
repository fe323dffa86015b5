/**
 * The one place that knows which names a step may use: steps are put in run
 * order (`depends_on`), then every `${…}` reference is checked against the
 * vars, the steps that run before it and their captures, and the environment,
 * with "did you mean" for each.
 *
 * @module
 */
import type { RowVars } from "./row_vars.ts";
import type { Problem } from "../model/errors.ts";
import type { Expr } from "../expr/template.ts";
import type { VarDef } from "../model/flow.ts";
import { orderSteps } from "./order.ts";
import { suggest } from "../_util/suggest.ts";
import { pluralWord } from "../_util/plural.ts";
import type { Loading } from "./context.ts";
import type { TemplateUse } from "./entry.ts";
import type { RawStep } from "./steps.ts";
import { checkRef, type RefReport, type RefScope } from "./ref_checks.ts";

/**
 * The steps in run order: listed order, moved only as much as `depends_on` needs; cycles are problems.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: a\n    depends_on: b\n    request: {url: "http://x.test"}\n' +
 *     '  - name: b\n    request: {url: "http://x.test"}\n',
 *   "f.yaml",
 * );
 * if (flow?.steps.map((s) => s.name).join() !== "b,a") throw new Error();
 * ```
 */
export function orderRaw(
  ctx: Loading,
  steps: RawStep[],
): RawStep[] | undefined {
  const names = steps.map((s) => s.name);
  for (const step of steps) {
    for (const dep of step.dependsOn) {
      if (dep === step.name) {
        ctx.problem(
          "dependency-cycle",
          `Step "${step.name}" depends on itself.`,
          step.dependsOnNode,
          `Remove "${dep}" from its depends_on.`,
        );
      } else if (!names.includes(dep)) {
        const close = suggest(dep, names);
        ctx.problem(
          "unknown-step",
          `Step "${step.name}" depends on unknown step "${dep}".`,
          step.dependsOnNode,
          close
            ? `Did you mean "${close}"?`
            : `Steps in this flow: ${[...new Set(names)].join(", ")}.`,
        );
      }
    }
  }
  const result = orderSteps(
    steps.map((s) => ({ name: s.name, dependsOn: s.dependsOn.filter((d) => d !== s.name) })),
  );
  if ("cycle" in result) {
    const first = steps.find((s) => s.name === result.cycle[0]);
    ctx.problem(
      "dependency-cycle",
      `The depends_on of these steps form a cycle: ${result.cycle.join(" → ")}.`,
      first?.dependsOnNode,
      "Remove one of these dependencies so the steps can run in some order.",
    );
    return undefined;
  }
  return result.order.map((i) => steps[i]);
}

/** The setup outputs the flow reads (`${setup.NAME}`), in order of first use. */
function setupReads(ctx: Loading): string[] {
  const names = new Set<string>();
  for (const use of ctx.uses) {
    for (const part of use.template.parts) {
      if (typeof part !== "string" && part.ref.kind === "setup") names.add(part.ref.name);
    }
  }
  return [...names];
}

/** One unset name reported at its first use, and the lines of its other uses. */
type FirstUse = Map<string, { problem: Problem; lines: number[] }>;

/** What every use of the flow is checked against, and the scope of one use. */
function scopes(
  ctx: Loading,
  vars: VarDef[],
  listed: RawStep[],
  ordered: RawStep[],
  rows?: RowOrder,
) {
  const params = ctx.options.params ?? new Map<string, string>();
  const varNames = vars.map((v) => v.name);
  // With duplicate names (already reported) the first step of a name is the one referenced.
  const byName = new Map<string, RawStep>();
  for (const s of listed) if (!byName.has(s.name)) byName.set(s.name, s);
  // A flow's outputs are evaluated after its last step: every step ran before them.
  const outputs = { name: "outputs", captures: [] } as unknown as RawStep;
  const flow = {
    setup: ctx.options.setup,
    setupReads: setupReads(ctx),
    varNames,
    env: ctx.options.env ?? (() => undefined),
    checkEnv: ctx.options.checkEnv ?? true,
    rank: (s: RawStep) => s === outputs ? Infinity : ordered.indexOf(s),
    byName,
  };
  return (use: TemplateUse, report: RefReport): RefScope => {
    const user = use.owner.kind === "step"
      ? listed[use.owner.index]
      : use.owner.kind === "outputs"
      ? outputs
      : undefined;
    // A foreach step's element and index are vars of its iterations, not of its list or "if".
    const each = use.outer ? undefined : user?.foreach;
    // An inline row's value (the first vars) also reads the vars that read no column: they run first.
    const row = use.owner.kind === "var" && use.owner.index < (rows?.columns ?? 0)
      ? rows
      : undefined;
    const available = use.owner.kind === "var"
      ? [...varNames.slice(0, use.owner.index), ...(row ? rowReadable(varNames, row) : [])]
      : each
      ? [...varNames, each.as, each.index]
      : varNames;
    const known = (name: string) => available.includes(name) || params.has(name);
    const early = use.outer && user?.foreach;
    const notYet = early ? [early.as, early.index] : undefined;
    const rowOnly = row ? { rowDependent: row.dependent } : {};
    const extra = { ...rowOnly, ...(notYet ? { notYet } : {}), ...ownCapture(use) };
    return { ...flow, available, known, user, report, ...extra };
  };
}

/** For a capture's `when` or `otherwise`: the capture and those above it, which it may read. */
function ownCapture(use: TemplateUse): Pick<RefScope, "own"> {
  const own = use.owner.kind === "step" ? use.owner.capture : undefined;
  return own ? { own } : {};
}

/** How inline rows and vars are ordered (see `row_vars.ts`). */
type RowOrder = Pick<RowVars, "columns" | "dependent">;

/** The flow's vars (after the columns) that a row may read: those that read no column. */
function rowReadable(varNames: string[], rows: RowOrder): string[] {
  return varNames.slice(rows.columns).filter((name) => !rows.dependent.has(name));
}

/**
 * Reports a problem at one expression. One unset variable is one problem, reported at its
 * first use: listing every use of BASE_URL separately would bury the other problems of the file.
 */
function reporter(ctx: Loading, use: TemplateUse, part: Expr, firstUse: FirstUse): RefReport {
  return (code, message, hint, once) => {
    const seen = once === undefined ? undefined : firstUse.get(once);
    if (seen) return void seen.lines.push(ctx.at(use.node, part.offset).line);
    ctx.via = use.via ?? null;
    ctx.problem(code, message, use.node, hint, part.offset, part.text.length);
    ctx.via = undefined;
    if (once !== undefined) firstUse.set(once, { problem: ctx.problems.at(-1)!, lines: [] });
  };
}

/** Names the other lines that use a name reported once. */
function mentionOtherLines({ problem, lines }: { problem: Problem; lines: number[] }): void {
  const others = [...new Set(lines)].filter((line) => line !== problem.line);
  if (others.length === 0) return;
  problem.message = problem.message.replace(
    /\.$/,
    `; also used on ${pluralWord(others.length, "line")} ${others.slice(0, 10).join(", ")}${
      others.length > 10 ? ` and ${others.length - 10} more` : ""
    }.`,
  );
}

/**
 * Checks every `${…}` of the flow against what exists where it is used: vars defined before
 * it, steps that run before it and their captures, and the environment. Each kind of reference
 * has its check in `REF_CHECKS` (ref_checks.ts).
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   'name: f\nvars: {base: "http://x.test"}\nsteps:\n  - name: s\n    request: {url: "${vars.bsae}"}\n',
 *   "f.yaml",
 * );
 * if (problems[0]?.hint !== 'Did you mean "${vars.base}"?') throw new Error(problems[0]?.hint);
 * ```
 */
export function checkReferences(
  ctx: Loading,
  vars: VarDef[],
  listed: RawStep[],
  ordered: RawStep[],
  rows?: RowOrder,
): void {
  const scopeOf = scopes(ctx, vars, listed, ordered, rows);
  const firstUse: FirstUse = new Map();
  for (const use of ctx.uses) {
    for (const part of use.template.parts) {
      if (typeof part !== "string") {
        checkRef(part, scopeOf(use, reporter(ctx, use, part, firstUse)));
      }
    }
  }
  for (const first of firstUse.values()) mentionOtherLines(first);
}
