/**
 * What a curl command reads through a pipe, carried into its options: the
 * pipeline's text, the file `cat` names, or the bytes a pipeline made
 * (`echo … | gzip | curl --data-binary @-`) from a file beside the flow.
 *
 * @module
 */
import type { CurlFiles } from "./curl_files.ts";
import { readCurlArgs } from "./curl_options.ts";
import type { Feed } from "./curl_pipe.ts";
import type { ShellCommand } from "./curl_shell.ts";

/**
 * A curl command's options, reading what the pipeline before it writes
 * (`feed`): its text as standard input, `cat FILE`'s file, or bytes that are
 * no text (`echo … | gzip`) from a file written beside the flow
 * (`CurlFiles.keep`); a pipeline the converter cannot run is noted.
 *
 * @example
 * ```ts
 * import { pipedArgs } from "./curl_fed.ts";
 * const command = { words: ["curl"], line: 1, column: 1, notes: [] };
 * const notes: string[] = [];
 * const args = pipedArgs(["curl", "-d", "@-", "a.test"], { text: "a=1" }, { command, notes });
 * if (args.data[0].text !== "a=1") throw new Error(JSON.stringify(args.data));
 * pipedArgs(["curl", "-d", "@-", "a.test"], { lost: "jq | gzip" }, { command, notes });
 * if (!notes[0].includes("jq | gzip")) throw new Error(notes.join());
 * ```
 */
export function pipedArgs(
  words: string[],
  feed: Feed,
  { command, files, notes }: { command: ShellCommand; files?: CurlFiles; notes: string[] },
): ReturnType<typeof readCurlArgs> {
  const read = files && ((path: string) => files.read(path));
  const file = fedFile(feed, command, files, notes);
  if (file === undefined) {
    return readCurlArgs(
      words.slice(1),
      read,
      command.stdin ?? ("text" in feed ? feed.text : undefined),
    );
  }
  const args = readCurlArgs([...words.slice(1), "<", file], read);
  // The made file's own note says where the body comes from; no `<` was written.
  if ("bytes" in feed) args.notes = args.notes.filter((n) => !n.startsWith(FROM_FILE));
  return args;
}

/**
 * The file a curl command reads its pipe from: `cat FILE`'s, or one written
 * beside the flow for bytes a pipeline made (`echo … | gzip`); a pipeline
 * the converter cannot run, or bytes with nowhere to write them, noted.
 */
function fedFile(
  feed: Feed,
  command: ShellCommand,
  files: CurlFiles | undefined,
  notes: string[],
): string | undefined {
  if ("file" in feed) return feed.file;
  if ("lost" in feed) {
    notes.push(
      `What ${feed.lost} writes into the pipe is not carried: the converter runs only echo, printf, cat, encoders (base64, xxd -p, …), tr and gzip over text the command line holds; put the body in the flow.`,
    );
  }
  if (!("bytes" in feed)) return undefined;
  const pipeline = pipelineOf(command);
  if (!files?.keep) {
    notes.push(
      `What ${pipeline} writes into the pipe is not text (gzip's bytes, say) and there is no folder to write it into: not carried.`,
    );
    return undefined;
  }
  const gzipped = feed.bytes[0] === 0x1f && feed.bytes[1] === 0x8b;
  const name = `body-line-${command.line}${gzipped ? ".gz" : ".bin"}`;
  return files.keep(name, feed.bytes, `What ${pipeline} writes into the pipe`);
}

/** The start of curl_stdin.ts's note on `< file`. */
const FROM_FILE = "Standard input is read from";

/** The programs of the pipeline a curl command reads (`echo | gzip`). */
function pipelineOf(command: ShellCommand): string {
  const names: string[] = [];
  for (let at = command.pipedFrom; at && names.length < 32; at = at.pipedFrom) {
    const words = at.words[0] === "$" ? at.words.slice(1) : at.words;
    names.unshift(words[0]?.split("/").at(-1) ?? "");
  }
  return names.join(" | ");
}
