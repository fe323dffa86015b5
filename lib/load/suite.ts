/**
 * Loading a flow set: paths → the files of this shard → every flow, loaded
 * and checked → the flows the filter selects. All problems of the selected
 * files come back together so they can be reported at once, before any
 * request is sent.
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";
import { matchesFilter } from "../select/filter.ts";
import { type DeferredFlow, everyStep, type Flow, isDeferred } from "../model/flow.ts";
import { parseDataFile } from "./data_file.ts";
import { discoverFlowEntries, InputFileError, readBytesSync, readText } from "../io/io.ts";
import { MAX_FILE_BYTES, MAX_INPUT_BYTES } from "../model/limits.ts";
import { FlowFiles, relativeTo } from "./expand_includes.ts";
import { fileTooLarge, loadFlow, type LoadOptions, type LoadResult } from "./load_flow.ts";
import {
  cachedLoad,
  cacheEntry,
  cacheInput,
  cacheKey,
  type FlowCache,
  flowText,
} from "./flow_cache.ts";
import { prepareSchemas } from "./schema_compile.ts";
import type { ByteSpill } from "../model/spill.ts";
import { selectShard, type Shard } from "../select/shard.ts";
import { selectShardByTime } from "../select/shard_time.ts";
import { suggest } from "../_util/suggest.ts";
import { compileTags, type TagTest } from "../select/tags.ts";
import { withEngines } from "./engines.ts";

/** How to select and check the flows of a set. */
export interface LoadFlowsOptions extends LoadOptions {
  /** Keep only this shard's part of the files (split by path relative to each path argument). */
  shard?: Shard;
  /**
   * Balance `shard` by these durations (ms per flow file, from earlier
   * reports) instead of dealing files by count.
   */
  shardTimes?: ReadonlyMap<string, number>;
  /** Keep only flows whose name or path matches one of these (see `lib/select/filter.ts`). */
  filter?: readonly string[];
  /** Keep only flows whose `tags` satisfy this expression (see `lib/select/tags.ts`). */
  tags?: string;
  /** Setup flow files (`--setup`): loaded first, never sharded or filtered out. */
  setupFiles?: readonly string[];
  /** Teardown flow files (`--teardown`): never sharded or filtered out. */
  teardownFiles?: readonly string[];
  /**
   * Checked flows kept between runs (`--cache-dir`, see `flow_cache.ts`):
   * a flow file whose bytes and options are unchanged is read back instead
   * of being parsed and checked again.
   */
  cache?: FlowCache;
  /**
   * Where a deferred flow's bytes and its checked form (JSON) wait for
   * their turn (`byteSpill` in `io.ts`; see {@linkcode loadFlowsDeferred}).
   * Without one the bytes wait in memory and the flow is parsed again.
   */
  spill?: ByteSpill;
  /**
   * The run's interrupt: once aborted, schemas are no longer compiled (each
   * compile blocks up to 2 s), so a signal ends the loading at once.
   */
  signal?: AbortSignal;
}

/** The flows of a set, or the problems that prevent running it. */
export interface LoadFlowsResult {
  /** Every selected flow that loaded, in sorted path order. */
  flows: Flow[];
  /** Every problem of every selected file; when not empty, nothing should be run. */
  problems: Problem[];
  /** The selected flow files, in sorted path order. */
  files: string[];
  /** The bytes of each selected file as loaded, for checksums in the manifest. */
  bytes: Map<string, Uint8Array>;
  /** The setup flows that loaded, in the order given. */
  setup: Flow[];
  /** The teardown flows that loaded, in the order given. */
  teardown: Flow[];
  /**
   * Files the selected flows include (`include:`) that are not selected
   * themselves, in the order first met; their bytes are in `bytes`.
   */
  included: string[];
  /** What is probably a mistake but does not stop the run (a `--var` no flow reads). */
  warnings: { code: string; message: string; hint: string; name?: string }[];
}

/**
 * What {@linkcode loadFlowsDeferred} gives: the same, but flows past the
 * first few hundred may be held as their bytes until they run.
 */
export type DeferredLoadResult = Omit<LoadFlowsResult, "flows"> & {
  /** Every selected flow that loaded, in sorted path order, parsed or held as its bytes. */
  flows: (Flow | DeferredFlow)[];
};

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/**
 * Problems listed for a whole flow set; past it, one `too-many-problems`
 * problem counts the rest, so a thousand generated files with a repeated
 * mistake give a report of bounded size.
 */
export const MAX_PROBLEMS_TOTAL = 1000;

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

