/**
 * File-system fixtures for the I/O tests: temporary folders, their listing,
 * a SHA-256 to compare bytes by, and a tmpfs mounted where the machine
 * allows it (Linux, as root) for real full and read-only file systems; and
 * whether a path exists, for the real servers' installs.
 */
import { createHash } from "node:crypto";

export const isLinux = Deno.build.os === "linux";
export const isRoot = Deno.uid?.() === 0;

/** A new temporary folder; the caller removes it. */
export async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "flowrun-io-" });
}

/**
 * Whether `path` exists (a file, a folder, or what a link points to).
 *
 * @example
 * ```ts
 * import { exists } from "./fs.ts";
 * if (!exists("/") || exists("/no/such/path/here")) throw new Error();
 * ```
 */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The names in `dir`, sorted. */
export async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  return out.sort();
}

/** The SHA-256 of `bytes` as 64 lower-case hex digits. */
export const sha256 = (bytes: Uint8Array): string =>
  createHash("sha256").update(bytes).digest("hex");

/** Mounts a tmpfs of `size` at a new folder of `dir`; undefined when not permitted here. */
export async function mountTmpfs(dir: string, options: string): Promise<string | undefined> {
  if (!isLinux || !isRoot) return undefined;
  const at = `${dir}/mnt`;
  await Deno.mkdir(at);
  const mount = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", options, "tmpfs", at],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => undefined);
  return mount?.success ? at : undefined;
}

/** Unmounts what {@linkcode mountTmpfs} mounted. */
export async function unmount(at: string | undefined): Promise<void> {
  if (at) await new Deno.Command("umount", { args: [at] }).output();
}

// Probed once: the tests that need a mount say so in their names when they cannot have one.
export const canMount = await (async () => {
  const dir = await tempDir();
  try {
    const at = await mountTmpfs(dir, "size=64k");
    await unmount(at);
    return at !== undefined;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
})();

/** Appended to the name of a test that needs a mount, when it is ignored for want of one. */
export const whyNoMount = canMount ? "" : " [ignored: mounting a tmpfs needs root on Linux]";
