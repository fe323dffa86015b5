/**
 * A gRPC step's `proto` (a file or a list) and `import_paths`, read
 * through the loader (so a missing file is a positioned problem) and parsed
 * with {@linkcode parseProtos}; a parse error is one problem at `proto`,
 * quoting protobufjs's message.
 *
 * @module
 */
import type { Node } from "yaml";
import { isSeq } from "../yaml_nodes.ts";
import type { KindEntry, KindReading } from "../kind.ts";
import { parseProtos, type ProtoFile } from "./protos.ts";
import type protobuf from "protobufjs";

/**
 * The root of the step's `.proto` files, or `undefined` after a problem.
 *
 * @example
 * ```ts
 * import { readProtos } from "./read_protos.ts";
 * if (typeof readProtos !== "function") throw new Error();
 * ```
 */
export function readProtos(
  proto: KindEntry,
  importPaths: KindEntry | undefined,
  reading: KindReading,
): protobuf.Root | undefined {
  const nodes = isSeq(proto.value) ? proto.value.items as Node[] : [proto.value];
  const files: ProtoFile[] = [];
  for (const node of nodes) {
    const file = reading.readFile(node, `"proto" of a grpc step`);
    if (file) files.push(file);
  }
  const dirs = importPaths ? readImportPaths(importPaths, reading) : [];
  if (files.length < nodes.length || !dirs) return undefined;
  const parsed = parseProtos(files, dirs);
  if ("root" in parsed) return parsed.root;
  reading.problem(
    "bad-proto",
    `The .proto files of this grpc step do not parse: ${parsed.message}.`,
    proto.value,
    "Fix the .proto file, or list the folders its imports are in under import_paths.",
  );
  return undefined;
}

/** The folders of `import_paths`, relative to the flow file's folder. */
function readImportPaths(entry: KindEntry, reading: KindReading): string[] | undefined {
  const value = reading.plain(entry.value);
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((p) => typeof p !== "string" || p === "")) {
    reading.problem(
      "wrong-type",
      `Expected "import_paths" of a grpc step to be a list of folders, got ${
        JSON.stringify(value)
      }.`,
      entry.value,
      "Write folders relative to the flow file: import_paths: [protos].",
    );
    return undefined;
  }
  const slash = reading.file.lastIndexOf("/");
  const base = slash < 0 ? "." : reading.file.slice(0, slash);
  return (list as string[]).map((p) => p.startsWith("/") ? p : `${base}/${p}`.replace(/\/+$/, ""));
}
