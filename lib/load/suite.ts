/**
 * Loading a flow set, as a pipeline of stages that each return data:
 * discover the files and select this shard's part (`set_discover.ts`) →
 * load the setup and teardown flows (`set_special.ts`) → for each file:
 * read (`set_read.ts`) → load, or read back from the cache
 * (`set_loader.ts`) → filter by name and tags (`set_steps.ts`) → expand
 * data rows (`set_rows.ts`) → keep, or hold as bytes (`set_held.ts`) →
 * list its includes (`set_includes.ts`) → compile schemas, cap problems
 * and warn (`set_finish.ts`). All problems of the selected files come back
 * together so they can be reported at once, before any request is sent.
 *
 * @module
 */
import { fileRootsFor } from "../io/file_roots.ts";
import type { Problem } from "../model/errors.ts";
import type { Flow } from "../model/flow.ts";
import type { ByteSpill } from "../model/spill.ts";
import { matchesFilter } from "../select/filter.ts";
import { compileTags, type TagTest } from "../select/tags.ts";
import type { LoadResult } from "./load_flow.ts";
import { discoverSet } from "./set_discover.ts";
import { capTotal, schemaProblems, unusedVars } from "./set_finish.ts";
import { deferrable, holdFlow, isHeld, type Reload } from "./set_held.ts";
import { addIncludes } from "./set_includes.ts";
import { CheckFiles } from "./check_files.ts";
import { relativeTo } from "./expand_includes.ts";
import { SetLoader } from "./set_loader.ts";
import { readFlowFile } from "./set_read.ts";
import { readRows } from "./set_rows.ts";
import { loadSpecialFlows } from "./set_special.ts";
import { selectSteps } from "./set_steps.ts";
import {
  type DeferredLoadResult,
  emptySet,
  type LoadFlowsOptions,
  type LoadFlowsResult,
  type SetLoad,
} from "./set_types.ts";

export type { DeferredLoadResult, LoadFlowsOptions, LoadFlowsResult } from "./set_types.ts";

/**
 * Finds, reads and checks flow files. Paths may be files or directories
 * (searched recursively for `*.yaml`/`*.yml`). Throws `UsageError` for a
 * missing path; problems inside files are returned, never thrown.
 *
 * @example
 * ```ts
 * import { loadFlows } from "./suite.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/ok.yaml`, "name: ok\nsteps:\n  - name: a\n    request: {url: http://x.test}\n");
 * await Deno.writeTextFile(`${dir}/bad.yaml`, "name: bad\nstep: []\n");
 * const { flows, problems } = await loadFlows([dir]);
 * const filtered = await loadFlows([dir], { filter: ["ok"] });
 * await Deno.remove(dir, { recursive: true });
 * if (flows.length !== 1 || problems.map((p) => p.code).join() !== "unknown-key") throw new Error();
 * if (filtered.problems.length !== 0 || filtered.files.length !== 1) throw new Error();
 * ```
 */
export async function loadFlows(
  paths: readonly string[],
  options: LoadFlowsOptions = {},
): Promise<LoadFlowsResult> {
  return await loadSet(paths, options, Infinity) as LoadFlowsResult;
}

/**
 * {@linkcode loadFlows} for a run: every file is read and checked all the
 * same, but past the first `keepParsed` flows, a flow that reads no other
 * file and needs nothing compiled ahead (no include, data rows, file body,
 * JSON Schema or `insecure`) is kept as its bytes and, with a `spill`, as
 * the checked flow in JSON; it is read back (or without one, parsed again)
 * just before it runs. Memory then stays flat with the size of the suite,
 * for about 0.1 ms per flow past the window (0.3 ms when parsed again).
 *
 * @example
 * ```ts
 * import { loadFlowsDeferred } from "./suite.ts";
 * import { isDeferred } from "../model/flow.ts";
 * const dir = await Deno.makeTempDir();
 * for (const n of ["a", "b"]) {
 *   await Deno.writeTextFile(`${dir}/${n}.yaml`, `name: ${n}\nsteps:\n  - name: s\n    request: {url: http://x.test}\n`);
 * }
 * const { flows } = await loadFlowsDeferred([dir], {}, 1);
 * await Deno.remove(dir, { recursive: true });
 * if (isDeferred(flows[0]) || !isDeferred(flows[1])) throw new Error();
 * if ((await flows[1].load()).steps[0].name !== "s") throw new Error();
 * ```
 */
export async function loadFlowsDeferred(
  paths: readonly string[],
  options: LoadFlowsOptions,
  keepParsed: number,
): Promise<DeferredLoadResult> {
  return await loadSet(paths, options, keepParsed);
}

/** What the per-file stages of one set load share. */
interface EntryLoad {
  readonly set: SetLoad;
  readonly loader: SetLoader;
  readonly filter: readonly string[];
  readonly tagTest: TagTest | undefined;
  /** Flows kept parsed before the rest are held as their bytes. */
  readonly keepParsed: number;
  /** Flows kept parsed so far. */
  parsed: number;
  /** Every name a run parameter can set in the flows loaded so far (for `unused-var`). */
  readonly names: string[];
  /** The tags the checked flows carry, for a `--tag` that selects nothing. */
  readonly tags: Set<string>;
  readonly spill: ByteSpill | undefined;
  readonly reload: Reload;
}

