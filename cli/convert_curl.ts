/**
 * `flowrun convert curl [FILE|-]`: curl command lines → a flow file, with
 * the summary on stderr. The commands come from FILE, or from standard
 * input when FILE is `-` or missing; files they name (`-d @body.json`,
 * `-F f=@photo.png`) are read from inside the working directory only (at
 * most {@linkcode MAX_CURL_FILE_BYTES} in all) and referenced from the flow
 * relative to where it is written.
 *
 * @module
 */
import { basename, isAbsolute, relative, resolve } from "node:path";
import type { CurlFiles } from "../lib/convert/curl.ts";
import { ENV_MARKER, MAX_CURL_BYTES } from "../lib/convert/curl_shell.ts";
import { UsageError } from "../lib/model/errors.ts";
import { parse } from "./args.ts";
import { EXIT } from "./exit.ts";
import { err, out } from "./output.ts";
import { save } from "./save.ts";
import { commandHelp } from "./usage.ts";
import { readConvertInput } from "./convert_input.ts";

/** The options `flowrun convert curl` accepts; its `--help` lists each. */
export const CONVERT_CURL_OPTIONS = {
  output: { type: "string", short: "o" },
  name: { type: "string" },
  spelling: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * Most bytes the files the commands send may bring into the flow, all
 * together: each read counts, so `-d @f` eight times on a 20 MB file stops
 * at the cap instead of holding 160 MB of body (1.3 GB while written).
 */
export const MAX_CURL_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Runs `flowrun convert curl ARGS…` (the arguments after `curl`); resolves
 * to the exit code.
 *
 * @example
 * ```ts
 * import { convertCurlCommand } from "./convert_curl.ts";
 * if (typeof convertCurlCommand !== "function") throw new Error();
 * ```
 */
export async function convertCurlCommand(rest: string[]): Promise<number> {
  const { values, positionals } = parse(rest, CONVERT_CURL_OPTIONS);
  if (values.help) {
    out(commandHelp("convert curl", CONVERT_CURL_OPTIONS));
    return EXIT.passed;
  }
  if (positionals.length > 1) {
    throw new UsageError(
      "no-paths",
      `Expected one file of curl commands (or - for standard input); got ${positionals.length}.`,
      "Usage: flowrun convert curl [FILE|-] [-o FILE]",
    );
  }
  const spelling = values.spelling ?? "a";
  if (spelling !== "a" && spelling !== "b") {
    throw new UsageError("bad-spelling", `Expected --spelling a or b, got "${spelling}".`);
  }
  const [io, curl] = await Promise.all([
    import("../lib/io/mod.ts"),
    import("../lib/convert/curl.ts"),
  ]);
  if (values.output) await io.ensureWritable(values.output);
  const path = positionals[0] ?? "-";
  const text = path === "-" ? await readStdin() : await readCommands(io, path);
  const files = curlFiles(io, values.output);
  const { yaml, summary } = curl.convertCurl(text, { name: values.name, spelling, files });
  if (values.output) await save(values.output, yaml);
  else out(yaml);
  for (const [name, bytes] of files.placeholders) {
    await io.writeNewFile(resolve(files.dir, name), bytes ?? "");
  }
  err(curl.formatCurlSummary(summary));
  return EXIT.passed;
}

/**
 * Files the commands name: read from the working directory only, as the
 * docs say, and at most {@linkcode MAX_CURL_FILE_BYTES} in all; referenced
 * from the flow's folder. A file elsewhere (an absolute path, `../`, a
 * symlink out) is never read: one the flow sends by reference becomes an
 * empty placeholder beside the flow, named in `placeholders`. So does one
 * the flow sends that is not there (docs' `--data-binary @cpu_data.txt`):
 * the runner checks every file before sending anything, so one missing file
 * would stop every other command; with its placeholder they run, and the
 * summary names where the file goes.
 */
function curlFiles(
  io: typeof import("../lib/io/mod.ts"),
  output?: string,
): CurlFiles & { dir: string; placeholders: [string, Uint8Array | undefined][] } {
  const dir = resolve(output ? resolve(output, "..") : ".");
  const cwd = resolve(".");
  const outside = outsideOf(cwd);
  const texts = new Map<string, ReturnType<typeof readText>>();
  const placeholder = placeholderNames(dir, output);
  const made = madeFiles();
  // A path holding a `$NAME` is written plainly for the user to replace: not a file to stand in for.
  const missing = (path: string) =>
    made.has(resolve(path)) || (!MARKED.test(path) && !outside(path) && !isThere(resolve(path)));
  let budget = MAX_CURL_FILE_BYTES;
  return {
    dir,
    get placeholders() {
      return placeholder.entries().map(([abs, name]): [string, Uint8Array | undefined] => [
        name,
        made.get(abs)?.bytes,
      ]);
    },
    keep: made.keep,
    read(path) {
      if (outside(path)) return undefined;
      const abs = resolve(path);
      if (!texts.has(abs)) texts.set(abs, readText(io, abs, MAX_CURL_FILE_BYTES));
      const { text, bytes } = texts.get(abs)!;
      if (text === undefined || bytes > budget) return undefined;
      budget -= bytes;
      return text;
    },
    rebase(path, sent) {
      if (outside(path) || (sent && missing(path))) return placeholder.of(path);
      if (path.startsWith("/") || dir === cwd) return path;
      return relative(dir, resolve(path));
    },
    exists: (path) => outside(path) || missing(path) || isFile(resolve(path)),
    refused(path, by) {
      if (outside(path)) return outsideNote(path, by, placeholder.of);
      const own = made.get(resolve(path));
      if (own) return madeNote(own.about, relative(cwd, resolve(dir, placeholder.of(path))));
      if (by === "reference" && missing(path)) {
        return missingNote(path, relative(cwd, resolve(dir, placeholder.of(path))));
      }
      const read = texts.get(resolve(path));
      if (by !== "content" || !(read?.large || read?.text !== undefined)) return undefined;
      return `The file "${path}" was not read: the files the commands send would bring more than ${
        MAX_CURL_FILE_BYTES / 1024 / 1024
      } MiB into the flow; send a large file with --data-binary @file alone (the flow reads it when it runs).`;
    },
  };
}

/**
 * Bytes the conversion made (`echo … | gzip | curl --data-binary @-`), by
 * the absolute path the command reads them from: `keep` gives each a name
 * none of the user's files has, since a name of theirs is theirs.
 */
function madeFiles(): Map<string, { bytes: Uint8Array; about: string }> & {
  keep(name: string, bytes: Uint8Array, about: string): string;
} {
  const made = new Map<string, { bytes: Uint8Array; about: string }>();
  return Object.assign(made, {
    keep(name: string, bytes: Uint8Array, about: string): string {
      let path = name;
      for (let n = 2; isThere(resolve(path)) || made.has(resolve(path)); n++) {
        path = name.replace(/(\.[^.]*)?$/, `-${n}$1`);
      }
      made.set(resolve(path), { bytes, about });
      return path;
    },
  });
}

/** Whether a path lies outside `cwd`, as written or once its links are followed. */
function outsideOf(cwd: string): (path: string) => boolean {
  const realCwd = realPath(cwd) ?? cwd;
  return (path) => {
    const abs = resolve(path);
    const real = realPath(abs);
    return !within(cwd, abs) || (real !== undefined && !within(realCwd, real));
  };
}

/**
 * The placeholder beside the flow for each file outside or missing: its base
 * name (without the marks no file system takes everywhere: `<path_to_file>`
 * is `path_to_file`), or `name-2.ext`, … when a file (the user's own, or
 * another placeholder) has that name, since the flow would send that file
 * instead.
 */
function placeholderNames(
  dir: string,
  output?: string,
): { of(path: string): string; entries(): [string, string][] } {
  const names = new Map<string, string>();
  // The flow itself is written there too, after the names are chosen.
  const flow = output && resolve(output);
  return {
    of(path) {
      const abs = resolve(path);
      const known = names.get(abs);
      if (known !== undefined) return known;
      // A docs placeholder (`@<path_to_file>`) names no file Windows can make: its marks go.
      const base = basename(abs).replace(/[<>:"|?*]/g, "") || "file";
      const taken = (n: string) =>
        [...names.values()].includes(n) || isThere(resolve(dir, n)) || resolve(dir, n) === flow;
      let name = base;
      for (let n = 2; taken(name); n++) name = base.replace(/(\.[^.]*)?$/, `-${n}$1`);
      names.set(abs, name);
      return name;
    },
    entries: () => [...names],
  };
}

/** The note on bytes the conversion made: what they are, and the file the flow sends them from. */
function madeNote(about: string, shown: string): string {
  return `${about} is made when converting, as the shell would: the flow sends "${shown}", written beside the flow for you.`;
}

/** The note on a file outside the working directory: left out, or sent from a placeholder. */
function outsideNote(
  path: string,
  by: "content" | "reference" | "option",
  placeholder: (path: string) => string,
): string {
  return by !== "content"
    ? `The file "${path}" is outside the working directory, so it was not read: the flow sends "${
      placeholder(path)
    }" beside it instead, an empty placeholder written for you; put the file there.`
    : `The file "${path}" is outside the working directory, so it was not read and its content is left out of the flow; copy it into the working directory and convert again.`;
}

/**
 * The note on a file a command sends that is not there: the empty
 * placeholder the flow sends instead (`shown` from the working directory),
 * and what to put there; loud, since the step sends nothing until then.
 */
function missingNote(path: string, shown: string): string {
  const elsewhere = resolve(shown) === resolve(path)
    ? ""
    : ` (or create ${path} and convert again)`;
  return `The file "${path}" the command sends is not there: the flow sends "${shown}", an empty placeholder written for you, so the other commands run; put your file at ${shown}${elsewhere}.`;
}

/** A `$NAME` the shell splitter marked in a path. */
const MARKED = new RegExp(ENV_MARKER.source);

/** Whether `path` is `dir` or inside it. */
function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The path with symlinks followed; `undefined` when there is nothing there. */
function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

/** Whether anything is at `path` (a file, a folder, a link even when broken). */
function isThere(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether a regular file (or a symlink to one) is at `path`. */
function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** A file's text and size, at most `limit` bytes; `large` past it, nothing when it cannot be read. */
function readText(
  io: typeof import("../lib/io/mod.ts"),
  path: string,
  limit: number,
): { text?: string; bytes: number; large?: boolean } {
  try {
    const bytes = io.readBytesSync(path, { limit });
    return { text: new TextDecoder().decode(bytes), bytes: bytes.length };
  } catch (error) {
    const large = error instanceof io.InputFileError && error.code === "input-too-large";
    return { bytes: 0, large };
  }
}

/** The commands' text from a file; a missing, unreadable or oversized one is a usage error. */
async function readCommands(io: typeof import("../lib/io/mod.ts"), path: string): Promise<string> {
  const bytes = await readConvertInput(io, path, {
    code: "bad-curl",
    what: "the curl commands in",
    limit: MAX_CURL_BYTES,
    tooLarge: "Split the commands into several files, one flow each.",
    otherwise: "Give a text file of curl commands, or - to read them from standard input.",
  });
  return new TextDecoder().decode(bytes);
}

/** Standard input, at most {@linkcode MAX_CURL_BYTES}. */
async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of Deno.stdin.readable) {
    size += chunk.length;
    if (size > MAX_CURL_BYTES) {
      throw new UsageError(
        "input-too-large",
        `The curl commands on standard input are larger than ${MAX_CURL_BYTES / 1024 / 1024} MiB.`,
        "Split the commands into several files, one flow each.",
      );
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}
