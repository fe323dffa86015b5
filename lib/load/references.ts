/**
 * The one place that knows which names a step may use: steps are put in run
 * order (`depends_on`), then every `${…}` reference is checked against the
 * vars, the steps that run before it and their captures, and the environment,
 * with "did you mean" for each.
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";
import type { Expr } from "../expr/template.ts";
import type { VarDef } from "../model/flow.ts";
import { orderSteps } from "./order.ts";
import { suggest } from "../_util/suggest.ts";
import type { Loading } from "./context.ts";
import type { RawStep } from "./steps.ts";

/** The steps in run order: listed order, moved only as much as `depends_on` needs; cycles are problems. */
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

/** Checks every `${…}` of the flow against what exists where it is used: vars defined before it, steps that run before it and their captures, and the environment. */
export function checkReferences(
  ctx: Loading,
  vars: VarDef[],
  listed: RawStep[],
  ordered: RawStep[],
): void {
  const params = ctx.options.params ?? new Map<string, string>();
  const env = ctx.options.env ?? (() => undefined);
  const checkEnv = ctx.options.checkEnv ?? true;
  const varNames = vars.map((v) => v.name);
  // With duplicate names (already reported) the first step of a name is the one referenced.
  const byName = new Map<string, RawStep>();
  for (const s of listed) if (!byName.has(s.name)) byName.set(s.name, s);
  // A flow's outputs are evaluated after its last step: every step ran before them.
  const outputs = { name: "outputs", captures: [] } as unknown as RawStep;
  const rank = (s: RawStep) => s === outputs ? Infinity : ordered.indexOf(s);
  // One unset variable is one problem, reported at its first use: listing every use
  // of BASE_URL separately would bury the other problems of the file.
  const firstUse = new Map<string, { problem: Problem; lines: number[] }>();
  for (const use of ctx.uses) {
    const available = use.owner.kind === "var" ? varNames.slice(0, use.owner.index) : varNames;
    const known = (name: string) => available.includes(name) || params.has(name);
    const user = use.owner.kind === "step"
      ? listed[use.owner.index]
      : use.owner.kind === "outputs"
      ? outputs
      : undefined;
    for (const part of use.template.parts) {
      if (typeof part === "string") continue;
      const report = (code: string, message: string, hint?: string, once?: string) => {
        const seen = once === undefined ? undefined : firstUse.get(once);
        if (seen) return void seen.lines.push(ctx.at(use.node, part.offset).line);
        ctx.via = use.via ?? null;
        ctx.problem(code, message, use.node, hint, part.offset, part.text.length);
        ctx.via = undefined;
        if (once !== undefined) firstUse.set(once, { problem: ctx.problems.at(-1)!, lines: [] });
      };
      checkRef(part, {
        setup: ctx.options.setup,
        known,
        varNames,
        available,
        env,
        checkEnv,
        user,
        rank,
        byName,
        report,
      });
    }
  }
  for (const { problem, lines } of firstUse.values()) {
    const others = [...new Set(lines)].filter((line) => line !== problem.line);
    if (others.length > 0) {
      problem.message = problem.message.replace(
        /\.$/,
        `; also used on line${others.length === 1 ? "" : "s"} ${others.slice(0, 10).join(", ")}${
          others.length > 10 ? ` and ${others.length - 10} more` : ""
        }.`,
      );
    }
  }
}