async function loadSet(
  paths: readonly string[],
  options: LoadFlowsOptions,
  keepParsed: number,
): Promise<DeferredLoadResult> {
  const entries = await discoverSet(paths, options);
  // One reader of check files for the whole set, setup and teardown flows included.
  const checkFiles = new CheckFiles();
  options = {
    checkFile: (path, from) => checkFiles.resolve(path, relativeTo(from, path)),
    // What flows may read, from the paths given unless the caller (--file-root) said.
    fileRoots: fileRootsFor(
      [...paths, ...options.setupFiles ?? [], ...options.teardownFiles ?? []],
      undefined,
      options.namedFiles,
    ),
    ...options,
  };
  // Compiled before any file is read: a bad expression is a usage error, not a per-file problem.
  const tagTest = options.tags === undefined ? undefined : compileTags(options.tags);
  const set = emptySet();
  // Setup and teardown flows first: their outputs are what ${setup.NAME} may read.
  const loader = new SetLoader(options, await loadSpecialFlows(set, options));
  const load: EntryLoad = {
    set,
    loader,
    filter: options.filter ?? [],
    tagTest,
    keepParsed,
    parsed: 0,
    names: [],
    tags: new Set(),
    spill: options.spill,
    reload: { held: set.result.bytes, options: loader.options, tagTest },
  };
  for (const { file } of entries) await loadEntry(load, file);
  return await finishSet(load, options);
}

/** Reads, loads and selects one flow file of the set, with its data rows and includes. */
async function loadEntry(load: EntryLoad, file: string): Promise<void> {
  const { result, reported } = load.set;
  const read = readFlowFile(file, "Check that the file is readable and is UTF-8 text.");
  if ("problem" in read) return unreadable(load, file, read.problem);
  const loaded = await load.loader.load(file, read.text);
  addNames(load, file, loaded);
  const flow = selected(load, file, loaded);
  if (flow === null) return;
  result.files.push(file);
  result.bytes.set(file, read.bytes);
  if (flow?.dataFile) {
    const problem = await readRows(flow, file, load.loader.options);
    if (problem) result.problems.push(problem);
  }
  if (flow && !result.problems.some((p) => p.file === file)) keep(load, file, flow, read.bytes);
  if (!reported.has(file)) result.problems.push(...loaded.problems);
  addIncludes(load.set, load.loader.files, file);
}

/** A file that cannot be read is in the set, with its problem, when the filter selects its path. */
function unreadable(load: EntryLoad, file: string, problem: Problem): void {
  if (!matchesFilter(load.filter, { file })) return;
  load.set.result.files.push(file);
  load.set.result.problems.push(problem);
}

/** Adds the names a run parameter can set in a loaded flow and in the files it includes. */
function addNames(load: EntryLoad, file: string, loaded: LoadResult): void {
  const { names, loader: { files } } = load;
  for (const name of loaded.names ?? []) names.push(name);
  for (const f of files.closure(file)) names.push(...files.included.get(f)?.names ?? []);
}

/**
 * The part of a loaded flow the set keeps, `undefined` for a file with
 * problems, `null` when the filter or the tags leave it out.
 */
function selected(load: EntryLoad, file: string, loaded: LoadResult): Flow | undefined | null {
  // A file with problems is selected by its path, or by its name when that could be read.
  if (!matchesFilter(load.filter, { file, name: loaded.name })) return null;
  // A flow with problems is kept whatever its tags: its problems must be seen.
  if (!load.tagTest || !loaded.flow) return loaded.flow;
  noteTags(load.tags, loaded.flow);
  // The loaded flow is shared with the files that include it: selection makes a copy.
  return selectSteps(loaded.flow, load.tagTest) ?? null;
}

/** The tags of a flow and its steps join the set's (the first 500), for a `--tag` that selects nothing. */
function noteTags(seen: Set<string>, flow: Flow): void {
  for (const tag of [...flow.tags ?? [], ...flow.steps.flatMap((s) => s.tags ?? [])]) {
    if (seen.size < 500) seen.add(tag);
  }
}

/** Keeps a checked flow parsed, or past the first `keepParsed`, held as its bytes. */
function keep(load: EntryLoad, file: string, flow: Flow, bytes: Uint8Array): void {
  const { result } = load.set;
  const files = load.loader.files;
  if (load.parsed < load.keepParsed || !files.standalone(file) || !deferrable(flow)) {
    load.parsed++;
    result.flows.push(flow);
    return;
  }
  const held = holdFlow({ file, flow, bytes, spill: load.spill, reload: load.reload });
  // The held flow, not the bytes: a suite of 10,000 files held them all while it loaded,
  // in 10,000 small allocations that left the process 10 MiB larger for good.
  files.forget(file, held);
  result.flows.push(held);
}

/** The set once every file is loaded: schemas compiled, problems capped, warnings added. */
async function finishSet(load: EntryLoad, options: LoadFlowsOptions): Promise<DeferredLoadResult> {
  const { result } = load.set;
  if (load.tags.size > 0) result.tagsSeen = [...load.tags];
  result.included = result.included.filter((f) => !result.files.includes(f));
  result.problems.push(...await schemaProblems(result, options.signal));
  result.problems = capTotal(result.problems);
  // Nothing will run, so no deferred flow is parsed again: the manifest hashes the bytes here.
  if (result.problems.length > 0) {
    for (const f of result.flows) if (isHeld(f)) result.bytes.set(f.file, f.bytes());
  }
  // Only for the whole set: a shard or a filter may leave out the flows that use it.
  const whole = !options.shard && load.filter.length === 0 && !load.tagTest;
  if (result.problems.length === 0 && whole && options.params) {
    result.warnings.push(...unusedVars(options.params, new Set(load.names), result.flows.length));
  }
  return result;
}
