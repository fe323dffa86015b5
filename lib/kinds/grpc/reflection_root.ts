/**
 * File descriptors (as server reflection sends them) made into a protobufjs
 * `Root` that reads messages exactly as the same `.proto` files parsed by
 * protobufjs do: field and oneof names in lowerCamelCase (a server built
 * from compiled files sends `restocked_at`; parsed `.proto` files and
 * proto3's JSON mapping say `restockedAt`), and map fields as maps (protobufjs
 * reads a descriptor's map as a list of `{ key, value }` entries otherwise).
 *
 * @module
 */
import protobuf from "protobufjs";
import descriptor from "protobufjs/ext/descriptor/index.js";

/** The parts of a `DescriptorProto` read here (protobufjs's decoded message). */
interface Message {
  name?: string;
  field?: { name?: string }[];
  extension?: { name?: string }[];
  oneofDecl?: { name?: string }[];
  nestedType?: Message[];
  options?: { mapEntry?: boolean };
}

/** The parts of a `FileDescriptorProto` read here. */
export interface DecodedFile {
  name?: string;
  package?: string;
  dependency?: string[];
  messageType?: Message[];
  extension?: { name?: string }[];
}

/**
 * One `Root` of decoded files. Names are changed in place: pass files
 * decoded for this purpose.
 *
 * @example
 * ```ts
 * import protobuf from "protobufjs";
 * import descriptor from "protobufjs/ext/descriptor/index.js";
 * import { decodeFile, rootOfFiles } from "./reflection_root.ts";
 * // What protoc makes of `message M { map<string, int32> seen_at = 1; }` in package p.
 * const file = {
 *   name: "m.proto",
 *   package: "p",
 *   syntax: "proto3",
 *   messageType: [{
 *     name: "M",
 *     field: [{ name: "seen_at", number: 1, label: 3, type: 11, typeName: ".p.M.SeenAtEntry" }],
 *     nestedType: [{
 *       name: "SeenAtEntry",
 *       field: [
 *         { name: "key", number: 1, label: 1, type: 9 },
 *         { name: "value", number: 2, label: 1, type: 5 },
 *       ],
 *       options: { mapEntry: true },
 *     }],
 *   }],
 * };
 * const bytes = descriptor.FileDescriptorProto.encode(file).finish();
 * const root = rootOfFiles([decodeFile(bytes)]);
 * const field = root.lookupType("p.M").fields.seenAt;
 * if (!(field instanceof protobuf.MapField) || field.keyType !== "string") throw new Error();
 * ```
 */
export function rootOfFiles(files: DecodedFile[]): protobuf.Root {
  const entries: string[] = [];
  for (const file of files) {
    const scope = file.package ? `${file.package}.` : "";
    for (const message of file.messageType ?? []) camelCased(message, scope, entries);
    for (const field of file.extension ?? []) field.name &&= protobuf.util.camelCase(field.name);
  }
  const root = fromDescriptor({ file: files });
  root.resolveAll();
  for (const entry of entries) asMap(root, entry);
  root.resolveAll();
  return root;
}

// protobufjs/ext/descriptor adds this to Root when imported (above), but its
// types do not say so.
const fromDescriptor = (set: { file: DecodedFile[] }): protobuf.Root =>
  (protobuf.Root as unknown as { fromDescriptor(set: unknown): protobuf.Root }).fromDescriptor(set);

/** Renames `message`'s fields and oneofs (and its nested messages'); collects map entry types. */
function camelCased(message: Message, scope: string, entries: string[]): void {
  const fullName = `${scope}${message.name ?? ""}`;
  if (message.options?.mapEntry) entries.push(fullName);
  for (const list of [message.field, message.extension, message.oneofDecl]) {
    for (const item of list ?? []) item.name &&= protobuf.util.camelCase(item.name);
  }
  for (const nested of message.nestedType ?? []) camelCased(nested, `${fullName}.`, entries);
}

/**
 * Replaces the fields of the map entry type `entryName` by map fields, and
 * removes the entry type (a `.proto` file never names it).
 */
function asMap(root: protobuf.Root, entryName: string): void {
  const entry = root.lookup(entryName);
  const parent = entry?.parent;
  if (!(entry instanceof protobuf.Type) || !(parent instanceof protobuf.Type)) return;
  const key = entry.fields.key;
  const value = entry.fields.value;
  if (!key || !value) return;
  for (const field of parent.fieldsArray) {
    if (field.resolvedType !== entry) continue;
    parent.remove(field);
    const map = new protobuf.MapField(field.name, field.id, key.type, value.type, field.options);
    parent.add(map);
  }
  parent.remove(entry);
  // protobufjs's fromDescriptor marks the parent, not the entry, as a map
  // entry: a message that holds a map is not one.
  if (parent.options?.map_entry) {
    delete parent.options.map_entry;
    if (Object.keys(parent.options).length === 0) parent.options = undefined;
  }
}

/**
 * A `FileDescriptorProto` decoded, or protobufjs's error when the bytes are
 * not one.
 *
 * @example
 * ```ts
 * import descriptor from "protobufjs/ext/descriptor/index.js";
 * import { decodeFile } from "./reflection_root.ts";
 * const bytes = descriptor.FileDescriptorProto.encode({ name: "a.proto" }).finish();
 * if (decodeFile(bytes).name !== "a.proto") throw new Error();
 * ```
 */
export function decodeFile(bytes: Uint8Array): DecodedFile {
  return descriptor.FileDescriptorProto.decode(bytes) as DecodedFile;
}
