/**
 * One check per kind of `${…}` reference: what it must name where it is
 * used, and the problem (with "did you mean") when it names nothing. The
 * table is keyed by every kind of {@linkcode Ref}, so a new kind of
 * reference does not compile until it says how it is checked.
 *
 * @module
 */
import type { Expr, Ref } from "../expr/template.ts";
import { suggest } from "../_util/suggest.ts";
import { pluralWord } from "../_util/plural.ts";
import { envNames } from "../io/env_names.ts";
import type { RawStep } from "./steps.ts";
import { checkOwnCapture } from "./own_capture_ref.ts";

/** Reports one problem of a reference; `once` names a problem reported at its first use only. */
export type RefReport = (code: string, message: string, hint?: string, once?: string) => void;

/** What a reference is checked against where it is used. */
export interface RefScope {
  /** The outputs of the run's setup flows, or undefined when they are not known here. */
  setup: ReadonlySet<string> | undefined;
  /** The setup outputs the flow reads, in order of first use. */
  setupReads?: readonly string[];
  /** Whether a plain name is a var defined before the use or a run parameter. */
  known: (name: string) => boolean;
  /** Every var of the flow, in order. */
  varNames: string[];
  /** The vars defined before the use. */
  available: string[];
  env: (name: string) => string | undefined;
  /** Whether unset environment variables are problems (not when validating without the run's environment). */
  checkEnv: boolean;
  /** A foreach step's element and index names, for a use evaluated before its iterations. */
  notYet?: readonly string[];
  /** For an inline data row's value: the vars it cannot read, each with the column it reads. */
  rowDependent?: ReadonlyMap<string, string>;
  /** The step (or the flow's outputs) that uses the reference; undefined for a var. */
  user?: RawStep;
  /** The position of a step in run order. */
  rank: (step: RawStep) => number;
  /** The first step of each name. */
  byName: Map<string, RawStep>;
  /** For a capture's `when` or `otherwise`: its name and the step's captures written above it. */
  own?: { name: string; above: readonly string[] };
  report: RefReport;
}

/** The check of one kind of reference. */
export type RefCheck<K extends Ref["kind"]> = (
  expr: Expr,
  ref: Extract<Ref, { kind: K }>,
  scope: RefScope,
) => void;

function checkSetup(expr: Expr, ref: { name: string }, c: RefScope): void {
  if (!c.setup || c.setup.has(ref.name)) return;
  if (c.setup.size === 0) {
    // A flow run without the setup it reads (an included file run alone): one problem that names
    // every output it needs, not one per use.
    const reads = (c.setupReads?.length ? c.setupReads : [ref.name]).map((n) => `"${n}"`);
    c.report(
      "unknown-output",
      `"${expr.text}" reads an output of the run's setup flow, but the run has none.`,
      `This flow reads the run's setup outputs (${reads.join(", ")}), so it cannot run on its ` +
        `own: run it with --setup FILE, a setup flow that declares ${
          pluralWord(reads.length, "it", "them")
        } under outputs.`,
      "\0no-setup",
    );
    return;
  }
  const close = suggest(ref.name, [...c.setup]);
  c.report(
    "unknown-output",
    `No setup flow hands out "${ref.name}" (in "${expr.text}").`,
    close
      ? `Did you mean "\${setup.${close}}"?`
      : `The setup flows hand out: ${[...c.setup].join(", ")}.`,
  );
}

function checkEnv(expr: Expr, ref: { name: string }, c: RefScope): void {
  if (!c.checkEnv || expr.fallback !== undefined || c.env(ref.name) !== undefined) return;
  // Environment names are case-sensitive: one set in another case is what was meant.
  const cased = [ref.name.toUpperCase(), ref.name.toUpperCase().replaceAll("-", "_")]
    .find((n) => n !== ref.name && c.env(n) !== undefined);
  // Only names are suggested, and listed without reading a value: reading each through the run's
  // env reader would count every variable as read (manifest env_read) and register the values of
  // secret-looking ones (PWD…) as secrets. Names from --env-file are not offered.
  const near = cased ?? suggest(ref.name, envNames());
  c.report(
    "unset-env",
    `Environment variable "${ref.name}" is not set (used in "${expr.text}").`,
    cased
      ? `Did you mean \${ENV.${cased}}? ${cased} is set; environment names are case-sensitive.`
      : near
      ? `Did you mean \${ENV.${near}}? ${near} is set.`
      : `Set it before running (export ${ref.name}=…), or give a fallback: \${ENV.${ref.name}:-value}.`,
    `env:${ref.name}`,
  );
}

