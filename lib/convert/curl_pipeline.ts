/**
 * What a whole pipeline writes, when the converter can tell without the
 * user's machine: its first command writes its own words (`echo`, `printf`,
 * `cat` with its here-document, see `curl_written.ts`) or is a filter
 * reading its here-string (`base64 <<< text`), and each command after it is
 * a filter run here (`curl_filters.ts`: encoders, `tr`, `gzip`). Docs build
 * a path segment or a header this way (`$(echo -n '/var/tmp' | base64url)`)
 * and compress a body (`echo … | gzip | curl --data-binary @-`).
 *
 * @module
 */
import { filtered } from "./curl_filters.ts";
import { pipedInput } from "./curl_written.ts";

/** One command of a pipeline: its words, and the standard input the text gives it. */
export interface Stage {
  words: readonly string[];
  stdin?: string;
}

/**
 * The bytes the last of `stages` writes; `undefined` when any command is not
 * one run here, reads a file, or has a word `runtime` says holds a value
 * known only when it runs (`$DIR`).
 *
 * @example
 * ```ts
 * import { pipelineOutput } from "./curl_pipeline.ts";
 * const out = pipelineOutput([{ words: ["echo", "-n", "/var/tmp"] }, { words: ["base64url"] }]);
 * if (new TextDecoder().decode(out) !== "L3Zhci90bXA=\n") throw new Error();
 * if (pipelineOutput([{ words: ["jq", "-n", "{}"] }, { words: ["base64"] }]) !== undefined) throw new Error();
 * ```
 */
export function pipelineOutput(
  stages: readonly Stage[],
  runtime: (word: string) => boolean = () => false,
): Uint8Array | undefined {
  const [first, ...rest] = stages;
  if (!first || stages.some((s) => s.words.some(runtime) || runtime(s.stdin ?? ""))) {
    return undefined;
  }
  const encode = (text: string) => new TextEncoder().encode(text);
  const written = pipedInput(first.words, first.stdin);
  let bytes = written
    ? "text" in written ? encode(written.text) : undefined
    : first.stdin === undefined
    ? undefined
    : filtered(first.words, encode(first.stdin));
  for (const stage of rest) {
    // A command given a here-document reads it, not the pipe; the converter leaves that to bash.
    if (!bytes || stage.stdin !== undefined) return undefined;
    bytes = filtered(stage.words, bytes);
  }
  return bytes;
}

/**
 * The programs of a pipeline, as a note names them (`jq | gzip`): never
 * their arguments, which may hold a credential (`echo -n user:pass`).
 *
 * @example
 * ```ts
 * import { programs } from "./curl_pipeline.ts";
 * if (programs([{ words: ["echo", "-n", "a:b"] }, { words: ["/usr/bin/base64"] }]) !== "echo | base64") throw new Error();
 * ```
 */
export function programs(stages: readonly Stage[]): string {
  return stages.map((s) => s.words[0]?.split("/").at(-1) ?? "").join(" | ");
}
