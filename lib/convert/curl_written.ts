/**
 * What `echo`, `printf` and `cat` write from their own words (and `cat`
 * from its here-document or here-string), told without running anything:
 * the first command of a pipeline docs feed curl or a command substitution
 * (`echo '{…}' | curl -d @-`, `$(echo -n '/var/tmp' | base64url)`).
 *
 * @module
 */
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
 * import { pipedInput } from "./curl_written.ts";
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