function checkRef(
  expr: Expr,
  c: {
    setup: ReadonlySet<string> | undefined;
    known: (name: string) => boolean;
    varNames: string[];
    available: string[];
    env: (name: string) => string | undefined;
    checkEnv: boolean;
    user?: RawStep;
    rank: (step: RawStep) => number;
    byName: Map<string, RawStep>;
    report: (code: string, message: string, hint?: string, once?: string) => void;
  },
): void {
  const ref = expr.ref;
  switch (ref.kind) {
    case "setup":
      if (c.setup && !c.setup.has(ref.name)) {
        const close = suggest(ref.name, [...c.setup]);
        c.report(
          "unknown-output",
          c.setup.size === 0
            ? `"${expr.text}" reads an output of the run's setup flow, but the run has none.`
            : `No setup flow hands out "${ref.name}" (in "${expr.text}").`,
          c.setup.size === 0
            ? "Run with --setup FILE, a flow that declares it under outputs."
            : close
            ? `Did you mean "\${setup.${close}}"?`
            : `The setup flows hand out: ${[...c.setup].join(", ")}.`,
        );
      }
      return;
    case "env":
      if (c.checkEnv && expr.fallback === undefined && c.env(ref.name) === undefined) {
        // Environment names are case-sensitive: one set in another case is what was meant.
        const cased = [ref.name.toUpperCase(), ref.name.toUpperCase().replaceAll("-", "_")]
          .find((n) => n !== ref.name && c.env(n) !== undefined);
        c.report(
          "unset-env",
          `Environment variable "${ref.name}" is not set (used in "${expr.text}").`,
          cased
            ? `Did you mean \${ENV.${cased}}? ${cased} is set; environment names are case-sensitive.`
            : `Set it before running (export ${ref.name}=…), or give a fallback: \${ENV.${ref.name}:-value}.`,
          `env:${ref.name}`,
        );
      }
      return;
    case "name": {
      if (c.known(ref.name) || expr.fallback !== undefined || c.env(ref.name) !== undefined) {
        return;
      }
      if (c.varNames.includes(ref.name)) {
        c.report(
          "unknown-var",
          `Var "${ref.name}" is used before it is defined (in "${expr.text}").`,
          "Vars are evaluated in order; move it above the var that uses it.",
        );
      } else if (c.checkEnv) {
        const upper = ref.name.toUpperCase();
        const close = upper === "RUN_ID" || upper === "TRACE_ID"
          ? upper
          : suggest(ref.name, c.available);
        c.report(
          "unknown-name",
          `"${ref.name}" is not a flow var, run parameter or environment variable (in "${expr.text}").`,
          close
            ? `Did you mean "\${${close}}"?`
            : `Define it under vars, pass --var ${ref.name}=…, set the environment variable, or give a fallback: \${${ref.name}:-value}.`,
          `name:${ref.name}`,
        );
      }
      return;
    }
    case "var": {
      if (c.known(ref.name)) return;
      if (c.varNames.includes(ref.name)) {
        c.report(
          "unknown-var",
          `Var "${ref.name}" is used before it is defined (in "${expr.text}").`,
          "Vars are evaluated in order; move it above the var that uses it.",
        );
        return;
      }
      const close = suggest(ref.name, c.available);
      c.report(
        "unknown-var",
        `Unknown var "${ref.name}" in "${expr.text}".`,
        close
          ? `Did you mean "\${vars.${close}}"?`
          : `Define it under "vars:" or pass --var ${ref.name}=….`,
      );
      return;
    }
    case "step": {
      if (!c.user) {
        c.report(
          "step-in-var",
          `Vars cannot use step values ("${expr.text}"): vars are evaluated before any step runs.`,
          "Use the expression directly in the step that needs it.",
        );
        return;
      }
      const target = c.byName.get(ref.step);
      if (!target) {
        const close = suggest(ref.step, c.byName.keys());
        c.report(
          "unknown-step",
          `Unknown step "${ref.step}" in "${expr.text}".`,
          close
            ? `Did you mean "${close}"?`
            : `Steps in this flow: ${[...c.byName.keys()].join(", ")}.`,
        );
        return;
      }
      if (target === c.user) {
        c.report(
          "later-step",
          `Step "${ref.step}" uses its own captured value in "${expr.text}".`,
          "Values are captured after the response arrives; use them in a later step.",
        );
        return;
      }
      if (c.rank(target) > c.rank(c.user)) {
        c.report(
          "later-step",
          `Step "${c.user.name}" uses "${expr.text}", but step "${ref.step}" runs after it.`,
          `List "${ref.step}" first, or add depends_on: [${ref.step}] to step "${c.user.name}".`,
        );
        return;
      }
      if (target.opaque) return;
      if (target.include) {
        const { file, flow } = target.include;
        const names = (flow.outputs ?? []).map((o) => o.name);
        if (names.includes(ref.key)) return;
        const close = suggest(ref.key, names);
        c.report(
          "unknown-output",
          `Step "${ref.step}" includes ${file}, which hands out no output "${ref.key}" (in "${expr.text}").`,
          close
            ? `Did you mean "${close}"?`
            : names.length
            ? `It hands out: ${names.join(", ")}.`
            : `Declare it in ${file}: outputs: {${ref.key}: "\${steps.STEP.${ref.key}}"}.`,
        );
        return;
      }
      if (!target.captures.some((cap) => cap.name === ref.key)) {
        const names = target.captures.map((cap) => cap.name);
        const close = suggest(ref.key, names);
        c.report(
          "unknown-capture",
          `Step "${ref.step}" captures no value "${ref.key}" (in "${expr.text}").`,
          close
            ? `Did you mean "${close}"?`
            : names.length
            ? `It captures: ${names.join(", ")}.`
            : `Add it to step "${ref.step}", e.g. capture: {${ref.key}: $.json.${ref.key}}.`,
        );
      }
      return;
    }
    default:
      return;
  }
}