/** What an inline data row's value may read (see `row_vars.ts`). */
const ROW_READS =
  "A row value may read the flow's vars that read no column, --var parameters, the " +
  "columns to its left, ${setup.…}, ${ENV.…}, ${RUN_ID}, ${TRACE_ID}, ${RANDOM.…} and ${NOW.…}.";

/** A var defined further down: reported the same for `${x}` and `${vars.x}`. Whether it was one. */
function definedLater(expr: Expr, name: string, c: RefScope): boolean {
  if (!c.varNames.includes(name)) return false;
  const column = c.rowDependent?.get(name);
  if (c.rowDependent) {
    c.report(
      "unknown-var",
      column === undefined
        ? `A data row's value reads "${name}" (in "${expr.text}"), a column to its right.`
        : `A data row cannot read var "${name}" (in "${expr.text}"): it reads the row's column ` +
          `"${column}", and rows are set before such vars.`,
      column === undefined
        ? `Columns are set left to right: write "${name}" before the column that reads it. ${ROW_READS}`
        : ROW_READS,
    );
    return true;
  }
  c.report(
    "unknown-var",
    `Var "${name}" is used before it is defined (in "${expr.text}").`,
    "Vars are evaluated in order; move it above the var that uses it.",
  );
  return true;
}

/** A foreach's element read by its list or its "if", evaluated before it exists. Whether it was one. */
function elementTooEarly(expr: Expr, name: string, c: RefScope): boolean {
  if (!c.notYet?.includes(name)) return false;
  c.report(
    "unknown-var",
    `"${expr.text}" reads the foreach element "${name}" before it exists: a foreach step's list ` +
      `and "if" are evaluated once, before its iterations.`,
    "Read the element in the step's request, captures or checks; to run over some elements " +
      "only, filter the list, e.g. $.json.items[?@.active == true].id.",
  );
  return true;
}

function checkName(expr: Expr, ref: { name: string }, c: RefScope): void {
  if (c.known(ref.name) || expr.fallback !== undefined || c.env(ref.name) !== undefined) return;
  if (elementTooEarly(expr, ref.name, c)) return;
  if (definedLater(expr, ref.name, c) || !c.checkEnv) return;
  const upper = ref.name.toUpperCase();
  const close = upper === "RUN_ID" || upper === "TRACE_ID"
    ? upper
    : suggest(ref.name, c.available) ??
      suggest(ref.name, envNames());
  // ${NOW} alone is a name (a flow may have one); the time of the run is ${NOW.UNIX} and the like.
  const time = /^now$/i.test(ref.name)
    ? "For the time of the run write ${NOW.UNIX}, ${NOW.UNIX_MS}, ${NOW.ISO} or ${NOW.DATE}. "
    : "";
  c.report(
    "unknown-name",
    `"${ref.name}" is not a flow var, run parameter or environment variable (in "${expr.text}").`,
    time +
      (close
        ? `Did you mean "\${${close}}"?`
        : `Define it under vars, pass --var ${ref.name}=…, set the environment variable, or give a fallback: \${${ref.name}:-value}.`),
    `name:${ref.name}`,
  );
}

function checkVar(expr: Expr, ref: { name: string }, c: RefScope): void {
  if (c.known(ref.name) || elementTooEarly(expr, ref.name, c) || definedLater(expr, ref.name, c)) {
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
}

/** The step a `${steps.NAME.…}` names, if it exists and runs before its user. */
function earlierStep(
  expr: Expr,
  ref: { step: string },
  c: RefScope,
  user: RawStep,
): RawStep | undefined {
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
  } else if (target === user) {
    c.report(
      "later-step",
      `Step "${ref.step}" uses its own captured value in "${expr.text}".`,
      "Values are captured after the response arrives; use them in a later step.",
    );
  } else if (c.rank(target) > c.rank(user)) {
    c.report(
      "later-step",
      `Step "${user.name}" uses "${expr.text}", but step "${ref.step}" runs after it.`,
      `List "${ref.step}" first, or add depends_on: [${ref.step}] to step "${user.name}".`,
    );
  } else return target;
  return undefined;
}

