/**
 * The setup and teardown flows of a set (`--setup`, `--teardown`): loaded
 * first, in the order given, never sharded or filtered out. The outputs the
 * setup flows hand out are what `${setup.NAME}` may read in every other
 * flow.
 *
 * @module
 */
import type { Flow } from "../model/flow.ts";
import { FlowFiles } from "./expand_includes.ts";
import { withEngines } from "./engines.ts";
import { addIncludes } from "./set_includes.ts";
import { readFlowFile } from "./set_read.ts";
import type { LoadFlowsOptions, SetLoad } from "./set_types.ts";

/**
 * Loads the setup flows, then the teardown flows (which may read the setup
 * flows' outputs), into the set; the names the setup flows hand out (undefined when one did not load).
 *
 * @example
 * ```ts
 * import { loadSpecialFlows } from "./set_special.ts";
 * import { emptySet } from "./set_types.ts";
 * const dir = await Deno.makeTempDir();
 * const setup = `${dir}/setup.yaml`;
 * await Deno.writeTextFile(setup, "name: s\nsteps:\n  - name: a\n    request: {url: http://x.test}\noutputs: {token: t}\n");
 * const set = emptySet();
 * const outputs = await loadSpecialFlows(set, { setupFiles: [setup, setup] });
 * await Deno.remove(dir, { recursive: true });
 * if (!outputs?.has("token") || set.result.setup.length !== 2) throw new Error();
 * if (set.result.problems.map((p) => p.code).join() !== "duplicate-output") throw new Error();
 * ```
 */
export async function loadSpecialFlows(
  set: SetLoad,
  options: LoadFlowsOptions,
): Promise<Set<string> | undefined> {
  const outputs = new Set<string>();
  // A setup flow that did not load hands out unknown outputs: its own problems are the
  // mistake, so ${setup.NAME} goes unchecked rather than adding "the run has none" per use.
  let known = true;
  for (const file of options.setupFiles ?? []) {
    const flow = await loadSpecial(set, file, new FlowFiles(options));
    if (!flow) {
      known = false;
      continue;
    }
    addOutputs(set, file, flow, outputs);
    set.result.setup.push(flow);
  }
  const setup = known ? outputs : undefined;
  for (const file of options.teardownFiles ?? []) {
    const flow = await loadSpecial(set, file, new FlowFiles({ ...options, setup }));
    if (flow) set.result.teardown.push(flow);
  }
  return setup;
}

/** Reads and loads a setup or teardown flow file into the set; the flow, if it loaded. */
async function loadSpecial(
  set: SetLoad,
  file: string,
  files: FlowFiles,
): Promise<Flow | undefined> {
  const { result } = set;
  const read = readFlowFile(file, "Check the path given to --setup or --teardown.");
  const loaded = "problem" in read
    ? { problems: [read.problem], flow: undefined }
    : await withEngines(() => files.load(file, read.text));
  result.files.push(file);
  addIncludes(set, files, file);
  if (!("problem" in read)) result.bytes.set(file, read.bytes);
  result.problems.push(...loaded.problems);
  return loaded.flow;
}

/** Adds a setup flow's outputs to `outputs`; a problem for each another setup flow hands out. */
function addOutputs(set: SetLoad, file: string, flow: Flow, outputs: Set<string>): void {
  for (const o of flow.outputs ?? []) {
    if (outputs.has(o.name)) {
      set.result.problems.push({
        code: "duplicate-output",
        message: `Output "${o.name}" is handed out by two setup flows.`,
        file,
        line: 1,
        column: 1,
        hint: "Give each output its own name: every flow reads them as ${setup.NAME}.",
      });
    }
    outputs.add(o.name);
  }
}
