/**
 * The folders a run's flows may read files from (`include`, check files, `body_file`, multipart
 * files, data files): a flow in a pull request must not be able to include, quote or send any
 * file the machine can read (`include: ../../home/.aws/credentials`). Paths are compared after
 * symbolic links are resolved, so a link inside a folder does not reach outside it. Deno API
 * family: `Deno.cwd`, `Deno.realPathSync`, `Deno.statSync`.
 *
 * @module
 */

/**
 * The folders flows may read, as real absolute paths.
 *
 * @example
 * ```ts
 * import type { FileRoots } from "./file_roots.ts";
 * const roots: FileRoots = { folders: ["/work/project"], given: false };
 * if (roots.folders.length !== 1) throw new Error();
 * ```
 */
export interface FileRoots {
  /** Each folder, real and absolute. */
  readonly folders: readonly string[];
  /**
   * Files the user named on the command line (`--openapi`), real and absolute: a flow may name
   * them wherever they lie.
   */
  readonly files?: readonly string[];
  /** Whether `--file-root` named them (else they were worked out from the run's paths). */
  readonly given: boolean;
}

/**
 * The folders a run's flows may read: the one `--file-root` names, else the working directory
 * for the flows inside it and, for a path given outside it, the folder above the flow files'
 * own folder (so `../common/login.yaml` beside `flows/` can still be included); and the files
 * the user `named` on the command line (`--openapi DOC`), wherever they lie.
 *
 * @example
 * ```ts
 * import { fileRootsFor } from "./file_roots.ts";
 * const roots = fileRootsFor(["."]);
 * if (roots.folders[0] !== Deno.realPathSync(Deno.cwd())) throw new Error(roots.folders.join());
 * ```
 */
export function fileRootsFor(
  paths: readonly string[],
  given?: string,
  named: readonly string[] = [],
): FileRoots {
  const files = named.map((f) => real(f) ?? absolute(f));
  if (given !== undefined) return { folders: [real(given) ?? absolute(given)], files, given: true };
  const cwd = real(Deno.cwd()) ?? Deno.cwd();
  const folders = new Set<string>();
  for (const path of paths.length > 0 ? paths : ["."]) {
    const full = real(path) ?? absolute(path);
    if (inside(full, cwd)) folders.add(cwd);
    else folders.add(parent(isFolder(full) ? full : parent(full)));
  }
  return { folders: [...folders], files, given: false };
}

/**
 * Whether `file` (as a flow names it: relative to the working directory, or absolute) lies
 * outside every folder of `roots`, symbolic links followed.
 *
 * @example
 * ```ts
 * import { outsideFileRoots } from "./file_roots.ts";
 * const roots = { folders: [Deno.realPathSync(Deno.cwd())], given: false };
 * if (outsideFileRoots("deno.json", roots) || !outsideFileRoots("/etc/hostname", roots)) {
 *   throw new Error();
 * }
 * ```
 */
export function outsideFileRoots(file: string, roots: FileRoots): boolean {
  // A path that cannot be resolved (missing, or a kernel file realpath refuses) is judged as
  // written, its `..` resolved.
  const full = real(file) ?? normalize(absolute(file));
  if (roots.files?.includes(full)) return false;
  return !roots.folders.some((folder) => inside(full, folder));
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

function inside(path: string, folder: string): boolean {
  const f = folder.endsWith("/") ? folder : `${folder}/`;
  return path === folder || path.startsWith(f);
}

function real(path: string): string | undefined {
  try {
    return slashes(Deno.realPathSync(path));
  } catch {
    return undefined;
  }
}

function absolute(path: string): string {
  const p = slashes(path);
  return /^([a-zA-Z]:)?\//.test(p) ? p : `${slashes(Deno.cwd())}/${p}`;
}

function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function parent(path: string): string {
  const at = path.replace(/\/+$/, "").lastIndexOf("/");
  return at > 0 ? path.slice(0, at) : "/";
}

/** Only Windows separates with `\`; elsewhere it is a character of the name. */
function slashes(path: string): string {
  return Deno.build.os === "windows" ? path.replaceAll("\\", "/") : path;
}
