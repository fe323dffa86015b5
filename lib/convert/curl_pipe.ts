/**
 * What a curl command reads from a pipe (`echo '{…}' | curl -d @-`), when
 * the command before it writes it from its own words: `echo` (`-n`, `-e`),
 * `printf` with a format of `%s`s and text, `cat FILE` (the file, as `<
 * FILE`), `cat` reading its here-document or here-string (`cat <<EOF |
 * curl …`). Anything else (`jq`, `gen-token`) is run by nobody: not carried.
 *
 * @module
 */
import type { ShellCommand } from "./curl_shell.ts";
import { table } from "./table.ts";

/** A pipe's text, or the file it is (`cat FILE`). */
export type Piped = { text: string } | { file: string };

/**
 * What the words of the command before a `|` write, when they can be told
 * without running anything; `stdin` is what that command reads (its
 * here-document), which `cat` with no file writes.
 *
 * @example
 * ```ts
 * import { pipedInput } from "./curl_pipe.ts";
 * if (JSON.stringify(pipedInput(["echo", '{"a": 1}'])) !== '{"text":"{\\"a\\": 1}\\n"}') throw new Error();
 * if (JSON.stringify(pipedInput(["printf", "%s", "x y"])) !== '{"text":"x y"}') throw new Error();
 * if (JSON.stringify(pipedInput(["cat", "body.json"])) !== '{"file":"body.json"}') throw new Error();
 * if (pipedInput(["jq", "-n", "{}"]) !== undefined) throw new Error();
 * if (JSON.stringify(pipedInput(["cat"], "a 1\n")) !== '{"text":"a 1\\n"}') throw new Error();
 * if (pipedInput(["cat"]) !== undefined) throw new Error();
 * ```
 */
export function pipedInput(words: readonly string[], stdin?: string): Piped | undefined {
  const [name, ...args] = words;
  if (name === "echo") return echoed(args);
  if (name === "printf") return printed(args);
  if (name !== "cat") return undefined;
  if (args.length === 1 && args[0] !== "-" && !args[0].startsWith("-")) return { file: args[0] };
  // `cat <<EOF | curl --data-binary @-`: cat with no file (or `-`) writes what it reads.
  const reads = args.length === 0 || (args.length === 1 && args[0] === "-");
  return reads && stdin !== undefined ? { text: stdin } : undefined;
}

/** bash's builtin `echo`: `-n` (no line break), `-e` (escapes), `-E`; the rest joined by spaces. */
function echoed(args: string[]): Piped {
  let newline = true;
  let escapes = false;
  let at = 0;
  for (; at < args.length && /^-[neE]+$/.test(args[at]); at++) {
    for (const flag of args[at].slice(1)) {
      if (flag === "n") newline = false;
      else escapes = flag === "e";
    }
  }
  const text = args.slice(at).join(" ");
  return { text: (escapes ? unescaped(text) : text) + (newline ? "\n" : "") };
}

/** `printf FORMAT [ARG…]` whose format is text and `%s`s (each ARG in turn, reused as printf does). */
function printed(args: string[]): Piped | undefined {
  const [format, ...values] = args;
  if (format === undefined || /%(?![s%])/.test(format)) return undefined;
  const slots = (format.match(/%s/g) ?? []).length;
  if (slots === 0 && values.length > 0) return undefined;
  let text = "";
  let next = 0;
  do {
    text += unescaped(format).replace(
      /%([s%])/g,
      (_m, k) => k === "%" ? "%" : values[next++] ?? "",
    );
  } while (slots > 0 && next < values.length);
  return { text };
}

const ESCAPES = table<string>({
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  '"': '"',
  "'": "'",
});

/** The backslash escapes `echo -e` and `printf` read (`\n`, `\t`, `\r`, `\\`); others stay. */
function unescaped(text: string): string {
  return text.replace(/\\([ntr\\"'])/g, (_m, c: string) => ESCAPES[c]);
}

/**
 * The commands whose output a curl command reads through a pipe, with what
 * they write (`echo '{…}' | curl -d @-`): only where that can be told, and
 * only for a command without a here-document, which bash would read instead.
 *
 * @example
 * ```ts
 * import { pipeFeeds } from "./curl_pipe.ts";
 * import { splitBash } from "./curl_shell.ts";
 * const commands = splitBash("echo '{}' | curl -d @- a.test", []);
 * const feeds = pipeFeeds(commands, (c) => c.words[0] === "curl");
 * if (JSON.stringify(feeds.get(commands[0])) !== '{"text":"{}\\n"}') throw new Error();
 * ```
 */
export function pipeFeeds(
  commands: readonly ShellCommand[],
  isCurl: (command: ShellCommand) => boolean,
): Map<ShellCommand, Piped> {
  const feeds = new Map<ShellCommand, Piped>();
  for (const command of commands) {
    const from = command.pipedFrom;
    if (!from || command.stdin !== undefined || !isCurl(command)) continue;
    // `$ echo … | curl …`: the prompt is no word of the command.
    const words = from.words[0] === "$" ? from.words.slice(1) : from.words;
    const piped = pipedInput(words, from.stdin);
    if (piped) feeds.set(from, piped);
  }
  return feeds;
}