async function loadSet(
  paths: readonly string[],
  options: LoadFlowsOptions,
  keepParsed: number,
): Promise<DeferredLoadResult> {
  const special = [...options.setupFiles ?? [], ...options.teardownFiles ?? []];
  let entries = (await discoverFlowEntries(paths)).filter((e) =>
    !special.some((s) => sameFile(s, e.file))
  );
  if (options.shard) {
    entries = options.shardTimes
      ? selectShardByTime(entries, options.shard, options.shardTimes)
      : selectShard(entries, options.shard);
  }
  const filter = options.filter ?? [];
  // Compiled before any file is read: a bad expression is a usage error, not a per-file problem.
  const tagTest = options.tags === undefined ? undefined : compileTags(options.tags);
  const result: DeferredLoadResult = {
    flows: [],
    problems: [],
    files: [],
    bytes: new Map(),
    warnings: [],
    setup: [],
    teardown: [],
    included: [],
  };
  // Problems of a file are listed once, however many flows include it.
  const reported = new Set<string>();
  /** Lists the files a selected flow includes, with their problems. */
  const withIncludes = (files: FlowFiles, file: string) => {
    reported.add(file);
    for (const f of files.closure(file)) {
      if (reported.has(f)) continue;
      reported.add(f);
      const inc = files.included.get(f);
      const problems = inc?.problems ?? files.result(f)?.problems ?? [];
      result.problems.push(...problems);
      if (inc && !result.files.includes(f)) {
        result.included.push(f);
        result.bytes.set(f, inc.bytes);
      }
    }
  };
  // Setup and teardown flows first: the outputs the setup flows hand out are what
  // ${setup.NAME} may read in every other flow.
  const outputs = new Set<string>();
  for (
    const [kind, files] of [["setup", options.setupFiles], [
      "teardown",
      options.teardownFiles,
    ]] as const
  ) {
    for (const file of files ?? []) {
      const files = new FlowFiles(kind === "teardown" ? { ...options, setup: outputs } : options);
      const loaded = await loadSpecial(file, files);
      result.files.push(file);
      withIncludes(files, file);
      if (loaded.bytes) result.bytes.set(file, loaded.bytes);
      result.problems.push(...loaded.problems);
      if (!loaded.flow) continue;
      for (const o of loaded.flow.outputs ?? []) {
        if (kind === "setup" && outputs.has(o.name)) {
          result.problems.push({
            code: "duplicate-output",
            message: `Output "${o.name}" is handed out by two setup flows.`,
            file,
            line: 1,
            column: 1,
            hint: "Give each output its own name: every flow reads them as ${setup.NAME}.",
          });
        }
        if (kind === "setup") outputs.add(o.name);
      }
      result[kind].push(loaded.flow);
    }
  }
  // With setupFiles given (the CLI always gives them, maybe none), ${setup.NAME} is checked.
  const regularOptions = options.setupFiles !== undefined
    ? { ...options, setup: outputs }
    : options;
  // With a cache, each load's questions to the environment are recorded for its entry.
  const asked = new Map<string, boolean>();
  const readEnv = regularOptions.env ?? (() => undefined);
  const regular = new FlowFiles(
    options.cache
      ? {
        ...regularOptions,
        env: (name) => {
          const value = readEnv(name);
          asked.set(name, value !== undefined);
          return value;
        },
      }
      : regularOptions,
  );
  const load = async (file: string, text: string): Promise<LoadResult> => {
    const cache = options.cache;
    // A file already loaded (included by an earlier one) is not loaded again, so not cached.
    if (!cache || regular.result(file)) return await withEngines(() => regular.load(file, text));
    const input = cacheInput(file, text, regularOptions);
    const key = cacheKey(input);
    const hit = cachedLoad(cache.read(key), input, readEnv);
    if (hit) {
      regular.adopt(file, hit);
      return hit;
    }
    asked.clear();
    const loaded = await withEngines(() => regular.load(file, text));
    if (regular.standalone(file)) {
      const entry = cacheEntry(loaded, input, asked);
      if (entry !== undefined) cache.write(key, entry);
    }
    return loaded;
  };
  const names: string[] = [];
  let parsed = 0;
  const reload: Reload = { held: result.bytes, options: regularOptions, tagTest };
  for (const { file } of entries) {
    // Read synchronously: nothing else runs while flows load, and an asynchronous read of a
    // small file cost ten times a synchronous one (a thread-pool round trip each).
    const read = readFlowFile(file, "Check that the file is readable and is UTF-8 text.");
    if ("problem" in read) {
      if (!matchesFilter(filter, { file })) continue;
      result.files.push(file);
      result.problems.push(read.problem);
      continue;
    }
    const { bytes, text } = read;
    const loaded = await load(file, text);
    for (const name of loaded.names ?? []) names.push(name);
    for (const f of regular.closure(file)) names.push(...regular.included.get(f)?.names ?? []);
    // A file with problems is selected by its path, or by its name when that could be read.
    if (!matchesFilter(filter, { file, name: loaded.name })) continue;
    // A flow with problems is kept whatever its tags: its problems must be seen.
    // The loaded flow is shared with the files that include it: selection makes a copy.
    const flow = tagTest && loaded.flow ? selectSteps(loaded.flow, tagTest) : loaded.flow;
    if (tagTest && loaded.flow && !flow) continue;
    result.files.push(file);
    result.bytes.set(file, bytes);
    if (flow?.dataFile) {
      const problem = await readRows(flow, file);
      if (problem) result.problems.push(problem);
    }
    if (flow && !result.problems.some((p) => p.file === file)) {
      if (parsed >= keepParsed && regular.standalone(file) && deferrable(flow)) {
        let held: HeldFlow;
        if (options.spill) {
          // The checked flow waits behind the bytes, in the same piece: reading it back is
          // cheaper than a second load.
          const text = flowText(flow);
          const piece = text === undefined ? bytes : joinText(bytes, text);
          const split = text === undefined ? undefined : bytes.length;
          held = new HeldFlow(file, flow.name, options.spill.put(piece), split, reload);
          // Back in `bytes` when the flow is parsed again (for the manifest and quoted lines).
          result.bytes.delete(file);
        } else {
          held = new HeldFlow(file, flow.name, bytes, undefined, reload);
        }
        // The held flow, not the bytes: a suite of 10,000 files held them all while it loaded,
        // in 10,000 small allocations that left the process 10 MiB larger for good.
        regular.forget(file, held);
        result.flows.push(held);
      } else {
        parsed++;
        result.flows.push(flow);
      }
    }
    if (!reported.has(file)) result.problems.push(...loaded.problems);
    withIncludes(regular, file);
  }
  result.included = result.included.filter((f) => !result.files.includes(f));
  // Schemas are compiled now (the validator is imported only when a flow has one): a schema
  // that cannot be compiled is a problem before anything is sent.
  // (Deferred flows have no schema.)
  for (
    const { check, message } of await prepareSchemas([
      ...result.setup,
      ...result.flows.filter((f): f is Flow => !isDeferred(f)),
      ...result.teardown,
    ], options.signal)
  ) {
    result.problems.push({
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
    });
  }
  result.problems = capTotal(result.problems);
  // Nothing will run, so no deferred flow is parsed again: the manifest hashes the bytes here.
  if (result.problems.length > 0) {
    for (const f of result.flows) if (f instanceof HeldFlow) result.bytes.set(f.file, f.bytes());
  }
  // A --var that no flow reads is most often a typo nobody would notice (the flow runs with
  // its default), but pipelines also pass one set of --var to several runs: a warning.
  // Only for the whole set: a shard or a filter may leave out the flows that use it.
  if (
    result.problems.length === 0 && !options.shard && filter.length === 0 && !tagTest &&
    options.params
  ) {
    const used = new Set(names);
    for (const name of options.params.keys()) {
      if (used.has(name)) continue;
      const close = suggest(name, [...used]);
      result.warnings.push({
        code: "unused-var",
        name,
        message: `--var ${name} is not used by any of the ${result.flows.length} flow${
          result.flows.length === 1 ? "" : "s"
        } (no var, \${${name}} or \${vars.${name}}).`,
        hint: close
          ? `Did you mean --var ${close}=…? Names are case-sensitive.`
          : "Check the name against the flows' vars, or leave the option out.",
      });
    }
  }
  return result;
}

