/**
 * A file a flow names beside it (a body it sends, a `.proto` a gRPC step
 * reads), read at load through {@linkcode LoadOptions.readFile}, so a missing
 * or unreadable file is a positioned problem before anything is sent.
 *
 * @module
 */
import type { Node } from "yaml";
import type { Loading } from "./context.ts";

/**
 * The bytes of `path` (relative to the flow file), or `undefined` after a
 * problem at `node`: the flow was loaded from its text alone, or the file
 * cannot be read. `verb` says what the flow does with it ("sends", "reads").
 *
 * @example
 * ```ts
 * import { readBesideFlow } from "./flow_file.ts";
 * import { Loading } from "./context.ts";
 * const ctx = new Loading("f.yaml", { readFile: () => ({ bytes: new Uint8Array([104, 105]) }) });
 * const bytes = readBesideFlow(ctx, null, "a.txt", '"body_file" of step "s"', "sends");
 * if (bytes?.length !== 2 || ctx.problems.length !== 0) throw new Error();
 * ```
 */
export function readBesideFlow(
  ctx: Loading,
  node: Node | null,
  path: string,
  what: string,
  verb: string,
): Uint8Array<ArrayBuffer> | undefined {
  const read = ctx.options.readFile;
  if (!read) {
    ctx.problem(
      "include-unavailable",
      `${what} ${verb} "${path}", but this flow was loaded from its text alone.`,
      node,
      `Load flows with loadFlows (or run them with the CLI), which reads the files they name.`,
    );
    return undefined;
  }
  const got = read(path, ctx.file);
  if ("message" in got) {
    ctx.problem(
      got.code ?? "file-read",
      `Could not read "${path}" for ${what}: ${got.message}.`,
      node,
      "The path is relative to the flow file.",
    );
    return undefined;
  }
  return got.bytes;
}
