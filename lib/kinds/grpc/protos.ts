/**
 * The `.proto` files a gRPC step names, parsed into one protobufjs `Root`:
 * the files' own text as the loader read it, their imports found in the
 * step's `import_paths` (then beside the importing file), Google's
 * well-known types from protobufjs's bundled copies. Imports are read with
 * {@linkcode readBytesSync} (bounded like every input file) and counted, so
 * a cycle or a huge tree of imports ends.
 *
 * @module
 */
import protobuf from "protobufjs";
import { readBytesSync } from "../../io/read.ts";

/** The most files one step's protos may pull in, imports included. */
export const MAX_PROTO_FILES = 200;

/** Roots already parsed, by their files' paths and text and the import folders; the oldest dropped. */
const parsedRoots = new Map<string, protobuf.Root>();
const MAX_ROOTS = 32;

/** A `.proto` file read by the loader: its resolved path and its text. */
export interface ProtoFile {
  path: string;
  text: string;
}

/**
 * Parses `files` and their imports into one resolved root, or says why not
 * in a sentence quoting protobuf's own message. The same files (path and
 * text) and folders give the same root again without parsing: their imports
 * are read once per process.
 *
 * @example
 * ```ts
 * import { parseProtos } from "./protos.ts";
 * const root = parseProtos([{ path: "a.proto", text: 'syntax = "proto3"; message A { int32 n = 1; }' }], []);
 * if (!("root" in root) || !root.root.lookupType("A")) throw new Error();
 * const bad = parseProtos([{ path: "b.proto", text: "message {" }], []);
 * if (!("message" in bad)) throw new Error();
 * ```
 */
export function parseProtos(
  files: readonly ProtoFile[],
  importDirs: readonly string[],
): { root: protobuf.Root } | { message: string } {
  // A flow is read again before it runs (and in each worker): parsing its protos and generating
  // their codecs again for every step cost more than the calls themselves (bench/grpc.ts).
  // NUL is in no path and no .proto text, and the count says where the folders begin.
  const key = [files.length, ...files.flatMap((f) => [f.path, f.text]), ...importDirs].join("\0");
  const known = parsedRoots.get(key);
  if (known) return { root: known };
  const parsed = parseAll(files, importDirs);
  if ("root" in parsed) {
    if (parsedRoots.size >= MAX_ROOTS) parsedRoots.delete(parsedRoots.keys().next().value!);
    parsedRoots.set(key, parsed.root);
  }
  return parsed;
}

function parseAll(
  files: readonly ProtoFile[],
  importDirs: readonly string[],
): { root: protobuf.Root } | { message: string } {
  const root = new protobuf.Root();
  const seen = new Set<string>();
  const queue: { path: string; text: string }[] = [...files];
  try {
    for (let file = queue.shift(); file; file = queue.shift()) {
      if (seen.has(file.path)) continue;
      seen.add(file.path);
      if (seen.size > MAX_PROTO_FILES) {
        return { message: `more than ${MAX_PROTO_FILES} files are imported` };
      }
      // protobufjs names the file in its parse errors when told which one it reads.
      (protobuf.parse as { filename?: string | null }).filename = file.path;
      const parsed = protobuf.parse(file.text, root, { keepCase: false });
      for (const name of [...parsed.imports ?? [], ...parsed.weakImports ?? []]) {
        const got = importedFile(root, name, file.path, importDirs, seen);
        if (typeof got === "string") return { message: got };
        if (got) queue.push(got);
      }
    }
    root.resolveAll();
    return { root };
  } catch (error) {
    return { message: (error as Error).message };
  } finally {
    (protobuf.parse as { filename?: string | null }).filename = null;
  }
}

/**
 * An import: added to `root` at once when protobufjs bundles it (the
 * well-known types), else read from the first folder that holds it;
 * `undefined` when already read, a sentence when no folder holds it.
 */
function importedFile(
  root: protobuf.Root,
  name: string,
  from: string,
  importDirs: readonly string[],
  seen: Set<string>,
): ProtoFile | string | undefined {
  const bundled = protobuf.common.get(name) as { nested?: protobuf.INamespace["nested"] } | null;
  if (bundled) {
    if (!seen.has(name) && bundled.nested) root.addJSON(bundled.nested);
    seen.add(name);
    return undefined;
  }
  const beside = from.includes("/") ? from.slice(0, from.lastIndexOf("/")) : ".";
  const tried: string[] = [];
  for (const dir of [...importDirs, beside]) {
    const path = name.startsWith("/") ? name : `${dir}/${name}`;
    if (seen.has(path)) return undefined;
    tried.push(dir);
    try {
      return { path, text: new TextDecoder().decode(readBytesSync(path)) };
    } catch {
      // Not in this folder: the next one may hold it.
    }
  }
  return `"${from}" imports "${name}", which none of ${
    tried.map((d) => `"${d}"`).join(", ")
  } holds`;
}