/**
 * The part of a flow `--tag` selects, or `undefined` for none: the steps
 * whose tags (the flow's and their own) satisfy the expression, the steps
 * they need (values they read, `depends_on`), and the cleanup steps whose
 * needs all run, so what a kept step creates is still removed.
 *
 * @example
 * ```ts
 * import { selectSteps } from "./suite.ts";
 * import { compileTags } from "../select/tags.ts";
 * const step = (name: string, extra: object) => ({ name, ...extra });
 * const flow = {
 *   file: "f.yaml", name: "f", vars: [], tags: ["api"],
 *   steps: [
 *     step("login", {}),
 *     step("create", { tags: ["write"], needs: ["login"] }),
 *     step("list", { tags: ["read"], needs: ["login"] }),
 *     step("delete", { always: true, needs: ["create", "login"] }),
 *   ],
 * // deno-lint-ignore no-explicit-any
 * } as any;
 * const read = selectSteps(flow, compileTags("read"))!;
 * if (read.steps.map((s) => s.name).join() !== "login,list") throw new Error();
 * const write = selectSteps(flow, compileTags("write"))!;
 * if (write.steps.map((s) => s.name).join() !== "login,create,delete") throw new Error();
 * if (selectSteps(flow, compileTags("ui")) !== undefined) throw new Error();
 * if (selectSteps(flow, compileTags("api"))!.steps.length !== 4) throw new Error();
 * ```
 */
