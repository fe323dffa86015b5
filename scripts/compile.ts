/**
 * Builds the release binaries: `deno task compile` writes
 * `dist/flowrun-<version>-<target>[.exe]` for every supported target with
 * `deno compile`, and `dist/SHA256SUMS` in the format `sha256sum -c` reads.
 *
 * ```sh
 * deno task compile                                 # all five targets into dist/
 * deno task compile --target x86_64-unknown-linux-gnu --target aarch64-apple-darwin
 * deno task compile --dry-run                       # print the deno compile commands only
 * deno task compile --out-dir /tmp/out              # another directory than dist/
 * ```
 *
 * The binaries carry exactly the runner's permissions ({@link RUNNER_PERMISSIONS}:
 * net, read, write, env) and `--no-prompt`, so a permission the runner does not
 * have fails at once instead of waiting on a prompt in CI. The version comes
 * from deno.json alone.
 *
 * `deno compile` embeds the program into `denort`, a runtime it downloads per
 * target (and caches in DENO_DIR). On a machine that cannot download it, set
 * `DENORT_BIN` to a local denort binary: Deno then uses that file whatever
 * `--target` says, so one DENORT_BIN can only build the one target it was made
 * for. With DENORT_BIN set this script therefore builds only that target (read
 * from the binary's header; `--target` selects it explicitly) and refuses a
 * different one instead of producing a mislabelled binary.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import config from "../deno.json" with { type: "json" };
import { SUBCOMMAND_FILES } from "../cli/subcommands.ts";
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "./permissions.ts";

/**
 * The targets a release is built for, in the order they are built.
 *
 * @example
 * ```ts
 * import { TARGETS } from "./compile.ts";
 * if (!TARGETS.includes("x86_64-pc-windows-msvc")) throw new Error();
 * ```
 */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/**
 * One of {@link TARGETS}.
 *
 * @example
 * ```ts
 * import type { Target } from "./compile.ts";
 * const target: Target = "aarch64-apple-darwin";
 * if (!target) throw new Error();
 * ```
 */
export type Target = typeof TARGETS[number];

/**
 * Where {@link compileArgs} writes and what it compiles.
 *
 * @example
 * ```ts
 * import type { CompileOptions } from "./compile.ts";
 * const options: CompileOptions = { outDir: "/tmp/flowrun-dist" };
 * if (options.outDir === undefined) throw new Error();
 * ```
 */
export interface CompileOptions {
  /** The output directory; default `dist`. */
  outDir?: string;
  /** The entry module; default `cli.ts`. */
  entry?: string;
}

/**
 * The file name of the binary for a version and target: `.exe` only for
 * Windows, because that is the only platform that needs the extension to run it.
 *
 * @example
 * ```ts
 * import { binaryName } from "./compile.ts";
 * const name = binaryName("1.2.3", "x86_64-pc-windows-msvc");
 * if (name !== "flowrun-1.2.3-x86_64-pc-windows-msvc.exe") throw new Error(name);
 * ```
 */
