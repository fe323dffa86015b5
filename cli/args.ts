/**
 * Command-line arguments: strict option parsing with "did you mean"
 * suggestions. The values options take (run parameters, sizes, durations,
 * counts) are read by option_values.ts.
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
import { suggest } from "../lib/_util/suggest.ts";
import { HELP } from "./help.ts";
import { out } from "./output.ts";
import { commandHelp, hasUsage } from "./usage.ts";

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

/** The options' values as they are collected. */
type Collected = Record<string, string | boolean | (string | boolean)[]>;

/** An option's specification by its long name; an inherited name (`toString`) is none. */
function specOf(options: OptionSpec, name: string): OptionSpec[string] | undefined {
  return Object.hasOwn(options, name) ? options[name] : undefined;
}

/** Whether the option of this long name takes a string value. */
function takesString(options: OptionSpec, name: string): boolean {
  return specOf(options, name)?.type === "string";
}

/** A short form without an option of its own stands for the long option of that name, if any. */
function longOf(options: OptionSpec, short: string): string {
  return Object.keys(options).find((name) => options[name].short === short) ?? short;
}

/** An unknown option, with the closest known one as the hint. */
function unknownOption(options: OptionSpec, given: string): UsageError {
  const close = suggest(given.replace(/^-+/, ""), Object.keys(options));
  return badOption(
    `Unknown option "${given}".`,
    close ? `Did you mean "--${close}"?` : "See flowrun --help.",
  );
}

/**
 * Refuses an option as given (`inline`: `--name=value` or `-nvalue`) when
 * it is unknown, misses its value or has one it does not take.
 */
function checkOption(
  options: OptionSpec,
  name: string,
  given: string,
  value: string | undefined,
  inline: boolean,
): OptionSpec[string] {
  const option = specOf(options, name);
  if (!option) throw unknownOption(options, given);
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
  return option;
}

/** Checks one option as given and stores it: the last value, or every value of a `multiple` one. */
function take(
  values: Collected,
  options: OptionSpec,
  { name, given, value, inline }: {
    name: string;
    given: string;
    value: string | undefined;
    inline: boolean;
  },
): void {
  const option = checkOption(options, name, given, value, inline);
  if (name === "__proto__") return;
  const stored = value ?? true;
  const list = values[name];
  if (!option.multiple) values[name] = stored;
  else if (Array.isArray(list)) list.push(stored);
  else values[name] = [stored];
}

/**
 * One argument that starts with a single `-`: `-n` (with the next argument
 * as its value if it takes one), `-nVALUE`, or a group `-abc` that is put
 * back as `-a -b -c` (a string option ends the group: `-abfFILE` is
 * `-a -b -fFILE`).
 */
function shortArgument(values: Collected, options: OptionSpec, arg: string, rest: string[]): void {
  const name = longOf(options, arg[1]);
  if (arg.length === 2) {
    const value = takesString(options, name) ? rest.shift() : undefined;
    take(values, options, { name, given: arg, value, inline: false });
  } else if (takesString(options, name)) {
    take(values, options, { name, given: arg.slice(0, 2), value: arg.slice(2), inline: true });
  } else {
    const group: string[] = [];
    for (let i = 1; i < arg.length; i++) {
      if (i === arg.length - 1 || !takesString(options, longOf(options, arg[i]))) {
        group.push(`-${arg[i]}`);
      } else {
        group.push(`-${arg.slice(i)}`);
        break;
      }
    }
    rest.unshift(...group);
  }
}

/** One argument that starts with `--`: `--name` (with the next argument if it takes one) or `--name=value`. */
function longArgument(values: Collected, options: OptionSpec, arg: string, rest: string[]): void {
  const eq = arg.indexOf("=", 3);
  if (eq === -1) {
    const name = arg.slice(2);
    const value = takesString(options, name) ? rest.shift() : undefined;
    take(values, options, { name, given: arg, value, inline: false });
  } else {
    const value = arg.slice(eq + 1);
    take(values, options, { name: arg.slice(2, eq), given: arg.slice(0, eq), value, inline: true });
  }
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
  const values: Collected = Object.create(null);
  const positionals: string[] = [];
  const rest = [...args];
  while (rest.length > 0) {
    const arg = rest.shift()!;
    if (arg === "--") {
      positionals.push(...rest);
      break;
    }
    if (arg.length >= 2 && arg[0] === "-" && arg[1] !== "-") {
      shortArgument(values, options, arg, rest);
    } else if (arg.length > 2 && arg.startsWith("--")) longArgument(values, options, arg, rest);
    else positionals.push(arg);
  }
  return { values: values as ParsedValues<T>, positionals };
}

/**
 * Parses a subcommand's arguments. Returns undefined after printing the
 * command's help (its options read from `options`) for --help; throws
 * `noPaths` when no path was given, unless `pathless` says the options
 * given are enough (`--setup` alone).
 *
 * @example
 * ```ts
 * import { command } from "./args.ts";
 * import { UsageError } from "../lib/model/errors.ts";
 * const options = { help: { type: "boolean", short: "h" }, tag: { type: "string" } } as const;
 * const noPaths = new UsageError("no-paths", "No flow files given.");
 * const parsed = command(["flows/", "--tag", "smoke"], options, noPaths, "validate");
 * if (parsed?.values.tag !== "smoke" || parsed.positionals[0] !== "flows/") throw new Error();
 * ```
 */
export function command<T extends OptionSpec>(
  args: string[],
  options: T,
  noPaths: UsageError,
  name?: string,
  pathless?: (values: Parsed<T>["values"]) => boolean,
): Parsed<T> | undefined {
  const parsed = parse(args, options);
  if ((parsed.values as { help?: boolean }).help) {
    out(name !== undefined && hasUsage(name) ? commandHelp(name, options) : HELP);
    return undefined;
  }
  if (parsed.positionals.length === 0 && !pathless?.(parsed.values)) throw noPaths;
  return parsed;
}
