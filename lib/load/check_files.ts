/**
 * Check files (`checks: ../checks/article.yaml` in a check group): each
 * file is read and parsed once per flow set, within the limits of a flow
 * file (size, YAML nesting and aliases), however many flows use it. What
 * its checks mean depends on the list that uses it, so they are read per
 * use by `check_file.ts`; only the parse is shared.
 *
 * @module
 */
import { unreadable } from "./unreadable.ts";
import { readBytesSync } from "../io/read.ts";
import { nearFile } from "../io/near_file.ts";
import { MAX_FILE_BYTES } from "../model/limits.ts";
import { Loading } from "./context.ts";
import type { CheckFileRead, CheckFileResolution } from "./load_options.ts";
import { readYaml } from "./yaml.ts";

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads and parses check files, each once: the path as written and the
 * file it names (relative to the working directory, `relativeTo`) → the
 * parsed file, or why it cannot be used.
 *
 * @example
 * ```ts
 * import { CheckFiles } from "./check_files.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/article.yaml`, "- {path: $.title, type: string}\n");
 * const files = new CheckFiles();
 * const got = files.resolve("article.yaml", `${dir}/article.yaml`);
 * const again = files.resolve("./article.yaml", `${dir}/article.yaml`);
 * const missing = files.resolve("article.yml", `${dir}/article.yml`);
 * await Deno.remove(dir, { recursive: true });
 * if (!("doc" in got) || got !== again) throw new Error();
 * if (!("code" in missing) || !missing.hint.startsWith('Did you mean "article.yaml"?')) throw new Error();
 * ```
 */
export class CheckFiles {
  readonly #read = new Map<string, CheckFileRead | { code: string; message: string }>();

  /** The check file `file` (written `path`), parsed; or why it cannot be used. */
  resolve(path: string, file: string): CheckFileResolution {
    const known = this.#read.get(file);
    const got = known ?? this.#load(file);
    if (!known) this.#read.set(file, got);
    if ("problems" in got) return got;
    return {
      code: got.code,
      message: `Could not read the check file "${path}" (${file}): ${got.message}.`,
      hint: missingHint(path, file, got.message),
      // The file, not the use, is wrong: one problem for it, however many lists use it.
      ...(known && got.message !== "no such file" ? { followOn: true } : {}),
    };
  }

  #load(file: string): CheckFileRead | { code: string; message: string } {
    let bytes: Uint8Array;
    let text: string;
    try {
      bytes = readBytesSync(file, { limit: MAX_FILE_BYTES });
      text = decoder.decode(bytes);
    } catch (error) {
      return unreadable(error);
    }
    // A check file a flow names may be any file: when it is not YAML, it is named, not quoted.
    const ctx = new Loading(file, { foreign: "the check file" });
    const ok = readYaml(ctx, text);
    return {
      file,
      bytes,
      text,
      lineStarts: ctx.lines.lineStarts,
      problems: ctx.problems,
      ...(ok ? { doc: ctx.doc, targets: ctx.targets } : {}),
    };
  }
}

/** The fix for a check file that cannot be read: the file beside it that it probably meant. */
function missingHint(path: string, file: string, why: string): string {
  const relative = "A check file's path is relative to the file that uses it.";
  const near = why === "no such file" ? nearFile(file) : undefined;
  if (near === undefined) return relative;
  return `Did you mean "${path.slice(0, path.lastIndexOf("/") + 1)}${near}"? ${relative}`;
}
