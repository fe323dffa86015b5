/**
 * What a curl command reads from a pipe (`echo '{…}' | curl -d @-`), when
 * the command before it writes it from its own words: `echo` (`-n`, `-e`),
 * `printf` with a format of `%s`s and text, `cat FILE` (the file, as `<
 * FILE`), `cat` reading its here-document or here-string (`cat <<EOF |
 * curl …`). Anything else (`jq`, `gen-token`) is run by nobody: not carried.
 *
 * @module
 */
import { ENV_MARKER, type ShellCommand } from "./curl_shell.ts";
import { pipelineOutput, programs, type Stage } from "./curl_pipeline.ts";
import { type Piped, pipedInput } from "./curl_written.ts";

/**
 * What a curl command reads through a pipe: the text or file of
 * {@linkcode Piped}; `bytes` a pipeline wrote that are no text (`| gzip |`),
 * which the flow sends from a file beside it; or `lost`, the programs of a
 * pipeline of several commands the converter cannot run (`jq | gzip`), for
 * the note that says its output is not carried.
 */
export type Feed = Piped | { bytes: Uint8Array } | { lost: string };

/**
 * The commands whose output a curl command reads through a pipe, with what
 * they write (`echo '{…}' | curl -d @-`, `echo … | gzip | curl
 * --data-binary @-`): every command of the pipeline before curl, each with
 * the same feed. Only where that can be told, and only for a command
 * without a here-document, which bash would read instead.
 *
 * @example
 * ```ts
 * import { pipeFeeds } from "./curl_pipe.ts";
 * import { splitBash } from "./curl_shell.ts";
 * const commands = splitBash("echo '{}' | curl -d @- a.test", []);
 * const feeds = pipeFeeds(commands, (c) => c.words[0] === "curl");
 * if (JSON.stringify(feeds.get(commands[0])) !== '{"text":"{}\\n"}') throw new Error();
 * const gz = splitBash("echo a | gzip | curl --data-binary @- a.test", []);
 * if (!("bytes" in pipeFeeds(gz, (c) => c.words[0] === "curl").get(gz[1])!)) throw new Error();
 * ```
 */
export function pipeFeeds(
  commands: readonly ShellCommand[],
  isCurl: (command: ShellCommand) => boolean,
): Map<ShellCommand, Feed> {
  const feeds = new Map<ShellCommand, Feed>();
  for (const command of commands) {
    const from = command.pipedFrom;
    if (!from || command.stdin !== undefined || !isCurl(command)) continue;
    const stages = [from];
    for (let at = from.pipedFrom; at && stages.length < MAX_STAGES; at = at.pipedFrom) {
      stages.unshift(at);
    }
    const feed = fed(stages.map(unprompted));
    if (feed) { for (const stage of stages) feeds.set(stage, feed); }
  }
  return feeds;
}

/** Most commands of one pipeline read back from curl: no docs' pipeline comes near. */
const MAX_STAGES = 32;

/** `$ echo … | curl …`: the prompt is no word of the command. */
function unprompted(command: ShellCommand): Stage {
  const words = command.words[0] === "$" ? command.words.slice(1) : command.words;
  return { words, stdin: command.stdin };
}

/** What `stages` feed curl: one command as `pipedInput` reads it, several run as a pipeline. */
function fed(stages: Stage[]): Feed | undefined {
  if (stages.length === 1) {
    const piped = pipedInput(stages[0].words, stages[0].stdin);
    if (piped) return piped;
  }
  const marked = new RegExp(ENV_MARKER.source);
  const bytes = pipelineOutput(stages, (w) => marked.test(w));
  if (!bytes) return stages.length > 1 ? { lost: programs(stages) } : undefined;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    // deno-lint-ignore no-control-regex
    if (!/[\x00-\x08\x0e-\x1f]/.test(text)) return { text };
  } catch {
    // Not UTF-8: bytes, sent from a file.
  }
  return { bytes };
}
