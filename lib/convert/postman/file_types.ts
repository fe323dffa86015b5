/**
 * The content type of a form-data file part as Newman sends it: the one the
 * collection gives the part, else its form-data's (mime-types) by the
 * file's name. A flow's file part is typed by its path, which for a
 * placeholder may not end as the file's name does (`app.yaml.upload`).
 *
 * @module
 */
import { CONTENT_TYPES } from "../../load/body.ts";
import { table } from "../table.ts";

/**
 * mime-types' content types (Newman's, by extension) for the files collections upload: the ones
 * a flow's file part is typed by (lib/load/body.ts), and more.
 */
const BY_EXTENSION = table<string>({
  ...CONTENT_TYPES,
  yaml: "text/yaml",
  yml: "text/yaml",
  log: "text/plain",
  ini: "text/plain",
  md: "text/markdown",
  htm: "text/html",
  js: "application/javascript",
  toml: "application/toml",
  gz: "application/gzip",
  tar: "application/x-tar",
  wasm: "application/wasm",
});

const extension = (name: string) => /\.([^./\\]+)$/.exec(name)?.[1].toLowerCase() ?? "";

/**
 * The `content_type` a flow's file part at `path` needs to go out as Newman
 * sends the collection's file `src`, with the part's own `contentType`
 * (`given`); `undefined` when the flow types it the same by its path.
 *
 * @example
 * ```ts
 * import { partType } from "./file_types.ts";
 * if (partType("./test/app.yaml", "files/app.yaml.upload") !== "text/yaml") throw new Error();
 * if (partType("/home/me/pic.png", "files/pic.png") !== undefined) throw new Error();
 * if (partType("a.png", "files/a.png", "image/x-png") !== "image/x-png") throw new Error();
 * ```
 */
export function partType(src: string, path: string, given?: string): string | undefined {
  if (given) return given;
  const ext = extension(src);
  const type = BY_EXTENSION[ext];
  if (type === undefined) return undefined;
  return Object.hasOwn(CONTENT_TYPES, ext) && extension(path) === ext ? undefined : type;
}
