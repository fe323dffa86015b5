/**
 * Shell variables the text assigns. A security guide sets
 * `HOST="http://admin:password@127.0.0.1:5984"` and `NODENAME="_local"`,
 * then sends `curl -X PUT $HOST/_node/$NODENAME/…`, and later sets `HOST`
 * again without the credentials, then with another user's: both were asked
 * as variables to set, one value for every command, where the shell sends
 * what the text assigned last. A command made only of assignments
 * (`NAME=value`, `export NAME=value`, after a prompt or not) gives each name
 * its value for the commands after it, until the next assignment. A value
 * that is blank (a `$(curl …)` output, captured by curl_outputs.ts) or holds a
 * variable the text never assigned, or a `$`, is no value the text knows:
 * the name is read from the environment as before. A `NAME=value` before a
 * command sets it for that command only, after its words were expanded: it
 * changes nothing here.
 *
 * @module
 */
import { ENV_MARKER, type EnvNames, type ShellCommand } from "./curl_shell.ts";

/** An assignment word: its name and value. */
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;

/** The words of a command that only assigns, without its prompt or `export`; else undefined. */
function assignments(words: readonly string[]): [string, string][] | undefined {
  let rest = words[0] === "$" ? words.slice(1) : words;
  if (rest[0] === "export") rest = rest.slice(1);
  if (rest.length === 0) return undefined;
  const found = rest.map((w) => ASSIGNMENT.exec(w));
  if (found.some((m) => m === null)) return undefined;
  return found.map((m) => [m![1], m![2]]);
}

/** The text with each marker of a known variable replaced by its value. */
function expand(text: string, env: EnvNames, known: Map<string, string>): string {
  return text.replace(ENV_MARKER, (marker, i: string) => known.get(env[Number(i)]) ?? marker);
}

/**
 * Puts the value the text assigned into each later command's words, in
 * place of the variable's marker.
 *
 * @example
 * ```ts
 * import { withAssigned } from "./curl_assigned.ts";
 * import { splitBash } from "./curl_shell.ts";
 * const env: string[] = [];
 * const commands = withAssigned(splitBash('HOST="http://a.test"\ncurl $HOST/x\n', env), env);
 * if (commands[1].words[1] !== "http://a.test/x") throw new Error(commands[1].words[1]);
 * ```
 */
export function withAssigned(commands: ShellCommand[], env: EnvNames): ShellCommand[] {
  const known = new Map<string, string>();
  for (const command of commands) {
    const assigned = assignments(command.words);
    if (assigned) {
      for (const [name, raw] of assigned) {
        const value = expand(raw, env, known);
        // A `$(curl …)` output is blanked to spaces (curl_subst.ts): no value the text knows.
        const plain = value.trim() !== "" && !value.includes("$") &&
          !new RegExp(ENV_MARKER.source).test(value);
        if (plain) known.set(name, value);
        else known.delete(name);
      }
      continue;
    }
    if (known.size > 0) command.words = command.words.map((w) => expand(w, env, known));
  }
  return commands;
}
