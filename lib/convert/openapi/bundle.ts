/**
 * An OpenAPI document and every file its `$ref`s name, read and made into
 * one document whose `$ref`s are all local: a target in another file is
 * copied once under `x-bundled` (a recursive schema stays a `$ref` to its
 * copy, so nothing loops), a path item kept in another file is put in
 * place (so its operations are seen). The conversion reads only this
 * bundle; the `openapi:` checks of the flows read it too when the document
 * was more than one file, since they resolve local `$ref`s only.
 *
 * Bounded: at most {@linkcode MAX_OPENAPI_FILES} files of {@linkcode MAX_OPENAPI_BYTES} in all,
 * chains of at most
 * {@linkcode MAX_FILE_CHAIN} files, each file read by the caller's reader
 * (the document size cap) and parsed with the project's YAML limits.
 *
 * @module
 */
import { UsageError } from "../../model/errors.ts";
import { yamlEngine } from "../../load/yaml_engine.ts";
import { readNested } from "./nesting.ts";
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { MAX_FILE_CHAIN, MAX_OPENAPI_BYTES, MAX_OPENAPI_FILES } from "./limits.ts";
import { atPointer, dirname, pointerOf, refError, refTarget, type Target } from "./refs.ts";
import { dropUnusedDangling } from "./used_parts.ts";
import { inlinePathItems } from "./path_items.ts";
import { dropUnnamedRefs } from "../../load/unnamed_refs.ts";
import { pointEmbeddedRefs } from "../../load/embedded_refs.ts";
import { nameBareContent } from "../../load/bare_content.ts";
import { placeSlippedPaths } from "../../load/slipped_paths.ts";

/** Reads one file: its bytes, or why it cannot be read. */
export type ReadFile = (path: string) => Promise<Uint8Array | { why: string }>;

/** A document made one: its bundle, whether other files took part, and which. */
export interface Bundled {
  document: Node;
  /** Files other than the document, in the order they were first named. */
  files: string[];
  /** The operations left out, each reaching a `$ref` to nothing (`broken_refs.ts`). */
  broken?: string[];
}

// Values that are data, not schema: a "$ref" key inside them is no reference.
const DATA_KEYS = new Set(["example", "examples", "default", "enum", "const"]);

// Maps whose keys are names (a property may be named "example" or "$ref"): their values are
// schemas or objects of the document, whatever the key.
const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "schemas",
  "paths",
  "responses",
  "content",
  "parameters",
  "requestBodies",
  "headers",
  "encoding",
  "securitySchemes",
  "callbacks",
  "links",
  "pathItems",
]);

/**
 * Whether a key holds OpenAPI's `examples` map (of a media type or parameter), whose entries may
 * be `$ref`s; JSON Schema's `examples` is a list, and data.
 */
function isExampleMap(key: string, value: unknown, names: boolean): value is Node {
  return !names && key === "examples" && isNode(value);
}

/**
 * Whether a key holds the `example` of a media type or parameter (at `where`) that is nothing but
 * a `$ref`: OpenAPI reads an example as data, but documents write one to share an example
 * (DigitalOcean's), and bundlers follow it. A schema's `example` stays data.
 */
function isExampleRef(
  key: string,
  value: unknown,
  names: boolean,
  where: string[],
): value is { $ref: string } {
  const parent = where.at(-2);
  return !names && key === "example" && (parent === "content" || parent === "parameters") &&
    isNode(value) && typeof value.$ref === "string" && Object.keys(value).length === 1;
}

/** The `$ref`s of an `examples` map: the map's own, or its entries'. */
function exampleRefs(map: Node, where: string[]): [string, string[]][] {
  if (typeof map.$ref === "string") return [[map.$ref, where]];
  return Object.entries(map).flatMap(([name, entry]): [string, string[]][] =>
    isNode(entry) && typeof entry.$ref === "string" ? [[entry.$ref, [...where, name]]] : []
  );
}

/**
 * The `$ref`s of a discriminator's `mapping` (a value that is a reference, not a schema's bare
 * name: `./Beverage.yaml`, `#/components/schemas/Beverage`), with where each is: a bundle
 * rewrites them as it rewrites `$ref`s, or the generator named a branch by its bundled key.
 */