export function selectSteps(flow: Flow, test: TagTest): Flow | undefined {
  const own = flow.tags ?? [];
  const kept = new Set(
    flow.steps.filter((s) => test(new Set([...own, ...s.tags ?? []]))).map((s) => s.name),
  );
  if (kept.size === 0) return undefined;
  if (kept.size === flow.steps.length) return flow;
  const byName = new Map(flow.steps.map((s) => [s.name, s]));
  const pending = [...kept];
  while (pending.length > 0) {
    for (const need of byName.get(pending.pop()!)?.needs ?? []) {
      if (!kept.has(need)) {
        kept.add(need);
        pending.push(need);
      }
    }
  }
  for (const s of flow.steps) {
    if (s.always && s.needs?.length && s.needs.every((n) => kept.has(n))) kept.add(s.name);
  }
  return { ...flow, steps: flow.steps.filter((s) => kept.has(s.name)) };
}

/**
 * Whether a checked flow can be parsed again just before it runs and be the
 * same: nothing in it is compiled or read ahead of the run, and nothing in it
 * must be known before the run starts (data rows, `insecure` warnings).
 */
function deferrable(flow: Flow): boolean {
  if (flow.rows || flow.dataFile || flow.options?.insecure) return false;
  // (A flow with an include read another file: `FlowFiles.standalone` rules it out.)
  for (const { step, checks } of everyStep([flow])) {
    if (step.options?.insecure) return false;
    if (checks.some((c) => (c.schemas?.length ?? 0) > 0)) return false;
  }
  return true;
}

/** What every held flow of a load shares, to load it again. */
interface Reload {
  /** Where a flow's bytes go back when it is loaded again (for the manifest and quoted lines). */
  readonly held: Map<string, Uint8Array>;
  readonly options: LoadOptions;
  readonly tagTest: TagTest | undefined;
}

/**
 * A flow held as its bytes, in memory or in a spill, with the checked flow
 * as JSON behind them when JSON holds it exactly. A class, not closures over
 * a scope: those cost about 400 bytes a flow, kept for the whole run, and the
 * scope of the loader's loop would keep the file's text.
 */
class HeldFlow implements DeferredFlow {
  readonly file: string;
  readonly name: string;
  /** The bytes, or what reads them back (with the checked JSON from `#split` on). */
  readonly #source: Uint8Array | (() => Uint8Array);
  /** Where the checked JSON starts, when it is there. */
  readonly #split: number | undefined;
  readonly #reload: Reload;

  constructor(
    file: string,
    name: string,
    source: Uint8Array | (() => Uint8Array),
    split: number | undefined,
    reload: Reload,
  ) {
    this.file = file;
    this.name = name;
    this.#source = source;
    this.#split = split;
    this.#reload = reload;
  }

  /** The file's bytes as they were checked. */
  bytes(): Uint8Array {
    return this.#fileBytes(this.#piece());
  }

  /** The flow as checked, read back or parsed again; its bytes are held again. */
  async load(): Promise<Flow> {
    const { held, options, tagTest } = this.#reload;
    const piece = this.#piece();
    const source = this.#fileBytes(piece);
    held.set(this.file, source);
    if (this.#split !== undefined) return JSON.parse(decoder.decode(piece.subarray(this.#split)));
    const loaded = await withEngines(() => loadFlow(decoder.decode(source), this.file, options));
    const flow = loaded.flow && (tagTest ? selectSteps(loaded.flow, tagTest) : loaded.flow);
    // Cannot happen (same bytes, same options): a bug, not a user error.
    if (!flow || loaded.problems.length > 0) {
      throw new Error(`${this.file} did not load again as it loaded when checked`);
    }
    return flow;
  }

  /** The bytes, with the checked JSON behind them when it is there. */
  #piece(): Uint8Array {
    return typeof this.#source === "function" ? this.#source() : this.#source;
  }

