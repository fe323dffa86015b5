/**
 * The one gate between the runner and the outside. Every byte the CLI
 * writes, to the console or to a file (save.ts), passes through the
 * process's {@linkcode redactor} after its final encoding (`redactOutput`: a
 * secret shorter than eight characters was masked where it is a value, before
 * the text was made, and here would only hit flowrun's own words); console text is also made
 * inert for CI runners. A console that went away (a pipe closed by the
 * reader, as in `flowrun run … | head -1`) or that cannot be written stops
 * getting text, and the run goes on: its reports matter more.
 *
 * @module
 */
import { Redactor } from "../lib/secrets/redactor.ts";
import { inertForCi } from "../lib/report/terminal.ts";

/** Every secret this process has learned; the runner adds to it as it goes. */
export const redactor: Redactor = new Redactor();

const encoder = new TextEncoder();

/** A console stream that stops being written once a write fails. */
class Console {
  #closed = false;
  constructor(readonly stream: { writeSync(p: Uint8Array): number }) {}
  /**
   * Writes all of `text`; `writeSync` may write only part of a large buffer to
   * a pipe. Only the CLI's own CI commands (`inert: false`) skip the defusing.
   */
  write(text: string, inert = true): void {
    if (this.#closed) return;
    const masked = redactor.redactOutput(text);
    let bytes = encoder.encode(inert ? inertForCi(masked) : masked);
    try {
      while (bytes.length > 0) bytes = bytes.subarray(this.stream.writeSync(bytes));
    } catch {
      // Broken pipe, a full disk behind a redirect, a closed descriptor: nobody reads any more.
      this.#closed = true;
    }
  }
}

const stdout = new Console(Deno.stdout);
const stderr = new Console(Deno.stderr);

/**
 * Writes to standard output, masked and inert; never throws.
 *
 * @example
 * ```ts ignore
 * import { out } from "./output.ts";
 * out("hello\n");
 * ```
 */
export const out = (text: string): void => stdout.write(text);

/**
 * Writes workflow commands the CLI made itself (GitHub `::error` lines) to
 * standard output, masked but not defused; their text is escaped by their
 * maker, so nothing from a flow or a server can start a command.
 *
 * @example
 * ```ts ignore
 * import { outCommands } from "./output.ts";
 * outCommands(["::error file=a.yaml,line=1::broken"]);
 * ```
 */
export const outCommands = (lines: readonly string[]): void => {
  if (lines.length > 0) stdout.write(lines.join("\n") + "\n", false);
};

/**
 * Writes to standard error, masked and inert; never throws.
 *
 * @example
 * ```ts ignore
 * import { err } from "./output.ts";
 * err("warning\n");
 * ```
 */
export const err = (text: string): void => stderr.write(text);

/** This process's environment and standard output, as {@linkcode useColor} reads them. */
const PROCESS = {
  env: (name: string) => Deno.env.get(name),
  isTerminal: () => Deno.stdout.isTerminal(),
};

/**
 * Whether to use colours. The flags win (`--no-color` over `--color`), then
 * `FORCE_COLOR` (set and not `0` or `false`: on; `0`/`false`: off; it
 * overrides `NO_COLOR`, as in Node), then `NO_COLOR` (set: off), then
 * whether standard output is a terminal. `host` stands for the process's
 * environment and standard output (a run plan passes its own).
 *
 * @example
 * ```ts ignore
 * import { useColor } from "./output.ts";
 * const color = useColor({ color: true });
 * ```
 */
export function useColor(
  flags: { color?: boolean; "no-color"?: boolean },
  host: { env(name: string): string | undefined; isTerminal(): boolean } = PROCESS,
): boolean {
  if (flags["no-color"]) return false;
  if (flags.color) return true;
  const force = host.env("FORCE_COLOR");
  if (force !== undefined) return !/^(0|false)$/i.test(force.trim());
  if (host.env("NO_COLOR")) return false;
  return host.isTerminal();
}