function mappingRefs(key: string, value: unknown, where: string[]): [string, string[]][] {
  if (key !== "mapping" || where.at(-1) !== "discriminator" || !isNode(value)) return [];
  return Object.entries(value).flatMap(([name, ref]): [string, string[]][] =>
    typeof ref === "string" && /[/#]|\.(ya?ml|json)$/i.test(ref)
      ? [[ref, [...where, key, name]]]
      : []
  );
}

/** Whether a key of an object holds data (not followed), given whether the object is a map of names. */
function isData(key: string, names: boolean): boolean {
  return !names && DATA_KEYS.has(key);
}

/** A parsed file and the length of the chain of files that named it. */
interface Loaded {
  root: unknown;
  chain: number;
}

/** Reads the files of a document; bundles them. */
class Bundler {
  readonly loaded = new Map<string, Loaded>();
  readonly order: string[] = [];
  /** Bytes of every file read so far, the document's own not included. */
  bytes = 0;
  readonly bundled: Node = {};
  readonly #keys = new Map<string, string>();
  readonly #names = new Set<string>();

  constructor(
    readonly main: string,
    readonly root: string,
    readonly read: ReadFile,
    readonly show: (file: string) => string,
  ) {}

  /** Reads every file the `$ref`s of `file` name, breadth first. */
  async crawl(file: string): Promise<void> {
    const queue = [file];
    for (let i = 0; i < queue.length; i++) {
      const current = queue[i];
      for (const [ref, where] of refsOf(this.loaded.get(current)!.root)) {
        const at = `${this.show(current)}#${pointerOf(where)}`;
        const target = refTarget(ref, current, this.root, at);
        if (this.loaded.has(target.file)) continue;
        await this.load(target.file, this.loaded.get(current)!.chain + 1, at, ref);
        queue.push(target.file);
      }
    }
  }

  async load(file: string, chain: number, at: string, ref: string): Promise<void> {
    if (this.loaded.size >= MAX_OPENAPI_FILES || chain > MAX_FILE_CHAIN) {
      throw refError(
        `The $ref "${ref}" at ${at} would read more than ${
          chain > MAX_FILE_CHAIN ? `a chain of ${MAX_FILE_CHAIN}` : MAX_OPENAPI_FILES
        } files, the limit of convert openapi.`,
        "Bundle the document into fewer files first.",
      );
    }
    const bytes = await this.read(file);
    if (bytes instanceof Uint8Array) this.bytes += bytes.length;
    if (this.bytes > MAX_OPENAPI_BYTES) {
      throw refError(
        `The $ref "${ref}" at ${at} would read more than ${
          MAX_OPENAPI_BYTES / 1024 / 1024
        } MiB of files in all, the limit of convert openapi.`,
        "Convert a part of the API: a document that names only the paths you test.",
      );
    }
    const parsed = bytes instanceof Uint8Array ? readNested(bytes, file) : bytes;
    if ("why" in parsed) {
      throw refError(
        `Cannot read "${this.show(file)}", which the $ref "${ref}" at ${at} names: ${parsed.why}.`,
        "Check the path; a $ref is relative to the file it is written in.",
      );
    }
    this.loaded.set(file, { root: parsed.document, chain });
    this.order.push(file);
  }

  /** The value a target names, or a usage error naming where it was referenced. */
  lookup(target: Target, ref: string, at: string): unknown {
    const value = atPointer(this.loaded.get(target.file)?.root, target.pointer);
    if (value === undefined) {
      throw refError(
        `The $ref "${ref}" at ${at} points to nothing: ${this.show(target.file)} has no "${
          target.pointer || "/"
        }".`,
        "Check the name after #; JSON pointers are case-sensitive and escape / as ~1.",
      );
    }
    return value;
  }

  /** A copy of `node` (from `file`, at `where`) whose `$ref`s are local to the bundle. */
  copy(node: unknown, file: string, where: string[], names = false): unknown {
    if (Array.isArray(node)) return node.map((v, i) => this.copy(v, file, [...where, String(i)]));
    if (!isNode(node)) return node;
    const out: Node = {};
    for (const key of Object.keys(node)) {
      const value = node[key];
      const mapped = names ? [] : mappingRefs(key, value, where);
      if (!names && key === "$ref" && typeof value === "string") {
        out.$ref = this.localRef(value, file, where);
      } else if (mapped.length > 0) {
        const mapping: Node = { ...(value as Node) };
        for (const [ref, at] of mapped) {
          mapping[at.at(-1)!] = this.mappedRef(ref, file, at);
        }
        out[key] = mapping;
      } else if (isExampleMap(key, value, names)) {
        out[key] = this.copyExamples(value, file, [...where, key]);
      } else if (isExampleRef(key, value, names, where)) {
        out[key] = { $ref: this.localRef(value.$ref, file, [...where, key]) };
      } else if (isData(key, names)) {
        out[key] = value;
      } else {
        out[key] = this.copy(value, file, [...where, key], !names && NAME_MAPS.has(key));
      }
    }
    return out;
  }

  /**
   * An OpenAPI `examples` map: itself a `$ref` (as DigitalOcean writes it), or entries that are
   * `$ref`s or example objects, whose `value` is data and copied as it is.
   */
  copyExamples(map: Node, file: string, where: string[]): Node {
    if (typeof map.$ref === "string") return { $ref: this.localRef(map.$ref, file, where) };
    const out: Node = {};
    for (const [name, entry] of Object.entries(map)) {
      out[name] = isNode(entry) && typeof entry.$ref === "string"
        ? { $ref: this.localRef(entry.$ref, file, [...where, name]) }
        : entry;
    }
    return out;
  }

  /**
   * A mapping's reference made local when it names a schema of a file read already; else kept as
   * written: a mapping only names branches a oneOf holds, and one that points nowhere (a
   * `#/components/…` written in a file of its own) must not refuse a document that converted.
   */
  mappedRef(ref: string, file: string, where: string[]): string {
    try {
      const target = refTarget(ref, file, this.root, "");
      const found = atPointer(this.loaded.get(target.file)?.root, target.pointer) !== undefined;
      return found ? this.localRef(ref, file, where) : ref;
    } catch {
      return ref;
    }
  }

  localRef(ref: string, file: string, where: string[]): string {
    const at = `${this.show(file)}#${pointerOf(where)}`;
    const target = refTarget(ref, file, this.root, at);
    const value = this.lookup(target, ref, at);
    if (target.file === this.main) return `#${pointerOf(pointerSegments(target.pointer))}`;
    const id = `${target.file}#${target.pointer}`;
    let name = this.#keys.get(id);
    if (name === undefined) {
      name = this.#name(target);
      this.#keys.set(id, name);
      // Set before copying: a schema that refers to itself finds its own name.
      this.bundled[name] = null;
      this.bundled[name] = this.copy(value, target.file, pointerSegments(target.pointer));
    }
    return `#${pointerOf(["x-bundled", name])}`;
  }

  #name(target: Target): string {
    const file = target.file.slice(this.root.length + 1).replace(/\.(ya?ml|json)$/i, "");
    const last = target.pointer.split("/").at(-1);
    const base = (last ? `${file}_${last}` : file).replace(/[^A-Za-z0-9_.-]+/g, "_");
    let name = base;
    for (let n = 2; this.#names.has(name); n++) name = `${base}_${n}`;
    this.#names.add(name);
    return name;
  }
}

function pointerSegments(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer.slice(1).split("/").map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** Every `$ref` of a parsed file with where it is, outside data values; iterative. */
function refsOf(root: unknown): [string, string[]][] {
  const found: [string, string[]][] = [];
  const stack: [unknown, string[], boolean][] = [[root, [], false]];
  while (stack.length > 0) {
    const [node, where, names] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((v, i) => stack.push([v, [...where, String(i)], false]));
    } else if (isNode(node)) {
      for (const key of Object.keys(node)) {
        const value = node[key];
        if (!names && key === "$ref" && typeof value === "string") found.push([value, where]);
        else if (isExampleMap(key, value, names)) {
          found.push(...exampleRefs(value, [...where, key]));
        } else if (isExampleRef(key, value, names, where)) {
          found.push([value.$ref, [...where, key]]);
        } else if (!isData(key, names)) {
          stack.push([value, [...where, key], !names && NAME_MAPS.has(key)]);
        }
      }
    }
  }
  return found.reverse();
}

/**
 * Reads a document at `path` (absolute, `/`-separated) and the files its
 * `$ref`s name, and gives it as one document with local `$ref`s only.
 * `check` sees the parsed document before any other file is read (to
 * refuse what is no OpenAPI 3 document first); `show` is how a file is
 * named in messages.
 *
 * @example
 * ```ts
 * import { bundleDocument } from "./bundle.ts";
 * const files: Record<string, string> = {
 *   "/api/openapi.yaml": "openapi: 3.1.0\npaths: {}\ncomponents: {schemas: {Pet: {$ref: 'pet.yaml'}}}\n",
 *   "/api/pet.yaml": "type: object\nproperties: {child: {$ref: '#'}}\n",
 * };
 * const read = (p: string) => Promise.resolve(new TextEncoder().encode(files[p]));
 * const got = await bundleDocument("/api/openapi.yaml", read, () => {}, (f) => f);
 * const pet = (got.document["x-bundled"] as Record<string, { properties: { child: { $ref: string } } }>).pet;
 * if (pet.properties.child.$ref !== "#/x-bundled/pet" || got.files[0] !== "/api/pet.yaml") throw new Error();
 * ```
 */
export async function bundleDocument(
  path: string,
  read: ReadFile,
  check: (document: unknown) => void,
  show: (file: string) => string,
): Promise<Bundled> {
  // Any file may be YAML, whatever its name: the parser is loaded once, up front.
  await yamlEngine.load();
  const bundler = new Bundler(path, dirname(path), read, show);
  const bytes = await read(path);
  const parsed = bytes instanceof Uint8Array ? readNested(bytes, path) : bytes;
  if ("why" in parsed) {
    throw new UsageError(
      "bad-openapi",
      `Cannot read "${show(path)}" as an OpenAPI document: ${parsed.why}.`,
      "Give the OpenAPI 3 document of the API, as JSON or YAML.",
    );
  }
  check(parsed.document);
  bundler.loaded.set(path, { root: parsed.document, chain: 1 });
  placeSlippedPaths(parsed.document); // slipped_paths.ts: before any pointer is read
  // Named first: the rewritten pointers then name where the schema stays.
  nameBareContent(parsed.document);
  pointEmbeddedRefs(parsed.document);
  dropUnnamedRefs(parsed.document);
  const broken = dropUnusedDangling(parsed.document);
  await bundler.crawl(path);
  const copied = bundler.copy(parsed.document, path, []) as Node;
  const document = bundler.order.length === 0
    ? copied
    : { ...copied, "x-bundled": bundler.bundled };
  inlinePathItems(document);
  return { document, files: bundler.order, ...(broken.length > 0 ? { broken } : {}) };
}
