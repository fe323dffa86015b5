/**
 * A flow of one step named `s` (GET http://x.test) with extra step lines,
 * loaded from its text: the fixture of the load stage's section tests.
 *
 * @module
 */
import { loadFlow, type LoadResult } from "../../lib/load/load_flow.ts";
import type { LoadOptions } from "../../lib/load/load_options.ts";
import type { Step } from "../../lib/model/flow.ts";
// Flows with any YAML or JSONPath load synchronously: the full parser and engine are loaded first.
import "./engines.ts";

/** The flow text: `lines` are step keys written at the step's indentation (4 spaces), one per line. */
export function stepFlowText(lines: string[] = [], request = '{url: "http://x.test"}'): string {
  return `name: f\nsteps:\n  - name: s\n    request: ${request}\n` +
    lines.map((l) => `    ${l}\n`).join("");
}

/** The flow of one step with `lines` added, loaded. */
export function loadStepFlow(lines: string[] = [], options: LoadOptions = {}): LoadResult {
  return loadFlow(stepFlowText(lines), "t.yaml", options);
}

/** The step `s`, which must load without problems. */
export function stepOf(lines: string[] = [], options: LoadOptions = {}): Step {
  const { flow, problems } = loadStepFlow(lines, options);
  if (!flow) throw new Error(problems.map((p) => `${p.code}: ${p.message}`).join("\n"));
  return flow.steps[0];
}

/** The problem codes of the flow with `lines` added. */
export function codesOf(lines: string[] = [], options: LoadOptions = {}): string[] {
  return loadStepFlow(lines, options).problems.map((p) => p.code);
}
