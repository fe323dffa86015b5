/**
 * Files the text's own commands write, then send. Docs build a body in a
 * file with a here-document (`cat > payload.json <<EOF` … `EOF`, a spam
 * filter's `cat > "$TMPDIR/request.txt" <<EOF`) and send it with
 * `-d @payload.json`: the converter read only files on disk, so the flow
 * sent an empty placeholder though the text says what the file holds. A
 * command that writes its standard input to a file (`cat > F`, `cat >F`,
 * `cat >> F` appending, `tee F`, `tee -a F`) makes that file, for the
 * commands after it, the text it was given; a file written from anything
 * else (`cat a.json > F`, `jq … > F`) is not known and stays the reader's.
 *
 * @module
 */
import type { CurlFiles } from "./curl_files.ts";

/** Where a command writes its standard input: the file and whether it appends. */
interface Target {
  path: string;
  append: boolean;
}

/** A redirection of standard output to a file, the file attached or the next word. */
const REDIRECT = /^(>>?)(.*)$/;

/** A file no command of the text could mean as a body: a device, a descriptor. */
const NOT_A_FILE = /^(?:\/dev\/|&)/;

/** `cat`'s target: standard input (no file operand) redirected into a file. */
function catTarget(words: string[]): Target | undefined {
  let target: Target | undefined;
  for (let i = 1; i < words.length; i++) {
    const m = REDIRECT.exec(words[i]);
    if (!m) {
      // A file operand (`cat a.json > F`) is read instead of standard input; `-` is standard input.
      if (words[i] !== "-" && !words[i].startsWith("-")) return undefined;
      continue;
    }
    const path = m[2] === "" ? words[++i] : m[2];
    if (path === undefined || NOT_A_FILE.test(path)) continue;
    target = { path, append: m[1] === ">>" };
  }
  return target;
}

/** `tee`'s target: its first file operand (`-a` appends); what it prints is not written. */
function teeTarget(words: string[]): Target | undefined {
  const append = words.some((w) => w === "-a" || w === "--append");
  for (let i = 1; i < words.length; i++) {
    if (REDIRECT.test(words[i])) {
      if (words[i] === ">" || words[i] === ">>") i++;
      continue;
    }
    if (!words[i].startsWith("-") && !NOT_A_FILE.test(words[i])) {
      return { path: words[i], append };
    }
  }
  return undefined;
}

/**
 * The files the text's commands wrote so far, read in the text's order: a
 * curl command sees those written before it.
 *
 * @example
 * ```ts
 * import { WrittenFiles } from "./curl_made_files.ts";
 * const written = new WrittenFiles();
 * written.wrote(["cat", ">", "payload.json"], '{"a": 1}\n');
 * const files = written.around(undefined)!;
 * if (files.read("payload.json") !== '{"a": 1}\n' || !files.written?.("payload.json")) throw new Error();
 * if (written.wrote(["cat", "a.json", ">", "b.json"], "x\n")) throw new Error();
 * ```
 */
export class WrittenFiles {
  #files = new Map<string, string>();

  /** Reads a command that is not curl's; whether it wrote a file from its standard input. */
  wrote(words: string[], stdin: string | undefined): boolean {
    if (stdin === undefined) return false;
    const program = words[0]?.split("/").at(-1);
    const target = program === "cat"
      ? catTarget(words)
      : program === "tee"
      ? teeTarget(words)
      : undefined;
    if (target === undefined) return false;
    const before = target.append ? this.#files.get(target.path) ?? "" : "";
    this.#files.set(target.path, before + stdin);
    return true;
  }

  /**
   * `files` with the written files first: their text is read as a file's,
   * never refused, never a placeholder; `files` as it is while none is
   * written, and so `undefined` for a conversion that reads no file.
   */
  around(files: CurlFiles | undefined): CurlFiles | undefined {
    if (this.#files.size === 0) return files;
    const written = new Map(this.#files);
    const has = (path: string) => written.has(path);
    return {
      read: (path) => has(path) ? written.get(path) : files?.read(path),
      rebase: (path, sent) => files ? files.rebase(path, sent) : path,
      exists: (path) =>
        has(path) ||
        (files !== undefined &&
          (files.exists ? files.exists(path) : files.read(path) !== undefined)),
      refused: (path, by) => has(path) ? undefined : files?.refused?.(path, by),
      keep: files?.keep && ((name, bytes, about) => files.keep!(name, bytes, about)),
      written: has,
    };
  }
}
