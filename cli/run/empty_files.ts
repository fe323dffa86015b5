/**
 * A warning on every run for each file a step sends that is empty: a body
 * (`body_file`) or a form's file part of no bytes is most often a
 * placeholder waiting for its content (`convert curl` and `convert postman`
 * write an empty one for a file a command or a collection sends that was
 * not there), and the server may well accept an empty body, so the step
 * passes without having sent what it was written for. Said on every run,
 * it is never silent. A file part named `filename: ""` is no placeholder:
 * it is a file input the user left empty, sent as the browser sent it.
 *
 * @module
 */
import { dirname, isAbsolute, join } from "node:path/posix";
import { everyStep, type Flow } from "../../lib/model/flow.ts";

/** Most steps named one by one; the rest are counted. */
const SHOWN = 10;

/**
 * The warning naming each step that sends an empty file, `undefined` when
 * none does.
 *
 * @example
 * ```ts
 * import { emptyFilesWarning } from "./empty_files.ts";
 * import type { Flow } from "../../lib/model/flow.ts";
 * const empty = { path: "cpu_data.txt", bytes: new Uint8Array() };
 * const flow = { file: "out/flow.yaml", steps: [{ name: "write", request: { bodyFile: empty } }] };
 * const text = emptyFilesWarning([flow as unknown as Flow]) ?? "";
 * if (!text.startsWith("warning[empty-file]: ") || !text.includes('of out/flow.yaml sends out/cpu_data.txt')) {
 *   throw new Error(text);
 * }
 * if (emptyFilesWarning([]) !== undefined) throw new Error();
 * const unchosen = { kind: "file", file: empty, contentType: "application/octet-stream", filename: "" };
 * const form = { file: "out/flow.yaml", steps: [{ name: "save", request: { multipart: [unchosen] } }] };
 * if (emptyFilesWarning([form as unknown as Flow]) !== undefined) throw new Error();
 * ```
 */
export function emptyFilesWarning(flows: readonly Flow[]): string | undefined {
  const found: string[] = [];
  for (const flow of flows) {
    const steps = [...everyStep([flow])].map(({ step }) => step);
    for (const step of steps) {
      for (const path of emptyFiles(step.request)) {
        // Named from the working directory (flow files are named with `/` there), not the flow.
        const shown = isAbsolute(path) ? path : join(dirname(flow.file), path);
        found.push(`step "${step.name}" of ${flow.file} sends ${shown}`);
      }
    }
  }
  if (found.length === 0) return undefined;
  const more = found.length > SHOWN ? `; and ${found.length - SHOWN} more` : "";
  return `warning[empty-file]: ${found.slice(0, SHOWN).join("; ")}${more}, ${
    found.length === 1 ? "which is" : "each"
  } empty (0 bytes).\n  hint: Put the file's content there (a converter writes an empty placeholder for a file that was not there), or send no body.\n`;
}

/** The paths of the empty files one request sends. */
function emptyFiles(request: Flow["steps"][number]["request"] | undefined): string[] {
  if (!request) return [];
  const files = [
    ...(request.bodyFile ? [request.bodyFile] : []),
    // A part named `filename: ""` is a file input left empty: the browser sends no byte there,
    // and `convert har` writes it so on purpose. Nothing is waiting for content.
    ...(request.multipart ?? []).flatMap((p) =>
      p.kind === "file" && p.filename !== "" ? [p.file] : []
    ),
  ];
  return files.filter((f) => f.bytes.length === 0).map((f) => f.path);
}