export function binaryName(version: string, target: Target): string {
  return `flowrun-${version}-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/**
 * The modules worker threads start from (`new Worker(new URL(…))`): no
 * import reaches them, so `deno compile` embeds them only when told to.
 *
 * @example
 * ```ts
 * import { WORKER_FILES } from "./compile.ts";
 * if (!WORKER_FILES.includes("lib/run/workers/worker_main.ts")) throw new Error();
 * ```
 */
export const WORKER_FILES: readonly string[] = ["lib/run/workers/worker_main.ts"];

/**
 * The arguments to `deno` that build the binary for one target, starting with
 * `compile`. The permissions are exactly the runner's, never broader.
 * `--config deno.json` and `--frozen` make the npm dependencies come from
 * deno.json and exactly the versions in deno.lock (a stale lockfile fails the
 * build instead of shipping other versions). Each subcommand's module is an
 * `--include`: cli.ts imports them by a specifier `deno compile` cannot follow
 * (see cli/subcommands.ts); so is each worker thread's module
 * ({@linkcode WORKER_FILES}), which no import names; every other dynamic
 * import is a string literal.
 *
 * @example
 * ```ts
 * import { compileArgs } from "./compile.ts";
 * const args = compileArgs("aarch64-apple-darwin", "1.2.3");
 * if (args[0] !== "compile" || args.at(-1) !== "cli.ts") throw new Error(args.join(" "));
 * if (!args.includes("dist/flowrun-1.2.3-aarch64-apple-darwin")) throw new Error();
 * if (args.includes("--allow-all")) throw new Error();
 * ```
 */
export function compileArgs(
  target: Target,
  version: string,
  options: CompileOptions = {},
): string[] {
  const outDir = (options.outDir ?? "dist").replace(/[/\\]+$/, "");
  return [
    "compile",
    ...RUNNER_PERMISSIONS,
    ...RUNNER_V8_FLAGS,
    "--no-prompt",
    "--config",
    "deno.json",
    "--frozen",
    ...SUBCOMMAND_FILES.flatMap((file) => ["--include", file]),
    ...WORKER_FILES.flatMap((file) => ["--include", file]),
    "--target",
    target,
    "--output",
    `${outDir}/${binaryName(version, target)}`,
    options.entry ?? "cli.ts",
  ];
}

/**
 * The text of a `SHA256SUMS` file: one `<hex digest>  <file name>` line per
 * file (two spaces: text mode, as `sha256sum` writes it), sorted by name so the
 * file is the same however the binaries were built.
 *
 * @example
 * ```ts
 * import { sha256sums } from "./compile.ts";
 * const text = sha256sums([{ name: "a.txt", bytes: new TextEncoder().encode("abc") }]);
 * const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
 * if (text !== `${abc}  a.txt\n`) throw new Error(text);
 * ```
 */
export function sha256sums(files: { name: string; bytes: Uint8Array }[]): string {
  return [...files]
    .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
    .map((file) => `${createHash("sha256").update(file.bytes).digest("hex")}  ${file.name}\n`)
    .join("");
}

/**
 * The target an executable was built for, read from its header (ELF, Mach-O
 * or PE), or undefined when the header is none of the supported targets'.
 * Used to tell which target a DENORT_BIN can build.
 *
 * @example
 * ```ts
 * import { executableTarget } from "./compile.ts";
 * const elf = new Uint8Array(64);
 * elf.set([0x7f, 0x45, 0x4c, 0x46]);
 * elf[18] = 0x3e; // e_machine: x86-64
 * if (executableTarget(elf) !== "x86_64-unknown-linux-gnu") throw new Error();
 * if (executableTarget(new Uint8Array(4)) !== undefined) throw new Error();
 * ```
 */
export function executableTarget(header: Uint8Array): Target | undefined {
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const u16 = (at: number) => at + 2 <= header.length ? view.getUint16(at, true) : -1;
  const u32 = (at: number) => at + 4 <= header.length ? view.getUint32(at, true) : -1;
  // ELF: "\x7fELF", e_machine at 18 (little-endian on both our Linux targets).
  if (u32(0) === 0x464c457f) {
    return ({ 0x3e: "x86_64-unknown-linux-gnu", 0xb7: "aarch64-unknown-linux-gnu" } as const)[
      u16(18) as 0x3e | 0xb7
    ];
  }
  // 64-bit little-endian Mach-O: magic 0xfeedfacf, then cputype.
  if (u32(0) === 0xfeedfacf) {
    return ({ 0x01000007: "x86_64-apple-darwin", 0x0100000c: "aarch64-apple-darwin" } as const)[
      u32(4) as 0x01000007 | 0x0100000c
    ];
  }
  // PE: "MZ", the offset of "PE\0\0" at 0x3c, the machine right after it.
  if (u16(0) === 0x5a4d) {
    const pe = u32(0x3c);
    if (pe >= 0 && u32(pe) === 0x00004550 && u16(pe + 4) === 0x8664) {
      return "x86_64-pc-windows-msvc";
    }
  }
  return undefined;
}

/** A failure explained in one sentence: printed alone, without a stack trace. */
class BuildError extends Error {
  constructor(message: string, readonly code = 1) {
    super(message);
  }
}

const ROOT = new URL("../", import.meta.url);

interface Cli {
  targets: Target[];
  explicit: boolean;
  dryRun: boolean;
  outDir: string;
}

function parse(args: string[]): Cli {
  const cli: Cli = { targets: [], explicit: false, dryRun: false, outDir: "dist" };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].startsWith("--") && args[i].includes("=")
      ? [args[i].slice(0, args[i].indexOf("=")), args[i].slice(args[i].indexOf("=") + 1)]
      : [args[i], undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined || v === "") throw new BuildError(`${flag} needs a value.`, 2);
      return v;
    };
    if (flag === "--dry-run" && inline === undefined) cli.dryRun = true;
    else if (flag === "--out-dir") cli.outDir = value();
    else if (flag === "--target") {
      const target = value();
      if (!(TARGETS as readonly string[]).includes(target)) {
        throw new BuildError(
          `unknown target "${target}"; the targets are ${TARGETS.join(", ")}.`,
          2,
        );
      }
      if (!cli.targets.includes(target as Target)) cli.targets.push(target as Target);
      cli.explicit = true;
    } else {
      throw new BuildError(
        `unknown argument "${
          args[i]
        }"; usage: deno task compile [--target T]... [--out-dir DIR] [--dry-run].`,
        2,
      );
    }
  }
  if (!cli.explicit) cli.targets = [...TARGETS];
  return cli;
}

