/**
 * The file descriptors server reflection gathers for one service: each one
 * decoded to learn its name and the files it imports, the imports not yet
 * held asked for next, everything bounded by a count of files, and the whole
 * made into one protobufjs `Root`.
 *
 * @module
 */
import type protobuf from "protobufjs";
import { joined, ownWords, told } from "../../model/told.ts";
import { ReflectionError } from "./reflection_error.ts";
import { type DecodedFile, decodeFile, rootOfFiles } from "./reflection_root.ts";

/**
 * The files received so far for the service `symbol` from the server at
 * `target`, at most `maxFiles` of them.
 *
 * @example
 * ```ts
 * import { ReflectionFiles } from "./reflection_files.ts";
 * import descriptor from "protobufjs/ext/descriptor/index.js";
 * const file = (name: string, dependency: string[]) =>
 *   descriptor.FileDescriptorProto.encode({ name, dependency }).finish();
 * const files = new ReflectionFiles("h:1", "a.S", 10);
 * files.add([file("a.proto", ["b.proto"])], "the service");
 * if (files.nextMissing()?.name !== "b.proto") throw new Error("b.proto is asked next");
 * files.add([file("b.proto", [])], "b.proto");
 * if (files.nextMissing() !== undefined || files.count !== 2) throw new Error();
 * ```
 */
export class ReflectionFiles {
  readonly #target: string;
  readonly #symbol: string;
  readonly #maxFiles: number;
  readonly #files = new Map<string, Uint8Array>();
  readonly #asked = new Set<string>();
  readonly #imports: { name: string; by: string }[] = [];

  /** An empty set for `symbol` at `target`. */
  constructor(target: string, symbol: string, maxFiles: number) {
    this.#target = target;
    this.#symbol = symbol;
    this.#maxFiles = maxFiles;
  }

  /** How many files are held. */
  get count(): number {
    return this.#files.size;
  }

  /** Whether a file of that name is held. */
  has(name: string): boolean {
    return this.#files.has(name);
  }

  /**
   * Adds the files of one answer (to `asked`, for messages); throws
   * `bad-descriptor` when one does not decode, `too-many-files` past the bound.
   */
  add(files: readonly Uint8Array[], asked: string): void {
    for (const bytes of files) {
      const file = this.#decode(bytes, asked);
      // A file without a name (a server may omit it) is kept by its place.
      const name = file.name || `(unnamed file ${this.#files.size + 1})`;
      if (this.#files.has(name)) continue;
      this.#files.set(name, bytes);
      if (this.#files.size > this.#maxFiles) {
        throw new ReflectionError(
          "too-many-files",
          joined(
            told`The server at ${this.#target} `,
            ownWords(`sent more than ${this.#maxFiles} files for `),
            told`"${this.#symbol}" (its imports did not end); name the .proto files with proto:.`,
          ),
        );
      }
      for (const dependency of file.dependency ?? []) {
        this.#imports.push({ name: dependency, by: name });
      }
    }
  }

  /** The next file imported but neither held nor asked for yet, and the file that imports it. */
  nextMissing(): { name: string; by: string } | undefined {
    while (this.#imports.length > 0) {
      const next = this.#imports.shift()!;
      if (this.#files.has(next.name) || this.#asked.has(next.name)) continue;
      this.#asked.add(next.name);
      return next;
    }
    return undefined;
  }

  /**
   * The files as one protobufjs `Root` (names and maps as parsed `.proto`
   * files have them); throws `bad-descriptor` when they do not make one.
   */
  root(): protobuf.Root {
    try {
      return rootOfFiles([...this.#files.values()].map(decodeFile));
    } catch (cause) {
      throw new ReflectionError(
        "bad-descriptor",
        told`The files the server at ${this.#target} sent for "${this.#symbol}" do not make a definition: ${
          (cause as Error).message
        }.`,
        { cause },
      );
    }
  }

  #decode(bytes: Uint8Array, asked: string): DecodedFile {
    try {
      return decodeFile(bytes);
    } catch (cause) {
      throw new ReflectionError(
        "bad-descriptor",
        joined(
          told`The server at ${this.#target} answered server reflection for ${asked} `,
          told`with a file descriptor that does not decode (${(cause as Error).message}).`,
        ),
        { cause },
      );
    }
  }
}