  /** The file's part of `piece`: a copy, not a view, which would keep the JSON alive too. */
  #fileBytes(piece: Uint8Array): Uint8Array {
    return this.#split === undefined ? piece : piece.slice(0, this.#split);
  }
}

/**
 * `bytes` and then `text` as UTF-8, in one array of exactly that size: the
 * spill holds it until its batch is written (or for good, without a
 * temporary file), so a view into a larger buffer would hold that buffer.
 */
function joinText(bytes: Uint8Array, text: string): Uint8Array {
  const tail = encoder.encode(text);
  const joined = new Uint8Array(bytes.length + tail.length);
  joined.set(bytes);
  joined.set(tail, bytes.length);
  return joined;
}

/** Reads and loads a setup or teardown flow file. */
async function loadSpecial(
  file: string,
  files: FlowFiles,
): Promise<{ flow?: Flow; problems: Problem[]; bytes?: Uint8Array }> {
  const read = readFlowFile(file, "Check the path given to --setup or --teardown.");
  if ("problem" in read) return { problems: [read.problem] };
  const { bytes, text } = read;
  const loaded = await withEngines(() => files.load(file, text));
  return { flow: loaded.flow, problems: loaded.problems, bytes };
}

/**
 * A flow file's bytes and text, or its one problem at 1:1: not a regular file
 * (a FIFO would block the load for ever, a device never ends), larger than
 * {@linkcode MAX_FILE_BYTES} (found before a byte is parsed: a 50 MB flow
 * exhausted memory after 100 s), unreadable or not UTF-8.
 */
function readFlowFile(
  file: string,
  hint: string,
): { bytes: Uint8Array; text: string } | { problem: Problem } {
  try {
    const bytes = readBytesSync(file, { limit: MAX_FILE_BYTES });
    return { bytes, text: decoder.decode(bytes) };
  } catch (error) {
    if (error instanceof InputFileError && error.code === "input-too-large") {
      return { problem: fileTooLarge(file, error.size ?? MAX_FILE_BYTES + 1) };
    }
    return {
      problem: {
        code: error instanceof InputFileError ? error.code : "file-read",
        message: `Could not read the flow file: ${(error as Error).message}.`,
        file,
        line: 1,
        column: 1,
        hint,
      },
    };
  }
}

/** Whether two paths name the same file, as given or normalised (`./a.yaml` and `a.yaml`). */
function sameFile(a: string, b: string): boolean {
  const norm = (p: string) => p.replace(/^\.\//, "").replaceAll("/./", "/");
  return norm(a) === norm(b);
}

/**
 * Reads a data-driven flow's rows from its file (relative to the flow file)
 * and sets `flow.rows`; the problem when the file cannot be read, is not CSV
 * or JSON rows, or has a column the flow does not declare under `vars`.
 */
async function readRows(flow: Flow, file: string): Promise<Problem | undefined> {
  const { path, line, column } = flow.dataFile!;
  const at = { file, line, column };
  const full = relativeTo(file, path);
  let text: string;
  try {
    text = await readText(full, { limit: MAX_INPUT_BYTES });
  } catch (error) {
    return {
      ...at,
      code: error instanceof InputFileError ? error.code : "file-read",
      message: `Could not read the data file "${path}": ${(error as Error).message}.`,
      hint: "The path is relative to the flow file.",
    };
  }
  const rows = parseDataFile(text, full);
  if (typeof rows === "string") {
    return {
      ...at,
      code: "bad-data",
      message: `The data file "${path}" cannot be read as rows: ${rows}.`,
      hint: "Use CSV with a header row, or a JSON list of objects (.json).",
    };
  }
  const declared = new Set(flow.vars.map((v) => v.name));
  const unknown = Object.keys(rows[0].values).filter((k) => !declared.has(k));
  if (unknown.length > 0) {
    return {
      ...at,
      code: "bad-data",
      // Named up to 20: a header of 500,000 columns made a message of 5 MB.
      message: `The data file "${path}" has column${unknown.length === 1 ? "" : "s"} ${
        unknown.slice(0, 20).map((k) => `"${k.slice(0, 80)}"`).join(", ")
      }${
        unknown.length > 20 ? ` and ${unknown.length - 20} more` : ""
      } that the flow does not declare under vars.`,
      hint: `Declare each column under vars with a default, e.g. vars: {${
        unknown[0].slice(0, 80)
      }: ""}, so every use is checked.`,
    };
  }
  flow.rows = rows;
  return undefined;
}

/** The first {@linkcode MAX_PROBLEMS_TOTAL} problems, and one that counts the rest. */
function capTotal(problems: Problem[]): Problem[] {
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