/**
 * With DENORT_BIN set, Deno embeds into that one file for every `--target`,
 * so only the target the file was built for can be built correctly.
 */
async function targetsFor(cli: Cli, denort: string | undefined): Promise<Target[]> {
  if (denort === undefined) return cli.targets;
  let header: Uint8Array;
  try {
    using file = await Deno.open(denort);
    header = new Uint8Array(4096);
    header = header.subarray(0, await file.read(header) ?? 0);
  } catch {
    throw new BuildError(
      `DENORT_BIN is set to "${denort}", which cannot be read; point it at a local denort binary or unset it.`,
    );
  }
  const own = executableTarget(header);
  if (cli.explicit) {
    if (cli.targets.length > 1 || (own && cli.targets[0] !== own)) {
      throw new BuildError(
        `DENORT_BIN is the runtime of one target (${
          own ?? "unknown"
        }) and deno compile uses it for every --target, so build only that target with --target ${
          own ?? "<its target>"
        }, or unset DENORT_BIN.`,
        2,
      );
    }
    return cli.targets;
  }
  if (own) return [own];
  throw new BuildError(
    `DENORT_BIN ("${denort}") is no executable for any of ${
      TARGETS.join(", ")
    }, so say which target it is with --target.`,
    2,
  );
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** Recognises why `deno compile` failed, from its stderr, in one sentence. */
function explain(target: Target, stderr: string): string {
  // NO_COLOR is set, but a colour escape left in would only hide a match.
  // deno-lint-ignore no-control-regex
  const text = stderr.replace(/\x1b\[[0-9;]*m/g, "");
  // Deno reads DENORT_BIN before anything else ("Could not find denort at …").
  const missing = text.match(/Could not find denort at '([^']*)'/);
  if (missing) {
    return `deno compile could not read DENORT_BIN ("${
      missing[1]
    }") for ${target}; point it at a local denort binary for that target and run again.`;
  }
  // Without DENORT_BIN, Deno downloads denort-<target>.zip; offline it fails
  // with "error sending request for url (…/denort-<target>.zip): … dns error".
  // The zip is also named on the "Download <url>" progress line, which alone
  // proves nothing, so only the error lines count.
  const errors = text.split("\n").filter((line) => !/^\s*Download\s+https?:/.test(line));
  if (errors.some((line) => /denort-[\w-]+\.zip|Download could not be found/.test(line))) {
    return `deno compile could not get its runtime (denort) for ${target}: this machine cannot download it; set DENORT_BIN to a local denort binary for that target and run again.`;
  }
  // Anything else (type errors, a stale lockfile) is the project's to fix:
  // Deno's own report, without its backtrace, then the sentence.
  const report = text.split(/^Stack backtrace:/m)[0].trim();
  const first = report.split("\n").find((line) => /^error/i.test(line.trim()))?.trim() ??
    report.split("\n")[0] ?? "";
  return `${report}\ndeno compile failed for ${target}: ${first.replace(/^error:\s*/i, "")}`;
}

let running: Deno.ChildProcess | undefined;

/** Runs `deno compile`, keeping its output to explain a failure with. */
async function compile(args: string[]): Promise<{ code: number; stderr: string }> {
  running = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    // The environment passes through (DENORT_BIN, DENO_DIR, proxies); only
    // colours are turned off so the errors can be recognised.
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = await running.output();
  running = undefined;
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

/**
 * A host binary must answer `--version` as flowrun: a DENORT_BIN that is a
 * full `deno` (not denort) builds a file that silently runs as plain deno.
 */
async function checkHostBinary(path: string, version: string): Promise<void> {
  const output = await new Deno.Command(path, {
    args: ["--version"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(20_000),
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  if (output.code !== 0 || !stdout.startsWith(`flowrun ${version} (`)) {
    throw new BuildError(
      `the binary built for ${Deno.build.target} does not run as flowrun (--version printed "${
        stdout.split("\n")[0]
      }"); DENORT_BIN must point to a denort binary, not to deno itself.`,
    );
  }
}

async function main(args: string[]): Promise<number> {
  const version = config.version;
  const cli = parse(args);
  const denort = Deno.env.get("DENORT_BIN") || undefined;
  const targets = await targetsFor(cli, denort);
  const plans = targets.map((target) => ({
    target,
    name: binaryName(version, target),
    args: compileArgs(target, version, { outDir: cli.outDir }),
  }));
  if (cli.dryRun) {
    for (const plan of plans) console.log(["deno", ...plan.args].map(quote).join(" "));
    return 0;
  }

  const outDir = resolve(fileURLToPath(ROOT), cli.outDir);
  await Deno.mkdir(outDir, { recursive: true });
  const built: { name: string; bytes: Uint8Array }[] = [];
  for (const plan of plans) {
    console.log(`building ${plan.name}`);
    const result = await compile(plan.args);
    if (result.code !== 0) throw new BuildError(explain(plan.target, result.stderr));
    const path = resolve(outDir, plan.name);
    if (plan.target === Deno.build.target) {
      // A binary that does not run as flowrun must not stay where a release would pick it up.
      await checkHostBinary(path, version).catch(async (error) => {
        await Deno.remove(path).catch(() => {});
        throw error;
      });
    }
    built.push({ name: plan.name, bytes: await Deno.readFile(path) });
  }
  await Deno.writeTextFile(resolve(outDir, "SHA256SUMS"), sha256sums(built));
  console.log(`wrote ${built.length} binaries and SHA256SUMS to ${cli.outDir}`);
  return 0;
}

if (import.meta.main) {
  // An interrupted build stops its deno compile too, instead of leaving it running.
  if (Deno.build.os !== "windows") {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(signal, () => {
        try {
          running?.kill("SIGTERM");
        } catch { /* already ended */ }
        Deno.exit(signal === "SIGINT" ? 130 : 143);
      });
    }
  }
  let code: number;
  try {
    code = await main(Deno.args);
  } catch (error) {
    const message = error instanceof BuildError
      ? error.message
      : `the build stopped: ${error instanceof Error ? error.message : String(error)}`;
    console.error(message);
    code = error instanceof BuildError ? error.code : 1;
  }
  Deno.exit(code);
}
