/**
 * Command-line arguments: strict option parsing with "did you mean"
 * suggestions, run parameters, and bounded numbers.
 *
 * The option parser is this module's own rather than `node:util`'s
 * `parseArgs`: importing any `node:` module starts Deno's Node compatibility
 * layer, about 10 ms of every start-up. It follows `parseArgs` with
 * `{ allowPositionals: true, strict: true }` exactly (tests/cli/args_test.ts
 * compares the two), but words its errors for people.
 *
 * @module
 */
import { UsageError } from "../lib/model/errors.ts";
import { parseDuration } from "../lib/_util/duration.ts";
import { suggest } from "../lib/_util/suggest.ts";
import { HELP } from "./help.ts";
import { out } from "./output.ts";

/**
 * Option specifications, as `node:util`'s parseArgs takes them: each long
 * name (without `--`) says whether it takes a string, whether it may be given
 * more than once (its values are then collected in order), and its
 * one-character short form.
 *
 * @example
 * ```ts
 * import { type OptionSpec, parse } from "./args.ts";
 * const options = {
 *   output: { type: "string", short: "o" },
 *   verbose: { type: "boolean", short: "v", multiple: true },
 * } as const satisfies OptionSpec;
 * if (parse(["-vv", "-o", "out.yaml"], options).values.output !== "out.yaml") throw new Error();
 * ```
 */
export type OptionSpec = Record<
  string,
  { type: "string" | "boolean"; multiple?: boolean; short?: string }
>;

/** The value of one option: a string or `true`. */
type OptionValue<O extends OptionSpec[string]> = O["type"] extends "string" ? string
  : O["type"] extends "boolean" ? boolean
  : string | boolean;

/**
 * The option values {@linkcode parse} found for `options`, keyed by long name:
 * absent when not given, an array in the given order for `multiple` options,
 * else the last one given (`true` for a boolean option). The same type as
 * `node:util`'s parseArgs gives.
 *
 * @example
 * ```ts
 * import type { ParsedValues } from "./args.ts";
 * const values: ParsedValues<{ var: { type: "string"; multiple: true } }> = { var: ["a=1"] };
 * if (values.var?.length !== 1) throw new Error();
 * ```
 */
export type ParsedValues<T extends OptionSpec> = {
  -readonly [K in keyof T]?: T[K] extends { multiple: true } ? OptionValue<T[K]>[]
    : OptionValue<T[K]>;
};

/**
 * What {@linkcode parse} returns: the options' values and the other arguments,
 * in order.
 *
 * @example
 * ```ts
 * import { parse, type Parsed } from "./args.ts";
 * const options = { trace: { type: "boolean" } } as const;
 * const parsed: Parsed<typeof options> = parse(["a.yaml", "--trace"], options);
 * if (!parsed.values.trace || parsed.positionals[0] !== "a.yaml") throw new Error();
 * ```
 */
export interface Parsed<T extends OptionSpec> {
  /** The options given, by long name. */
  values: ParsedValues<T>;
  /** The arguments that are not options or their values, in order. */
  positionals: string[];
}

/** A `bad-option` usage error. */
function badOption(message: string, hint = "See flowrun --help."): UsageError {
  return new UsageError("bad-option", message, hint);
}

/**
 * Parses arguments strictly, as `node:util`'s parseArgs does with
 * `{ allowPositionals: true, strict: true }`:
 *
 * - `--name value` and `--name=value`; `-n value` and `-nvalue` for a short
 *   form; grouped short booleans (`-vv`), where a string option may come last
 *   (`-vo FILE`, `-voFILE`);
 * - a string option takes the next argument as its value whatever it is, but
 *   one that looks like an option (`-x`, `--`) is an error: write `--name=-x`;
 * - `--` ends the options: everything after it is positional;
 * - `-` alone is positional.
 *
 * An unknown option, a string option without its value and a boolean option
 * with one (`--trace=yes`) are `bad-option` usage errors; an unknown option's
 * hint suggests the closest known one.
 *
 * @example
 * ```ts
 * import { parse } from "./args.ts";
 * const options = {
 *   "report-json": { type: "string" },
 *   var: { type: "string", multiple: true },
 *   verbose: { type: "boolean", short: "v", multiple: true },
 * } as const;
 * const { values, positionals } = parse(
 *   ["flows/", "--var", "a=1", "--var=b=2", "-vv", "--report-json", "r.json", "--", "--x"],
 *   options,
 * );
 * if (values["report-json"] !== "r.json" || values.var?.join() !== "a=1,b=2") throw new Error();
 * if (values.verbose?.length !== 2 || positionals.join() !== "flows/,--x") throw new Error();
 * try {
 *   parse(["--verbsoe"], options);
 *   throw new Error("not reached");
 * } catch (error) {
 *   if ((error as Error).message !== 'Unknown option "--verbsoe".') throw error;
 * }
 * ```
 */