function checkIncludeOutput(
  expr: Expr,
  ref: { step: string; key: string },
  include: NonNullable<RawStep["include"]>,
  captures: RawStep["captures"],
  c: RefScope,
): void {
  const { file, flow } = include;
  const names = (flow.outputs ?? []).map((o) => o.name);
  // The include step's own captures are read the same way as the outputs.
  const own = captures.map((cap) => cap.name);
  if (names.includes(ref.key) || own.includes(ref.key)) return;
  const close = suggest(ref.key, [...names, ...own]);
  c.report(
    "unknown-output",
    `Step "${ref.step}" includes ${file}, which hands out no output "${ref.key}" (in "${expr.text}")${
      own.length ? ", and the step captures none of that name" : ""
    }.`,
    close
      ? `Did you mean "${close}"?`
      : names.length || own.length
      ? `It hands out: ${[...names, ...own].join(", ")}.`
      : `Declare it in ${file}: outputs: {${ref.key}: "\${steps.STEP.${ref.key}}"}, or capture it on step "${ref.step}": capture: {${ref.key}: $.json.${ref.key}}.`,
  );
}

function checkCapture(
  expr: Expr,
  ref: { step: string; key: string },
  target: RawStep,
  c: RefScope,
): void {
  if (target.captures.some((cap) => cap.name === ref.key)) return;
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

function checkStep(expr: Expr, ref: { step: string; key: string }, c: RefScope): void {
  if (!c.user) {
    return c.report(
      "step-in-var",
      `Vars cannot use step values ("${expr.text}"): vars are evaluated before any step runs.`,
      "Use the expression directly in the step that needs it.",
    );
  }
  if (c.own && c.byName.get(ref.step) === c.user) return checkOwnCapture(expr, ref, c.user, c);
  const target = earlierStep(expr, ref, c, c.user);
  if (!target || target.opaque) return;
  if (target.include) checkIncludeOutput(expr, ref, target.include, target.captures, c);
  else checkCapture(expr, ref, target, c);
}

/** Generated values (random, the time, run and trace ids) always exist. */
const nothing = (): void => {};

/**
 * The check of each kind of reference.
 *
 * @example
 * ```ts
 * import { REF_CHECKS, type RefScope } from "./ref_checks.ts";
 * const codes: string[] = [];
 * const scope: RefScope = {
 *   setup: undefined,
 *   known: () => false,
 *   varNames: [],
 *   available: ["base"],
 *   env: () => undefined,
 *   checkEnv: true,
 *   rank: () => 0,
 *   byName: new Map(),
 *   report: (code) => void codes.push(code),
 * };
 * const ref = { kind: "var", name: "bsae" } as const;
 * REF_CHECKS.var({ ref, text: "${vars.bsae}", offset: 0 }, ref, scope);
 * if (codes.join() !== "unknown-var") throw new Error(codes.join());
 * ```
 */
export const REF_CHECKS: { readonly [K in Ref["kind"]]: RefCheck<K> } = {
  setup: checkSetup,
  env: checkEnv,
  name: checkName,
  var: checkVar,
  step: checkStep,
  "random-uuid": nothing,
  "random-hex": nothing,
  "random-alpha": nothing,
  "random-upper": nothing,
  "random-digits": nothing,
  "random-bool": nothing,
  "random-password": nothing,
  now: nothing,
  "run-id": nothing,
  "trace-id": nothing,
};

/**
 * Checks one reference where it is used.
 *
 * @example
 * ```ts
 * import { checkRef, type RefScope } from "./ref_checks.ts";
 * const hints: (string | undefined)[] = [];
 * const scope: RefScope = {
 *   setup: undefined,
 *   known: () => false,
 *   varNames: [],
 *   available: [],
 *   env: (name) => name === "TOKEN" ? "x" : undefined,
 *   checkEnv: true,
 *   rank: () => 0,
 *   byName: new Map(),
 *   report: (_code, _message, hint) => void hints.push(hint),
 * };
 * checkRef({ ref: { kind: "env", name: "token" }, text: "${ENV.token}", offset: 0 }, scope);
 * if (!hints[0]?.startsWith("Did you mean ${ENV.TOKEN}?")) throw new Error(String(hints[0]));
 * ```
 */
export function checkRef(expr: Expr, scope: RefScope): void {
  (REF_CHECKS[expr.ref.kind] as RefCheck<Ref["kind"]>)(expr, expr.ref, scope);
}
