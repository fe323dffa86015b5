/**
 * The files a flow sends, in the export: a multipart upload becomes a copy
 * of the file in the export folder (`files/N/NAME`, N counting uploads),
 * which Artillery's `formData` sends with `fromFile` relative to the script,
 * so the folder stays the whole test for a distributed runner; a
 * `body_file` that is text of at most 64 KiB is written into the script as
 * the body. A larger or binary body file is noted.
 *
 * @module
 */
import type { DataFile, MultipartPart } from "../model/flow.ts";
import { note, type Place } from "./scope.ts";

/** Largest body file written into the script as text. */
export const MAX_INLINE_BODY = 64 * 1024;

/**
 * The `formData` value of an uploaded file: its copy, named as the upload
 * names it (a name that is not a plain file name is made one, and noted).
 *
 * @example
 * ```ts
 * import { uploadField } from "./files.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * const file = { path: "a/n.txt", bytes: new Uint8Array([104, 105]) };
 * const field = uploadField({ name: "doc", kind: "file", file, contentType: "text/plain", filename: "n.txt" }, place);
 * if (field.fromFile !== "./files/1/n.txt" || !place.scope.files.has("files/1/n.txt")) throw new Error();
 * ```
 */
export function uploadField(
  part: Extract<MultipartPart, { kind: "file" }>,
  place: Place,
): { fromFile: string; contentType: string } {
  const name = part.filename.replace(/[^\w.-]/g, "_").replace(/^\.+/, "_") || "file";
  if (name !== part.filename) {
    note(place, `the upload "${part.filename}" of part "${part.name}" is sent named "${name}"`);
  }
  const path = `files/${place.scope.files.size + 1}/${name}`;
  place.scope.files.set(path, part.file.bytes);
  return { fromFile: `./${path}`, contentType: part.contentType };
}

/**
 * A body file as the request's text body, or undefined (noted) when it is
 * not UTF-8 text or larger than {@linkcode MAX_INLINE_BODY}.
 *
 * @example
 * ```ts
 * import { bodyFileText } from "./files.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * if (bodyFileText({ path: "n.txt", bytes: new TextEncoder().encode("hi\n") }, place) !== "hi\n") throw new Error();
 * if (bodyFileText({ path: "b.bin", bytes: new Uint8Array([0xff]) }, place) !== undefined) throw new Error();
 * ```
 */
export function bodyFileText(file: DataFile, place: Place): string | undefined {
  if (file.bytes.length <= MAX_INLINE_BODY) {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(file.bytes);
    } catch {
      // Not text: noted below.
    }
  }
  note(
    place,
    `the body file ${file.path} is not sent (only text of at most 64 KiB is written into the script)`,
  );
  return undefined;
}
