/**
 * A recording's bodies that Playwright kept in files beside it (`recordHar` with
 * `content: "attach"`), read and put back in place before converting
 * (lib/convert/har_attached.ts); a file that is not there is said once, by name.
 *
 * @module
 */
import { attachedNames, inlineAttached } from "../lib/convert/har_attached.ts";
import { MAX_RECORDING_BYTES } from "../lib/model/limits.ts";

/**
 * `bytes` (the recording at `path`) with every attached body read from `path`'s folder; the
 * note naming the files that could not be read, when some could not.
 *
 * @example
 * ```ts ignore
 * import * as io from "../lib/io/mod.ts";
 * import { withAttachedBodies } from "./convert_attached.ts";
 * const path = "rec/journey.har";
 * const { bytes } = await withAttachedBodies(io, path, await io.readBytes(path));
 * ```
 */
export async function withAttachedBodies(
  io: typeof import("../lib/io/mod.ts"),
  path: string,
  bytes: Uint8Array,
): Promise<{ bytes: Uint8Array; note?: string }> {
  const names = attachedNames(bytes);
  if (names.length === 0) return { bytes };
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
  const files = new Map<string, Uint8Array>();
  await Promise.all(names.map(async (name) => {
    const body = await io.readBytes(`${dir}/${name}`, { limit: MAX_RECORDING_BYTES }).catch(
      () => undefined,
    );
    if (body !== undefined) files.set(name, body);
  }));
  const inlined = inlineAttached(bytes, files);
  if (inlined.missing.length === 0) return { bytes: inlined.bytes };
  const shown = inlined.missing.slice(0, 3).map((n) => `"${n}"`).join(", ");
  const more = inlined.missing.length > 3 ? ` and ${inlined.missing.length - 3} more` : "";
  return {
    bytes: inlined.bytes,
    note:
      `note: The recording "${path}" keeps ${inlined.missing.length} of its bodies in files that are not beside it (${shown}${more}); those requests are sent without their body and their answers are not checked. Convert it in the folder Playwright wrote it to, or record with content: "embed".\n`,
  };
}
