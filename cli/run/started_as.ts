/**
 * How this flowrun was started, as the words a user types: the one answer
 * the `reproduce:` line and the manifest's `command` both give, so a
 * failure's rerun command starts flowrun the way the run did.
 *
 * Deno tells a process neither its own command line nor its V8 flags (and
 * `/proc/self/cmdline` needs `--allow-all`), so the answer is read from
 * evidence: a compiled binary is its executable; a launcher on PATH that
 * starts this very `cli.ts` (what `deno install` and the docs' npm launcher
 * write) is `flowrun`; else it is `deno run` of `cli.ts` with the runner's
 * V8 flags and permissions, the way every documented command starts it
 * (and `flowrun` when the main module is another program running flowrun's
 * code, which no `deno run` of it would rerun).
 *
 * @module
 */

/**
 * The runner's permissions and V8 flags, as `scripts/permissions.ts` has
 * them (a test keeps the two equal; scripts/ is not part of the package).
 */
const PERMISSIONS = ["--allow-net", "--allow-read", "--allow-write", "--allow-env"];
const V8_FLAGS = [
  "--v8-flags=--max-semi-space-size=4,--min-semi-space-size=4,--heap-growing-percent=30,--no-lazy",
];

/**
 * What this process knows of how it was started ({@linkcode startFacts}
 * reads them; tests pass their own).
 *
 * @example
 * ```ts
 * import type { StartFacts } from "./started_as.ts";
 * const facts: StartFacts = {
 *   standalone: false,
 *   execPath: "/usr/bin/deno",
 *   mainModule: "file:///w/cli.ts",
 *   cwd: "/w",
 *   allowRun: false,
 *   which: () => undefined,
 * };
 * if (facts.standalone) throw new Error();
 * ```
 */
export interface StartFacts {
  /** A compiled binary (`Deno.build.standalone`). */
  standalone: boolean;
  /** The running executable, symbolic links resolved. */
  execPath: string;
  /** `Deno.mainModule`. */
  mainModule: string;
  /** The working directory. */
  cwd: string;
  /** Whether programs may be run (`--allow-run`, which `--allow-commands` needs). */
  allowRun: boolean;
  /** The file `name` runs from PATH (links resolved) and the start of its text, if any. */
  which: (name: string) => { path: string; text: string } | undefined;
}

/** The file system path of a `file:` URL (`%20` is a space), else the specifier as it is. */
function pathOf(specifier: string): string {
  return specifier.startsWith("file:")
    ? decodeURIComponent(new URL(specifier).pathname)
    : specifier;
}

/** `path` relative to `cwd` when it is inside it. */
function relative(path: string, cwd: string): string {
  const dir = cwd.replaceAll("\\", "/").replace(/\/$/, "");
  const file = path.replaceAll("\\", "/");
  return file.startsWith(dir + "/") ? file.slice(dir.length + 1) : path;
}

/** How a shell finds the executable: its name when PATH finds this file, else its path. */
function executable(path: string, facts: StartFacts): string {
  const name = path.replaceAll("\\", "/").split("/").pop()!;
  if (facts.which(name.replace(/\.exe$/i, ""))?.path === path) return name.replace(/\.exe$/i, "");
  const near = relative(path, facts.cwd);
  // A bare name would be looked up on PATH: a file in this directory is `./name`.
  return near.includes("/") || near === path ? near : `./${near}`;
}

/**
 * The words that start flowrun as this process was started (unquoted: the
 * manifest keeps them as a list, the `reproduce:` line quotes each).
 *
 * @example
 * ```ts
 * import { startedAs } from "./started_as.ts";
 * const facts = {
 *   standalone: false, execPath: "/usr/bin/deno", mainModule: "file:///w/flowrun/cli.ts",
 *   cwd: "/w", allowRun: false,
 *   which: (name: string) => name === "deno" ? { path: "/usr/bin/deno", text: "" } : undefined,
 * };
 * const words = startedAs(facts);
 * if (words[0] !== "deno" || words.at(-1) !== "flowrun/cli.ts" || !words.join(" ").includes("--no-lazy")) {
 *   throw new Error(words.join(" "));
 * }
 * // The compiled binary, found on PATH by its name.
 * const binary = { ...facts, standalone: true, execPath: "/usr/local/bin/flowrun",
 *   which: () => ({ path: "/usr/local/bin/flowrun", text: "" }) };
 * if (startedAs(binary).join(" ") !== "flowrun") throw new Error();
 * ```
 */
export function startedAs(facts: StartFacts): string[] {
  if (facts.standalone) return [executable(facts.execPath, facts)];
  const cli = pathOf(facts.mainModule);
  // A launcher that names this cli.ts is what the user types (its own flags are in it).
  const launcher = facts.which("flowrun");
  if (launcher && (launcher.text.includes(facts.mainModule) || launcher.text.includes(cli))) {
    return ["flowrun"];
  }
  // Another program that runs flowrun's code (a test, a script): only flowrun itself reruns a flow.
  if (!cli.replaceAll("\\", "/").endsWith("/cli.ts")) return ["flowrun"];
  const permissions = facts.allowRun ? [...PERMISSIONS, "--allow-run"] : PERMISSIONS;
  const deno = executable(facts.execPath, facts);
  return [deno, "run", ...V8_FLAGS, ...permissions, relative(cli, facts.cwd)];
}

/** The file `name` runs from PATH, links resolved, and its first 4 KiB as text. */
function which(name: string): { path: string; text: string } | undefined {
  const windows = Deno.build.os === "windows";
  for (const dir of (Deno.env.get("PATH") ?? "").split(windows ? ";" : ":")) {
    if (dir === "") continue;
    try {
      // Windows finds `deno` as deno.exe.
      const path = Deno.realPathSync(`${dir}/${name}${windows ? ".exe" : ""}`);
      if (!Deno.statSync(path).isFile) continue;
      const file = Deno.openSync(path);
      try {
        const bytes = new Uint8Array(4096);
        const n = file.readSync(bytes) ?? 0;
        return { path, text: new TextDecoder().decode(bytes.subarray(0, n)) };
      } finally {
        file.close();
      }
    } catch {
      // Not in this folder, or not readable: the shell would look further too.
    }
  }
  return undefined;
}

/**
 * This process's {@linkcode StartFacts}.
 *
 * @example
 * ```ts
 * import { startFacts } from "./started_as.ts";
 * if (startFacts().standalone) throw new Error("run from source here");
 * ```
 */
export function startFacts(): StartFacts {
  return {
    standalone: Deno.build.standalone === true,
    execPath: Deno.execPath(),
    mainModule: Deno.mainModule,
    cwd: Deno.cwd(),
    allowRun: Deno.permissions.querySync({ name: "run" }).state === "granted",
    which,
  };
}
