/**
 * A file the export writes beside the script for the processor to read (a
 * gRPC step's `.proto` root, a CA certificate), kept once: the same bytes
 * met again are the same file.
 *
 * @module
 */
import type { ExportScope } from "./scope.ts";

/**
 * The path of `bytes` in the export: `DIR/N.EXT`, N counting the folder's
 * files, written into the scope's files the first time these bytes are met.
 *
 * @example
 * ```ts
 * import { dataFile } from "./data_file.ts";
 * import { newScope } from "./scope.ts";
 * const scope = newScope();
 * const bytes = new TextEncoder().encode("{}");
 * if (dataFile(scope, "protos", "json", bytes) !== "protos/1.json") throw new Error();
 * if (dataFile(scope, "protos", "json", bytes.slice()) !== "protos/1.json") throw new Error();
 * if (dataFile(scope, "tls", "pem", bytes) !== "tls/1.pem") throw new Error();
 * ```
 */
export function dataFile(scope: ExportScope, dir: string, ext: string, bytes: Uint8Array): string {
  const same = (known: Uint8Array) =>
    known.length === bytes.length && known.every((b, i) => b === bytes[i]);
  const inDir = [...scope.files.keys()].filter((p) => p.startsWith(`${dir}/`));
  const found = inDir.find((path) => path.endsWith(`.${ext}`) && same(scope.files.get(path)!));
  if (found) return found;
  const path = `${dir}/${inDir.length + 1}.${ext}`;
  scope.files.set(path, bytes);
  return path;
}
