/**
 * The words of a shell command that run curl, from `curl` on: what the docs type before it
 * (a prompt, assignments, `sudo`, `time`) is no option of curl's.
 *
 * @module
 */
import type { ShellCommand } from "./curl_shell.ts";

/** `curl` or `curl.exe`, the program's name without its folder. */
export const IS_CURL = /^curl(\.exe)?$/i;

/**
 * A command's words from `curl` on: a `$ ` prompt, `NAME=value` assignments
 * (noted: the flow reads the environment) and `sudo`, `time`, `noglob`,
 * `command` or `exec` before it are left out, when `curl` follows them.
 *
 * @example
 * ```ts
 * import { commandWords } from "./curl_command_words.ts";
 * const command = { words: ["$", "TOKEN=x", "time", "curl", "http://a.test/"], line: 1, column: 1, notes: [] };
 * if (commandWords(command).join(" ") !== "curl http://a.test/") throw new Error();
 * if (command.notes.length !== 1) throw new Error();
 * ```
 */
export function commandWords(command: ShellCommand): string[] {
  const words = command.words[0] === "$" ? command.words.slice(1) : command.words;
  const at = words.findIndex((w) =>
    !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) && !/^(sudo|time|noglob|command|exec)$/.test(w)
  );
  if (at <= 0 || !IS_CURL.test(words[at].split(/[\\/]/).at(-1) ?? "")) return words;
  const assigned = words.slice(0, at).filter((w) => w.includes("=")).map((w) => w.split("=")[0]);
  if (assigned.length > 0) {
    command.notes.push(
      `${assigned.map((n) => `${n}=…`).join(", ")} before curl ${
        assigned.length === 1 ? "is" : "are"
      } not carried: the flow reads ${
        assigned.map((n) => `$${n}`).join(", ")
      } from the environment.`,
    );
  }
  return words.slice(at);
}