export function parse<T extends OptionSpec>(args: string[], options: T): Parsed<T> {
  const values: Record<string, string | boolean | (string | boolean)[]> = Object.create(null);
  const positionals: string[] = [];
  const spec = (name: string) => Object.hasOwn(options, name) ? options[name] : undefined;
  const takesString = (name: string) => spec(name)?.type === "string";
  // A short form without an option of its own stands for the long option of that name, if any.
  const longOf = (short: string) =>
    Object.keys(options).find((name) => options[name].short === short) ?? short;

  /** Checks one option as given (`inline`: `--name=value` or `-nvalue`) and stores it. */
  const take = (name: string, given: string, value: string | undefined, inline: boolean) => {
    const option = spec(name);
    if (!option) {
      const close = suggest(given.replace(/^-+/, ""), Object.keys(options));
      throw badOption(
        `Unknown option "${given}".`,
        close ? `Did you mean "--${close}"?` : "See flowrun --help.",
      );
    }
    const quoted = given === `--${name}` ? `"${given}"` : `"${given}" (--${name})`;
    if (option.type === "string" && value === undefined) {
      throw badOption(`Option ${quoted} needs a value.`);
    }
    if (option.type === "boolean" && value !== undefined) {
      throw badOption(`Option ${quoted} does not take a value, got "${value}".`);
    }
    if (!inline && value !== undefined && value.length > 1 && value[0] === "-") {
      throw badOption(
        `Option ${quoted} needs a value, got "${value}", which looks like an option.`,
        `To give a value that starts with "-", write --${name}=${value}` +
          (given === `--${name}` ? "." : ` or ${given}${value}.`),
      );
    }
    if (name === "__proto__") return;
    const stored = value ?? true;
    const list = values[name];
    if (!option.multiple) values[name] = stored;
    else if (Array.isArray(list)) list.push(stored);
    else values[name] = [stored];
  };

  const rest = [...args];
  while (rest.length > 0) {
    const arg = rest.shift()!;
    if (arg === "--") {
      positionals.push(...rest);
      break;
    }
    if (arg.length >= 2 && arg[0] === "-" && arg[1] !== "-") {
      const name = longOf(arg[1]);
      if (arg.length === 2) {
        // -n, with the next argument as its value if it takes one.
        take(name, arg, takesString(name) ? rest.shift() : undefined, false);
      } else if (takesString(name)) {
        take(name, arg.slice(0, 2), arg.slice(2), true); // -nVALUE
      } else {
        // -abc is -a -b -c; a string option ends the group: -abfFILE is -a -b -fFILE.
        const group: string[] = [];
        for (let i = 1; i < arg.length; i++) {
          if (i === arg.length - 1 || !takesString(longOf(arg[i]))) group.push(`-${arg[i]}`);
          else {
            group.push(`-${arg.slice(i)}`);
            break;
          }
        }
        rest.unshift(...group);
      }
    } else if (arg.length > 2 && arg.startsWith("--")) {
      const eq = arg.indexOf("=", 3);
      if (eq === -1) {
        const name = arg.slice(2);
        take(name, arg, takesString(name) ? rest.shift() : undefined, false);
      } else take(arg.slice(2, eq), arg.slice(0, eq), arg.slice(eq + 1), true);
    } else positionals.push(arg);
  }
  return { values: values as ParsedValues<T>, positionals };
}

/**
 * `--var NAME=VALUE` pairs as run parameters; RUN_ID and TRACE_ID cannot be set.
 *
 * @example
 * ```ts
 * import { parseParams } from "./args.ts";
 * const params = parseParams(["base_url=http://localhost:8080", "query=a=b"]);
 * if (params.get("query") !== "a=b") throw new Error();
 * ```
 */
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
 * (`512KiB`, `10MiB`, `1GB`; case does not matter), from 1 KiB to `max`
 * (4 GiB unless given, with `maxText` saying it in the message).
 *
 * @example
 * ```ts
 * import { byteSize } from "./args.ts";
 * if (byteSize("10MiB", "max-body") !== 10 * 1024 * 1024) throw new Error();
 * if (byteSize(undefined, "max-body") !== undefined) throw new Error();
 * ```
 */
export function byteSize(
  value: string | undefined,
  option: string,
  max = 4 * 1024 ** 3,
  maxText = "4GiB",
): number | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? UNITS[m[2].toLowerCase()] : undefined;
  const n = m && unit !== undefined ? Number(m[1]) * unit : NaN;
  if (!Number.isSafeInteger(n) || n < 1024 || n > max) {
    throw new UsageError(
      `bad-${option}`,
      `Expected --${option} to be a size from 1KiB to ${maxText}, got "${value}".`,
      "For example: 10MiB, 512KiB or 1048576 (bytes).",
    );
  }
  return n;
}

/**
 * A positive duration from an option, in milliseconds: a number of
 * milliseconds or a number with a unit (`500ms`, `30s`, `2m`), at most `max`.
 *
 * @example
 * ```ts
 * import { duration } from "./args.ts";
 * if (duration("30s", "timeout", 60_000) !== 30_000) throw new Error();
 * ```
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
 *
 * @example
 * ```ts
 * import { positiveInteger } from "./args.ts";
 * if (positiveInteger("4", "jobs", "a positive number of flows", 10_000) !== 4) throw new Error();
 * ```
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
 *
 * @example
 * ```ts
 * import { command } from "./args.ts";
 * import { UsageError } from "../lib/model/errors.ts";
 * const options = { help: { type: "boolean", short: "h" }, tag: { type: "string" } } as const;
 * const noPaths = new UsageError("no-paths", "No flow files given.");
 * const parsed = command(["flows/", "--tag", "smoke"], options, noPaths);
 * if (parsed?.values.tag !== "smoke" || parsed.positionals[0] !== "flows/") throw new Error();
 * ```
 */
export function command<T extends OptionSpec>(
  args: string[],
  options: T,
  noPaths: UsageError,
): Parsed<T> | undefined {
  const parsed = parse(args, options);
  if ((parsed.values as { help?: boolean }).help) {
    out(HELP);
    return undefined;
  }
  if (parsed.positionals.length === 0) throw noPaths;
  return parsed;
}
