/**
 * What a `$ref` names: a JSON pointer in the same file (`#/components/…`),
 * or another file (`schemas/pet.yaml`, `other.yaml#/components/schemas/X`)
 * relative to the referring file. A URL, or a file outside the folder tree
 * of the document, is refused: converting never reaches the network, and a
 * document cannot make it read `/etc/passwd`.
 *
 * @module
 */
import { UsageError } from "../../model/errors.ts";
import { isNode } from "../../check/openapi_operations.ts";
import { clipQuoted } from "../summary_lines.ts";

/** A `$ref`'s target: a file (absolute, `/`-separated) and a pointer in it (`/a/b`, or "" for all). */
export interface Target {
  file: string;
  pointer: string;
}

/**
 * A path with its `.` and `..` segments resolved (`/`-separated).
 *
 * @example
 * ```ts
 * import { normalize } from "./refs.ts";
 * if (normalize("/a/b/../c/./d.yaml") !== "/a/c/d.yaml") throw new Error();
 * ```
 */
export function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") {
      if (out.length > 1) out.pop();
    } else if (part !== "." && (part !== "" || out.length === 0)) out.push(part);
  }
  return out.join("/");
}

/**
 * The folder of a file path.
 *
 * @example
 * ```ts
 * import { dirname } from "./refs.ts";
 * if (dirname("/a/b/c.yaml") !== "/a/b") throw new Error();
 * ```
 */
export function dirname(path: string): string {
  return path.slice(0, Math.max(path.lastIndexOf("/"), 0));
}

/**
 * Where a `$ref` written in `file` points, within the folder tree `root`;
 * a URL or a path out of the tree is a usage error naming where it is.
 *
 * @example
 * ```ts
 * import { refTarget } from "./refs.ts";
 * const t = refTarget("schemas/pet.yaml#/Pet", "/api/openapi.yaml", "/api", "openapi.yaml#/paths");
 * if (t.file !== "/api/schemas/pet.yaml" || t.pointer !== "/Pet") throw new Error();
 * if (refTarget("#/a", "/api/x.yaml", "/api", "").file !== "/api/x.yaml") throw new Error();
 * ```
 */
export function refTarget(ref: string, file: string, root: string, where: string): Target {
  const hash = ref.indexOf("#");
  const part = hash < 0 ? ref : ref.slice(0, hash);
  const pointer = hash < 0 ? "" : decodePointer(ref.slice(hash + 1));
  if (part === "") return { file, pointer };
  if (/^[a-z][a-z0-9+.-]*:/i.test(part) || part.startsWith("//")) {
    throw refError(
      `The $ref "${ref}" at ${where} is a URL; convert openapi reads no network.`,
      "Download the file beside the document and refer to it by its relative path.",
    );
  }
  const target = normalize(part.startsWith("/") ? part : `${dirname(file)}/${part}`);
  if (!target.startsWith(`${root}/`)) {
    throw refError(
      `The $ref "${ref}" at ${where} names a file outside the document's folder ${root}.`,
      "Keep every file of the document in its folder or below, and refer to them relatively.",
    );
  }
  return { file: target, pointer };
}

function decodePointer(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/**
 * The value at a JSON pointer of a parsed file, or undefined when there is none.
 *
 * @example
 * ```ts
 * import { atPointer } from "./refs.ts";
 * if (atPointer({ a: { "b/c": [1, 2] } }, "/a/b~1c/1") !== 2) throw new Error();
 * if (atPointer({ a: 1 }, "/constructor") !== undefined) throw new Error();
 * ```
 */
export function atPointer(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let node = root;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key)) node = node[Number(key)];
    else if (isNode(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * A JSON pointer of path segments.
 *
 * @example
 * ```ts
 * import { pointerOf } from "./refs.ts";
 * if (pointerOf(["paths", "/pets/{id}", "get"]) !== "/paths/~1pets~1{id}/get") throw new Error();
 * ```
 */
export function pointerOf(segments: readonly string[]): string {
  return segments.map((s) => `/${s.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/**
 * A problem with a document's `$ref`s, as a usage error (exit 2).
 *
 * @example
 * ```ts
 * import { refError } from "./refs.ts";
 * if (refError("No.", "Fix.").code !== "bad-openapi-ref") throw new Error();
 * ```
 */
export function refError(message: string, hint: string): UsageError {
  return new UsageError("bad-openapi-ref", clipQuoted(message), hint);
}
