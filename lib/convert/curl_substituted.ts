/**
 * A command substitution (`$(…)`, backticks) that `convert curl` runs
 * itself: a pipeline reading nothing but its own words through programs it
 * runs (`curl_pipeline.ts`), as bash would (`$(echo -n '/var/tmp' |
 * base64url)`); and the note on one kept as text.
 *
 * @module
 */
import { pipelineOutput, programs } from "./curl_pipeline.ts";

/** One command of the substitution, as the splitter gives it (`ShellCommand`'s shape). */
interface Piped {
  words: string[];
  notes: string[];
  stdin?: string;
  background?: boolean;
  pipedFrom?: Piped;
}

/**
 * The note on an expansion kept as text: where it is, and its first line
 * (`rest`'s, when nothing closes it).
 *
 * @example
 * ```ts
 * import { keptNote } from "./curl_substituted.ts";
 * const notes: string[] = [];
 * keptNote("$(jq -n 1)", "", true, { line: 2, column: 5 }, notes);
 * if (!notes[0].includes("line 2, column 5") || !notes[0].includes("kept as text")) throw new Error(notes[0]);
 * ```
 */
export function keptNote(
  text: string,
  rest: string,
  closed: boolean,
  { line, column }: { line: number; column: number },
  notes: string[],
): void {
  const first = text.split("\n")[0];
  const shown = !closed
    ? rest.split("\n")[0].slice(0, 30)
    : first.length > 80
    ? `${first.slice(0, 80)}…`
    : first;
  notes.push(
    `A shell expansion at line ${line}, column ${column} ("${shown}") is not run; it is kept as text.`,
  );
}

/**
 * The output of a command substitution's `inner` text, when it is one
 * pipeline that reads nothing but its own words through programs the
 * converter runs (`echo -n '/var/tmp' | base64url`), as bash gives it:
 * trailing line breaks removed. `undefined` (kept as text) for anything
 * else, and for output bash would not leave as one word: a line break or a
 * control character, or a blank where it is not `quoted`. `split` reads
 * the text as bash does, and `runtime` says whether a word holds a value
 * known only when it runs (a `$NAME`'s marker).
 *
 * @example
 * ```ts
 * import { substituted } from "./curl_substituted.ts";
 * const echo = { words: ["echo", "-n", "/var/tmp"], notes: [] };
 * const read = { split: () => [echo, { words: ["base64url"], notes: [], pipedFrom: echo }], runtime: () => false };
 * const notes: string[] = [];
 * const value = substituted("echo -n /var/tmp | base64url", { line: 1, column: 9, notes, quoted: false }, read);
 * if (value !== "L3Zhci90bXA=" || !notes[0].includes("(echo | base64url)")) throw new Error(value);
 * ```
 */
export function substituted(
  inner: string,
  { line, column, notes, quoted }: {
    line: number;
    column: number;
    notes: string[];
    quoted: boolean;
  },
  { split, runtime }: { split(text: string): Piped[]; runtime(word: string): boolean },
): string | undefined {
  let commands: Piped[];
  try {
    commands = split(inner);
  } catch {
    return undefined;
  }
  const onePipeline = commands.every((c, i) =>
    c.notes.length === 0 && !c.background && (i === 0 || c.pipedFrom === commands[i - 1])
  );
  if (commands.length === 0 || !onePipeline) return undefined;
  const bytes = pipelineOutput(commands, (w) => runtime(w) || w.includes("`"));
  let value: string;
  try {
    value = new TextDecoder("utf-8", { fatal: true }).decode(bytes ?? new Uint8Array([0xff]));
  } catch {
    return undefined;
  }
  value = value.replace(/\n+$/, "");
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(value) || (!quoted && /\s/.test(value))) return undefined;
  notes.push(
    `The command substitution at line ${line}, column ${column} (${
      programs(commands)
    }) is run when converting, as the shell would: it reads nothing but its own words.`,
  );
  return value;
}
