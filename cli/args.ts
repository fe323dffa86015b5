/**
 * Command-line arguments: strict option parsing with "did you mean"
 * suggestions, run parameters, and bounded numbers.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { UsageError } from "../lib/errors.ts";
import { parseDuration } from "../lib/duration.ts";
import { suggest } from "../lib/suggest.ts";
import { HELP } from "./help.ts";
import { out } from "./output.ts";

/** Option specifications, as `node:util`'s parseArgs takes them. */
export type OptionSpec = Record<
  string,
  { type: "string" | "boolean"; multiple?: boolean; short?: string }
>;

/** Parses arguments strictly; an unknown option is a usage error with a suggestion. */
export function parse<T extends OptionSpec>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message;
    const option = /'(-{1,2}[^']+)'/.exec(message)?.[1];
    if (option && /unknown option/i.test(message)) {
      const close = suggest(option.replace(/^-+/, ""), Object.keys(options));
      throw new UsageError(
        "bad-option",
        `Unknown option "${option}".`,
        close ? `Did you mean "--${close}"?` : "See flowrun --help.",
      );
    }
    throw new UsageError("bad-option", `${message.replace(/\.$/, "")}.`, "See flowrun --help.");
  }
}

/** `--var NAME=VALUE` pairs as run parameters; RUN_ID and TRACE_ID cannot be set. */
export function parseParams(values: readonly string[] = []): Map<string, string> {
  const params = new Map<string, string>();
  for (const item of values) {
    const eq = item.indexOf("=");
    const name = eq === -1 ? item : item.slice(0, eq);
    if (eq === -1 || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
      throw new UsageError(
        "bad-var",
        `Expected --var NAME=VALUE, got "${eq === -1 ? item : name}".`,
        "For example: --var base_url=http://localhost:8080",
      );
    }
    if (name === "RUN_ID") {
      throw new UsageError("bad-var", "RUN_ID cannot be set with --var.", "Use --run-id.");
    }
    if (name === "TRACE_ID") {
      throw new UsageError(
        "bad-var",
        "TRACE_ID cannot be set with --var: each flow run has its own.",
      );
    }
    params.set(name, item.slice(eq + 1));
  }
  return params;
}

const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1000,
  kib: 1024,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/**
 * A size in bytes from an option: a whole number of bytes, or with a unit
 * (`512KiB`, `10MiB`, `1GB`; case does not matter), from 1 KiB to 4 GiB.
 */
export function byteSize(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? UNITS[m[2].toLowerCase()] : undefined;
  const n = m && unit !== undefined ? Number(m[1]) * unit : NaN;
  if (!Number.isSafeInteger(n) || n < 1024 || n > 4 * 1024 ** 3) {
    throw new UsageError(
      `bad-${option}`,
      `Expected --${option} to be a size from 1KiB to 4GiB, got "${value}".`,
      "For example: 10MiB, 512KiB or 1048576 (bytes).",
    );
  }
  return n;
}

/**
 * A positive duration from an option, in milliseconds: a number of
 * milliseconds or a number with a unit (`500ms`, `30s`, `2m`), at most `max`.
 */
export function duration(
  value: string | undefined,
  option: string,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) {
    throw new UsageError(
      `bad-${option}`,
      `Expected --${option} to be a positive duration, got "${value}".`,
      "Write milliseconds (30000) or a number with a unit: 500ms, 30s, 2m.",
    );
  }
  if (ms > max) {
    throw new UsageError(
      `bad-${option}`,
      `Expected --${option} to be at most ${max} ms, got "${value}".`,
    );
  }
  return ms;
}

/**
 * A positive whole number from an option, at most `max`: timers past 2³¹−1 ms
 * fire at once in JavaScript, so a bigger `--timeout` would silently become 1 ms.
 */
export function positiveInteger(
  value: string | undefined,
  option: string,
  what: string,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n <= 0) {
    throw new UsageError(`bad-${option}`, `Expected --${option} to be ${what}, got "${value}".`);
  }
  if (n > max) {
    throw new UsageError(
      `bad-${option}`,
      `Expected --${option} to be at most ${max}, got "${value}".`,
    );
  }
  return n;
}

/**
 * Parses a subcommand's arguments. Returns undefined after printing the help
 * for --help; throws `noPaths` when no path was given.
 */
export function command<T extends OptionSpec>(args: string[], options: T, noPaths: UsageError) {
  const parsed = parse(args, options);
  if ((parsed.values as { help?: boolean }).help) {
    out(HELP);
    return undefined;
  }
  if (parsed.positionals.length === 0) throw noPaths;
  return parsed;
}
