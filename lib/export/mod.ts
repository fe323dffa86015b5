/**
 * The export stage (`flowrun export artillery`): loaded flows handed to a
 * load engine that runs them on many machines, rather than a load
 * generator of flowrun's own. Pure: it takes checked flows and gives the
 * files' text; the CLI reads the flows and writes the files.
 *
 * One concept per file: `script.ts` assembles the test (config, phases
 * from `phases.ts`, the processor file from `processor.ts` with the hooks
 * of `processor_checks.ts`); `scenario.ts` a flow, `step.ts` a step,
 * `request.ts` its request (`url.ts` its URL, `files.ts` what it uploads),
 * `captures.ts` and `expect.ts` its captures and checks (over
 * `response_path.ts`), `condition.ts` its `if:`, `poll.ts` its `loop:`,
 * `foreach.ts` its `foreach`, `include.ts` an include step (`flow_item.ts`
 * the items they share); `template.ts` and `js_value.ts` turn flow
 * expressions into Artillery templates and processor code; `scope.ts`
 * holds what an export gathers.
 *
 * @module
 */
export {
  type ArtilleryExport,
  exportArtillery,
  type ExportOptions,
  SCRIPT_FILE,
} from "./script.ts";
export { DEFAULT_PHASE, type LoadOptionText, type Phase, phaseOf } from "./phases.ts";
export { PROCESSOR_FILE } from "./processor.ts";
export type { ExportNetwork, Note } from "./scope.ts";
