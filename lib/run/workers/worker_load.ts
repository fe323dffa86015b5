/**
 * A worker loads a flow main could not send as its checked JSON (compiled
 * JSONPath queries and schema validators are objects with code, which no
 * message carries) again, from the bytes main checked (or its file), with
 * the options main loaded it with (the run parameters, the environment
 * through main, `--tag`, the setup flows' outputs): the same stages as
 * `load/suite.ts` for one file (load, select steps by tag, read data rows),
 * then what the run prepares (rows expanded, checks compiled). The files it
 * reads besides its own (includes, check files, schemas, data files) are
 * read again from disk; a problem now means one changed since main checked
 * it: the run then fails with {@linkcode WorkerLoadError}. A flow that JSON
 * holds exactly comes as that JSON ({@linkcode WorkerLoader.fromJson}), a
 * third of the cost.
 *
 * @module
 */
import { CheckFiles } from "../../load/check_files.ts";
import { relativeTo } from "../../load/expand_includes.ts";
import type { LoadOptions } from "../../load/load_options.ts";
import { SetLoader } from "../../load/set_loader.ts";
import { readFlowFile } from "../../load/set_read.ts";
import { readRows } from "../../load/set_rows.ts";
import { selectSteps } from "../../load/set_steps.ts";
import type { Flow } from "../../model/flow.ts";
import type { Masking } from "../../model/masking.ts";
import { compileTags, type TagTest } from "../../select/tags.ts";
import { expandRows, prepare } from "../prepare.ts";
import type { WorkerLoad } from "./messages.ts";

const decoder = new TextDecoder();

/** Files loaded through one loader before it is replaced: what it keeps of each stays bounded. */
const FILES_PER_LOADER = 256;

/**
 * Loads flow files in a worker as main loaded them.
 *
 * @example
 * ```ts
 * import { WorkerLoader } from "./worker_load.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.yaml`, "name: a\nsteps:\n  - name: s\n    request: {url: http://x.test}\n");
 * const loader = new WorkerLoader({ checkSetup: false, setupOutputs: [] }, { params: new Map() });
 * const flow = await loader.flow(`${dir}/a.yaml`, 0);
 * await Deno.remove(dir, { recursive: true });
 * if (flow.steps[0].name !== "s") throw new Error();
 * ```
 */
export class WorkerLoader {
  readonly #spec: WorkerLoad;
  readonly #options: LoadOptions;
  readonly #tagTest: TagTest | undefined;
  #loader: SetLoader | undefined;
  #loaded = 0;
  /** The last file's flows (one per data row), for the next row of the same file. */
  #last: { file: string; flows: Flow[] } | undefined;

  readonly #display: Pick<Masking, "redact"> | undefined;

  /** `display` masks a data row's name as main's redactor did (see `expandRows`). */
  constructor(
    spec: WorkerLoad,
    options: Pick<LoadOptions, "env" | "params">,
    display?: Pick<Masking, "redact">,
  ) {
    this.#spec = spec;
    this.#options = options;
    this.#display = display;
    this.#tagTest = spec.tags === undefined ? undefined : compileTags(spec.tags);
  }

  /**
   * The flow at `part` of `file`'s flows (its data rows, in order), ready
   * to run, loaded from `source` (the bytes main checked) or else the disk.
   */
  async flow(file: string, part: number, source?: Uint8Array): Promise<Flow> {
    if (this.#last?.file !== file) this.#last = { file, flows: await this.#load(file, source) };
    const flow = this.#last.flows[part];
    if (!flow) throw new WorkerLoadError(file, "it has fewer data rows than when it was checked");
    return flow;
  }

  /**
   * A flow main sent as its checked JSON (one main holds so, past the first
   * few hundred of a large suite, see `loadFlowsDeferred`; or one JSON holds
   * exactly, see `flowText`): its data row, includes and selected steps are
   * in it.
   */
  async fromJson(json: Uint8Array | string): Promise<Flow> {
    const flow: Flow = JSON.parse(typeof json === "string" ? json : decoder.decode(json));
    await prepare([flow]);
    return flow;
  }

  async #load(file: string, source: Uint8Array | undefined): Promise<Flow[]> {
    const read = source ? { bytes: source, text: decoder.decode(source) } : readFlowFile(file, "");
    if ("problem" in read) throw new WorkerLoadError(file, read.problem.message);
    const loader = this.#setLoader();
    const loaded = await loader.load(file, read.text);
    const flow = loaded.flow &&
      (this.#tagTest ? selectSteps(loaded.flow, this.#tagTest) : loaded.flow);
    const problem = loaded.problems[0] ??
      (flow?.dataFile ? await readRows(flow, file, loader.options) : undefined);
    if (!flow || problem) {
      throw new WorkerLoadError(file, problem?.message ?? "no flow came of it");
    }
    if (loader.files.standalone(file)) loader.files.forget(file, read.bytes);
    const flows = expandRows([flow], this.#display) as Flow[];
    await prepare(flows);
    return flows;
  }

  /** The loader, a new one every {@linkcode FILES_PER_LOADER} files. */
  #setLoader(): SetLoader {
    if (this.#loader && this.#loaded++ < FILES_PER_LOADER) return this.#loader;
    this.#loaded = 1;
    const checkFiles = new CheckFiles();
    const { checkSetup, setupOutputs } = this.#spec;
    return this.#loader = new SetLoader(
      {
        ...this.#options,
        checkFile: (path, from) => checkFiles.resolve(path, relativeTo(from, path)),
        ...(checkSetup ? { setupFiles: [] } : {}),
        ...(this.#spec.allowCommands ? { allowCommands: true } : {}),
      },
      checkSetup ? new Set(setupOutputs) : undefined,
    );
  }
}

/**
 * A flow file that no longer loads as main checked it (changed on disk
 * during the run).
 *
 * @example
 * ```ts
 * import { WorkerLoadError } from "./worker_load.ts";
 * const e = new WorkerLoadError("a.yaml", "it was deleted");
 * if (e.name !== "WorkerLoadError" || !e.message.includes('"a.yaml"')) throw new Error();
 * ```
 */
export class WorkerLoadError extends Error {
  constructor(file: string, why: string) {
    super(
      `The flow file "${file}" did not load again as it loaded when it was checked: ${why}.`,
    );
    this.name = "WorkerLoadError";
  }
}
