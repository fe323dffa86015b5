/**
 * Windows prompts before a typed command. API docs print each example for
 * Windows (`C:\> curl … ^`, cmd.exe's continuation; `PS C:\> curl.exe … \``,
 * PowerShell's) and often for Unix beside it (`$ curl … \`). Read as bash,
 * the prompt was a command named `C:>` and each continued line another. A
 * Windows prompt is a prompt:
 *
 * - text whose commands are all typed at Windows prompts is read as the
 *   shell the prompt belongs to reads it (cmd.exe, or PowerShell after
 *   `PS`), the prompt read as `$ ` is (what it printed under it included);
 * - beside commands for a Unix shell, each Windows command (its continued
 *   lines with it) is the same example for another shell: blanked, and
 *   named once among the skipped commands, the Unix ones being the steps.
 *
 * Line and column numbers stay the input's: everything replaced keeps its
 * length.
 *
 * @module
 */

/** cmd.exe's `C:\>` or `C:\Users\me>`, PowerShell's `PS C:\>` or `PS>`, before curl. */
const WINDOWS_PROMPT =
  /^([ \t]*)(PS(?: [A-Za-z]:\\[^>\n]*)?>|[A-Za-z]:\\[^>\n]*>)(?=[ \t]*curl(?:\.exe)?[ \t\n])/gm;

/** A line continued on the next: cmd.exe's `^`, PowerShell's backtick. */
const CONTINUED = /[ \t][\^`][ \t]*\r?$/;

/** A command for a Unix shell: a `$ ` prompt, a `\` continuation or a bare `curl` line. */
const UNIX_COMMAND = /^[ \t]*(?:\$[ \t]+)?curl[ \t]|[ \t]\\\r?$/m;

/** The text as its commands' shell reads it, and the Windows commands skipped. */
export interface WindowsRead {
  text: string;
  /** The shell every command is typed for, when every one is at a Windows prompt. */
  shell?: "cmd" | "powershell";
  /** `line N: …` for each Windows form left out beside the Unix commands. */
  skipped: string[];
}

/**
 * Reads Windows prompts (see the module).
 *
 * @example
 * ```ts
 * import { windowsPrompts } from "./curl_windows.ts";
 * const only = windowsPrompts("C:\\> curl http://a.test/ ^\n  -H \"a: b\"\n");
 * if (only.shell !== "cmd" || !only.text.startsWith("$    curl")) throw new Error(only.text);
 * const both = windowsPrompts("C:\\> curl http://a.test/\n$ curl http://a.test/\n");
 * if (both.skipped.length !== 1 || !both.text.startsWith("    ")) throw new Error(both.text);
 * ```
 */
export function windowsPrompts(text: string): WindowsRead {
  const lines = text.split("\n");
  const prompted: number[] = [];
  lines.forEach((line, i) => {
    WINDOWS_PROMPT.lastIndex = 0;
    if (WINDOWS_PROMPT.test(line)) prompted.push(i);
  });
  if (prompted.length === 0) return { text, skipped: [] };
  const windows = new Set<number>();
  for (const start of prompted) {
    let i = start;
    windows.add(i);
    while (CONTINUED.test(lines[i]) && i + 1 < lines.length && i - start < MAX_CONTINUED) {
      windows.add(++i);
    }
  }
  const rest = lines.filter((_l, i) => !windows.has(i)).join("\n");
  if (UNIX_COMMAND.test(rest)) {
    const skipped = prompted.map((i) =>
      `line ${i + 1}: ${
        lines[i].trim().split(/\s+/).slice(0, 2).join(" ")
      } (a command for Windows; the ones for Unix beside it are read)`
    );
    const blanked = lines.map((line, i) => windows.has(i) ? line.replace(/\S/g, " ") : line);
    return { text: blanked.join("\n"), skipped };
  }
  const powershell = prompted.every((i) => /^[ \t]*PS\b/.test(lines[i]));
  WINDOWS_PROMPT.lastIndex = 0;
  const dollar = text.replace(
    WINDOWS_PROMPT,
    (_m, lead: string, prompt: string) => `${lead}$${" ".repeat(prompt.length - 1)}`,
  );
  return { text: dollar, shell: powershell ? "powershell" : "cmd", skipped: [] };
}

/** Most lines one Windows command may be continued over: a longer run ends it. */
const MAX_CONTINUED = 200;

/**
 * What `read` (curl_transcript.ts's printed-lines reader, which knows bash's
 * `\` continuation) leaves of a Windows session: each `^` or backtick
 * continuation read as `\`, the lines it blanks blanked in the text as typed.
 *
 * @example
 * ```ts
 * import { asUnixLines } from "./curl_windows.ts";
 * const blankSecond = (t: string) => t.split("\n").map((l, i) => i === 1 ? "" : l).join("\n");
 * if (asUnixLines("a ^\nb\nc", blankSecond) !== "a ^\n\nc") throw new Error();
 * ```
 */
export function asUnixLines(
  text: string,
  read: (unix: string) => string | undefined,
): string | undefined {
  const kept = read(text.replace(/([ \t])[\^`][ \t]*$/gm, "$1\\"))?.split("\n");
  if (kept === undefined) return undefined;
  return text.split("\n").map((line, i) => kept[i] === "" ? "" : line).join("\n");
}
