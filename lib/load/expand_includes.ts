/**
 * Included flow files: a path relative to the including file → the flow,
 * each file read and loaded once per flow set, cycles found where they
 * close. The suite loads every flow through one {@linkcode FlowFiles}, so a
 * file both run and included is parsed once and its problems listed once.
 *
 * @module
 */
import { outsideRoot } from "./file_root.ts";
import type { Problem } from "../model/errors.ts";
import { InputFileError } from "../io/input_error.ts";
import { readBytesSync } from "../io/read.ts";
import { unreadable } from "./unreadable.ts";
import { nearFile } from "../io/near_file.ts";
import { MAX_FILE_BYTES, MAX_INCLUDE_DEPTH, MAX_UPLOAD_BYTES } from "../model/limits.ts";
import { loadFlow, type LoadOptions, type LoadResult } from "./load_flow.ts";
import type { IncludeResolution } from "./context.ts";
import type { CheckFileResolution } from "./load_options.ts";
import { CheckFiles } from "./check_files.ts";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** A file a flow sends or checks with: its bytes, or why not (with the problem's code). */
type DataRead = { bytes: Uint8Array<ArrayBuffer> } | { message: string; code?: string };

/** A file read because a flow includes it. */
export interface IncludedFile {
  /** The file's bytes (for the manifest's checksums). */
  bytes: Uint8Array;
  /** Its problems, with its own positions. */
  problems: Problem[];
  /** The names a `--var` can set in it. */
  names: string[];
}

/**
 * The path `path` names when written in `from`: relative to `from`'s folder
 * unless absolute, `/`-separated, `.` and `..` segments resolved.
 *
 * @example
 * ```ts
 * import { relativeTo } from "./expand_includes.ts";
 * if (relativeTo("flows/a.yaml", "../common/login.yaml") !== "common/login.yaml") throw new Error();
 * if (relativeTo("a.yaml", "./b.yaml") !== "b.yaml") throw new Error();
 * if (relativeTo("/x/a.yaml", "../b.yaml") !== "/b.yaml") throw new Error();
 * ```
 */
export function relativeTo(from: string, path: string): string {
  const joined = path.startsWith("/") ? path : `${from.replace(/[^/]*$/, "")}${path}`;
  const absolute = joined.startsWith("/");
  const out: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length > 0 && out.at(-1) !== "..") out.pop();
    else if (part !== ".." || !absolute) out.push(part);
  }
  return `${absolute ? "/" : ""}${out.join("/")}`;
}

/**
 * Loads the flow files of a set and the files they include.
 *
 * @example
 * ```ts
 * import { FlowFiles } from "./expand_includes.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/login.yaml`, "name: login\nsteps:\n  - name: a\n    request: {url: http://x.test}\noutputs: {token: abc}\n");
 * const files = new FlowFiles({});
 * const main = files.load(`${dir}/main.yaml`, "name: main\nsteps:\n  - name: auth\n    include: login.yaml\n  - name: b\n    request: {url: 'http://x.test/${steps.auth.token}'}\n");
 * await Deno.remove(dir, { recursive: true });
 * if (main.flow?.steps[0].include?.flow.name !== "login") throw new Error();
 * if (files.closure(`${dir}/main.yaml`).join() !== `${dir}/login.yaml`) throw new Error();
 * ```
 */
export class FlowFiles {
  /** Every file read because a flow includes it, by path. */
  readonly included = new Map<string, IncludedFile>();
  readonly #loaded = new Map<string, LoadResult>();
  readonly #includes = new Map<string, Set<string>>();
  readonly #loading: string[] = [];
  /**
   * The longest chain of includes below each loaded file: a file loaded
   * before it is included adds its own depth to the chain that includes it.
   */
  readonly #below = new Map<string, string[]>();
  readonly #data = new Map<string, DataRead>();
  /** Files whose loading read a file they send. */
  readonly #reads = new Set<string>();
  /**
   * Files loaded and then forgotten, by path: loaded again from these bytes
   * if included, or from what gives them back (a flow held in a spill), so
   * thousands of forgotten files do not hold their bytes while the rest load.
   */
  readonly #forgotten = new Map<string, Uint8Array | { bytes(): Uint8Array }>();
  readonly #options: LoadOptions;

