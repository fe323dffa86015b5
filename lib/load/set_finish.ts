/**
 * The last stages of loading a flow set, once every file is loaded:
 * schemas compiled, problems capped, and what is probably a mistake
 * (a `--var` no flow reads) warned about.
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";
import { type Flow, isDeferred } from "../model/flow.ts";
import { suggest } from "../_util/suggest.ts";
import { plural } from "../_util/plural.ts";
import { prepareSchemas } from "./schema_compile.ts";
import type { DeferredLoadResult } from "./set_types.ts";

/**
 * Problems listed for a whole flow set; past it, one `too-many-problems`
 * problem counts the rest, so a thousand generated files with a repeated
 * mistake give a report of bounded size.
 *
 * @example
 * ```ts
 * import { MAX_PROBLEMS_TOTAL } from "./set_finish.ts";
 * if (MAX_PROBLEMS_TOTAL !== 1000) throw new Error();
 * ```
 */
export const MAX_PROBLEMS_TOTAL = 1000;

/**
 * Compiles the schemas of the loaded flows (the validator is imported only
 * when a flow has one): a schema that cannot be compiled is a problem before
 * anything is sent. Deferred flows have no schema.
 *
 * @example
 * ```ts
 * import { schemaProblems } from "./set_finish.ts";
 * const none = await schemaProblems({ setup: [], flows: [], teardown: [] });
 * if (none.length !== 0) throw new Error();
 * ```
 */
export async function schemaProblems(
  result: Pick<DeferredLoadResult, "setup" | "flows" | "teardown">,
  signal?: AbortSignal,
): Promise<Problem[]> {
  const flows = [
    ...result.setup,
    ...result.flows.filter((f): f is Flow => !isDeferred(f)),
    ...result.teardown,
  ];
  return (await prepareSchemas(flows, signal)).map(({ check, message }) => ({
    code: "bad-schema",
    message: `The ${
      check.kind === "schema" ? "JSON Schema" : "OpenAPI document"
    } "${check.source}" cannot be used: ${message}.`,
    file: check.file,
    line: check.line,
    column: check.column,
    hint: check.kind === "schema"
      ? "Fix the schema: it must be valid JSON Schema (draft 2020-12)."
      : "Fix the document: its schemas must be valid JSON Schema.",
  }));
}

/**
 * The problems a flow set lists: not those another listed problem causes
 * (`followOn`: an include of a file whose own problems, or the include
 * cycle it is on, are listed where they are), the first {@linkcode MAX_PROBLEMS_TOTAL} of the rest, and
 * one that counts the others.
 *
 * @example
 * ```ts
 * import { capTotal, MAX_PROBLEMS_TOTAL } from "./set_finish.ts";
 * const p = (file: string) => ({ code: "x", message: "", hint: "", file, line: 1, column: 1 });
 * const capped = capTotal([...Array(MAX_PROBLEMS_TOTAL + 2)].map((_, i) => p(`${i}.yaml`)));
 * if (capped.length !== MAX_PROBLEMS_TOTAL + 1 || capped.at(-1)!.omitted !== 2) throw new Error();
 * if (capTotal([p("a.yaml"), { ...p("b.yaml"), followOn: true }]).length !== 1) throw new Error();
 * ```
 */
export function capTotal(all: Problem[]): Problem[] {
  all = listedOnce(all);
  const causes = all.filter((p) => !p.followOn);
  // Never none listed when there are some: a follow-on whose cause is not in the set stays.
  const problems = causes.length > 0 && causes.length < all.length ? causes : all;
  if (problems.length <= MAX_PROBLEMS_TOTAL) return problems;
  const kept = problems.slice(0, MAX_PROBLEMS_TOTAL);
  const rest = problems.slice(MAX_PROBLEMS_TOTAL);
  const omitted = rest.reduce((n, p) => n + (p.omitted ?? 1), 0);
  const files = new Set(rest.map((p) => p.file));
  const first = rest[0];
  // The counting problem is shown at the first file left out, so that file is not omitted.
  for (const p of [...kept, first]) files.delete(p.file);
  kept.push({
    code: "too-many-problems",
    message: `${omitted} more problems${
      files.size > 0 ? `, in this file and ${files.size} more,` : ""
    } are not listed (the first ${MAX_PROBLEMS_TOTAL} of the flow set are).`,
    file: first.file,
    line: first.line,
    column: first.column,
    hint: "Fix the problems listed first, or validate fewer files at once.",
    omitted,
    omittedFiles: files.size,
  });
  return kept;
}

/**
 * Each problem once: a check file several flows use gives each of them the
 * same problem, at the same place in the file, which is one mistake.
 */
function listedOnce(all: Problem[]): Problem[] {
  const seen = new Set<string>();
  const once = all.filter((p) => {
    const key = `${p.file}\0${p.line}\0${p.column}\0${p.code}\0${p.message}`;
    return !seen.has(key) && (seen.add(key), true);
  });
  return once.length === all.length ? all : once;
}

/**
 * A warning for each run parameter (`--var`) no flow reads: most often a
 * typo nobody would notice (the flow runs with its default), but pipelines
 * also pass one set of `--var` to several runs, so not a problem. `used` is
 * every name the flows can take, `flows` how many there are.
 *
 * @example
 * ```ts
 * import { unusedVars } from "./set_finish.ts";
 * const [w] = unusedVars(new Map([["uesr", "x"], ["user", "y"]]), new Set(["user"]), 1);
 * if (w.name !== "uesr" || !w.hint.startsWith("Did you mean --var user=")) throw new Error();
 * ```
 */
export function unusedVars(
  params: ReadonlyMap<string, unknown>,
  used: ReadonlySet<string>,
  flows: number,
): DeferredLoadResult["warnings"] {
  const warnings: DeferredLoadResult["warnings"] = [];
  for (const name of params.keys()) {
    if (used.has(name)) continue;
    const close = suggest(name, [...used]);
    warnings.push({
      code: "unused-var",
      name,
      message: `--var ${name} is not used by any of the ${
        plural(flows, "flow")
      } (no var, \${${name}} or \${vars.${name}}).`,
      hint: close
        ? `Did you mean --var ${close}=…? Names are case-sensitive.`
        : "Check the name against the flows' vars, or leave the option out.",
    });
  }
  return warnings;
}