  constructor(options: LoadOptions) {
    // Check files are read once per set: through the set's reader when it has one.
    const own = options.checkFile ? undefined : new CheckFiles();
    const checkFile = options.checkFile ??
      ((path: string, from: string) => own!.resolve(path, relativeTo(from, path)));
    this.#options = {
      ...options,
      include: (path, from) => this.#resolve(path, from),
      readFile: (path, from, limit) => this.#readData(path, from, limit),
      checkFile: (path, from) => this.#checkFile(checkFile, path, from),
    };
  }

  /**
   * A check file, read through `resolve` (shared by the set's loads): it
   * joins the files `from` reads, so the set lists it once and a flow that
   * uses it is neither cached nor held as its bytes alone.
   */
  #checkFile(
    resolve: NonNullable<LoadOptions["checkFile"]>,
    path: string,
    from: string,
  ): CheckFileResolution {
    const outside = outsideRoot(relativeTo(from, path), this.#options);
    if (outside !== undefined) {
      return {
        code: "outside-file-root",
        message: `Could not use the check file "${path}": ${outside}.`,
        hint: "A check file's path is relative to the flow file that names it.",
      };
    }
    const got = resolve(path, from);
    if (!("file" in got)) return got;
    if (!this.#includes.has(from)) this.#includes.set(from, new Set());
    this.#includes.get(from)!.add(got.file);
    if (!this.included.has(got.file)) {
      this.included.set(got.file, { bytes: got.bytes, problems: [], names: [] });
    }
    return got;
  }

  /**
   * Loads a flow file from its text, with the files it includes; `included` for a file a flow
   * names, whose text is never quoted when it is not a flow.
   */
  load(file: string, text: string, included = false): LoadResult {
    const known = this.#loaded.get(file);
    if (known) return known;
    this.#loading.push(file);
    let result: LoadResult;
    try {
      const options = included ? { ...this.#options, foreign: "the included file" } : this.#options;
      result = loadFlow(text, file, options);
    } finally {
      // A load that stops to fetch the full YAML parser is tried again from the start.
      this.#loading.pop();
    }
    this.#loaded.set(file, result);
    return result;
  }

  /** Whether loading `file` read no other file: it includes none and sends none. */
  standalone(file: string): boolean {
    return !this.#includes.has(file) && !this.#reads.has(file);
  }

  /**
   * Drops what loading `file` gave, so a set of thousands of files does not
   * hold every parsed flow while it loads; a later include of it loads it
   * again from `source`: its bytes, or what gives them back (never from the
   * disk, which may have changed).
   */
  forget(file: string, source: Uint8Array | { bytes(): Uint8Array }): void {
    if (this.#loaded.delete(file)) this.#forgotten.set(file, source);
  }

  /** What loading `file` gave, when it was loaded. */
  result(file: string): LoadResult | undefined {
    return this.#loaded.get(file);
  }

  /**
   * Takes `result` as what loading `file` gives, without loading it: a flow
   * read back from the cache, which reads no other file (see `flow_cache.ts`).
   */
  adopt(file: string, result: LoadResult): void {
    this.#loaded.set(file, result);
  }

  /** Every file `file` includes, directly or through another, each once. */
  closure(file: string): string[] {
    const seen = new Set<string>();
    const visit = (f: string) => {
      for (const next of this.#includes.get(f) ?? []) {
        if (!seen.has(next)) {
          seen.add(next);
          visit(next);
        }
      }
    };
    visit(file);
    return [...seen];
  }

  #resolve(path: string, from: string): IncludeResolution {
    const file = relativeTo(from, path);
    if (!this.#includes.has(from)) this.#includes.set(from, new Set());
    this.#includes.get(from)!.add(file);
    const at = this.#loading.indexOf(file);
    if (at >= 0) {
      return {
        code: "include-cycle",
        message: `Including "${path}" makes a cycle: ${
          [...this.#loading.slice(at), file].join(" → ")
        }.`,
        hint: "A flow cannot include itself, directly or through another: move what they share " +
          "into a third file that both include.",
      };
    }
    // Checked before reading too, so a chain of thousands of files is never walked.
    const tooDeep = this.#tooDeep(path, [...this.#loading, file]);
    if (tooDeep) return tooDeep;
    const outside = outsideRoot(file, this.#options);
    if (outside !== undefined) {
      return {
        code: "outside-file-root",
        message: `Could not include "${path}": ${outside}.`,
        hint: "An include's path is relative to the file that includes it.",
      };
    }
    const loaded = this.#loaded.get(file) ?? this.#read(file);
    if ("code" in loaded) {
      return {
        code: loaded.code,
        message: `Could not read the included file "${path}" (${file}): ${loaded.message}.`,
        hint: missingHint(path, file, loaded.message),
      };
    }
    if (loaded.flow) {
      const chain = [file, ...this.#below.get(file) ?? []];
      const deeper = this.#tooDeep(path, [...this.#loading, ...chain]);
      if (deeper) return deeper;
      if (chain.length > (this.#below.get(from)?.length ?? 0)) this.#below.set(from, chain);
      return { flow: loaded.flow, file };
    }
    const n = loaded.problems.length;
    // A check file's problems are listed under it, not under the flow that uses it.
    const where = [...new Set(loaded.problems.map((p) => p.file))].join(", ");
    return {
      // The included file's own problems are the ones to fix, and a flow set lists them:
      // this one only stops the file that includes it, so a set does not list it again.
      followOn: true,
      code: "include-problems",
      message: `The included flow "${path}" has ${
        n === 1 ? "a problem" : `${n} problems`
      }, listed under ${where}.`,
      hint: `Fix ${where}: a flow that includes it runs only once it loads.`,
    };
  }

  /** The problem of including `path` when `chain` (of files, outermost first) is too long. */
  #tooDeep(path: string, chain: string[]): IncludeResolution | undefined {
    const levels = chain.length - 1;
    if (levels <= MAX_INCLUDE_DEPTH) return undefined;
    const shown = chain.length <= 9
      ? chain
      : [...chain.slice(0, 4), `… ${chain.length - 8} more …`, ...chain.slice(-4)];
    return {
      code: "include-too-deep",
      message:
        `Including "${path}" nests includes ${levels} levels deep, past the limit of ${MAX_INCLUDE_DEPTH}: ${
          shown.join(" → ")
        }.`,
      hint: `Flatten the chain: include the inner flows directly from a flow further out, so no ` +
        `chain of includes is longer than ${MAX_INCLUDE_DEPTH}.`,
    };
  }

  /**
   * Reads a file a flow sends or checks with (up to `limit` bytes, else
   * {@linkcode MAX_UPLOAD_BYTES}), once however many steps name it.
   */
  #readData(path: string, from: string, limit = MAX_UPLOAD_BYTES): DataRead {
    const file = relativeTo(from, path);
    this.#reads.add(from);
    const key = `${limit}:${file}`;
    const known = this.#data.get(key);
    if (known) return known;
    let got: DataRead;
    const outside = outsideRoot(file, this.#options);
    try {
      got = outside !== undefined
        ? { message: outside, code: "outside-file-root" }
        : { bytes: readBytesSync(file, { limit }) };
    } catch (error) {
      got = error instanceof InputFileError
        ? { message: error.message, code: error.code }
        : { message: (error as Error).message };
    }
    this.#data.set(key, got);
    return got;
  }

  /** Reads and loads an included file, or why it cannot be read (with the problem's code). */
  #read(file: string): LoadResult | { code: string; message: string } {
    let bytes: Uint8Array;
    let text: string;
    try {
      const kept = this.#forgotten.get(file);
      // An included file is a flow file: its size limit and its problem code are a flow file's.
      bytes = kept === undefined
        ? readBytesSync(file, { limit: MAX_FILE_BYTES })
        : kept instanceof Uint8Array
        ? kept
        : kept.bytes();
      text = decoder.decode(bytes);
    } catch (error) {
      return unreadable(error);
    }
    const result = this.load(file, text, true);
    this.included.set(file, { bytes, problems: result.problems, names: result.names ?? [] });
    return result;
  }
}

/** The fix for an include that cannot be read: the file beside it that it probably meant. */
function missingHint(path: string, file: string, why: string): string {
  const relative = "An include's path is relative to the file that includes it.";
  const near = why === "no such file" ? nearFile(file) : undefined;
  if (near === undefined) return relative;
  const meant = `${path.slice(0, path.lastIndexOf("/") + 1)}${near}`;
  return `Did you mean "${meant}"? ${relative}`;
}
