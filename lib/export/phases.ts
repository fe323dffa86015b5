/**
 * The load an exported script applies: one Artillery phase from the
 * export's options. The shape of a load belongs to the run, not to the
 * flows (the same flows also run functionally), so it is given when
 * exporting (`--duration`, `--rate`, `--ramp-to`, `--users`) and can be
 * edited in the script or overridden by Artillery's own `--overrides`.
 *
 * @module
 */
import { parseDuration } from "../_util/duration.ts";
import { UsageError } from "../model/errors.ts";

/** The export's load options, as given on the command line. */
export interface LoadOptionText {
  duration?: string;
  rate?: string;
  rampTo?: string;
  users?: string;
}

/** An Artillery phase. */
export interface Phase {
  name: string;
  duration: number;
  arrivalRate?: number;
  rampTo?: number;
  arrivalCount?: number;
}

/** The defaults: one new virtual user a second for a minute. */
export const DEFAULT_PHASE: Phase = { name: "flowrun", duration: 60, arrivalRate: 1 };

/** A whole number from 1 to 1,000,000, or a usage error naming the option. */
function count(text: string, option: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > 1_000_000) {
    throw new UsageError(
      "bad-load-option",
      `Expected --${option} to be a whole number from 1 to 1000000, got "${text}".`,
    );
  }
  return n;
}

/** A duration in whole seconds, at least one. */
function seconds(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined || ms < 1000 || ms % 1000 !== 0) {
    throw new UsageError(
      "bad-load-option",
      `Expected --duration to be whole seconds (30s, 5m), got "${text}".`,
      "Artillery phases last whole seconds; a bare number is milliseconds, as for --timeout.",
    );
  }
  return ms / 1000;
}

/**
 * The phase the options give; `--users` (so many users over the duration)
 * excludes `--rate` and `--ramp-to`.
 *
 * @example
 * ```ts
 * import { phaseOf } from "./phases.ts";
 * const p = phaseOf({ duration: "2m", rate: "5", rampTo: "50" });
 * if (p.duration !== 120 || p.arrivalRate !== 5 || p.rampTo !== 50) throw new Error();
 * if (phaseOf({ users: "3", duration: "1s" }).arrivalCount !== 3) throw new Error();
 * ```
 */
export function phaseOf(options: LoadOptionText): Phase {
  const duration = options.duration === undefined
    ? DEFAULT_PHASE.duration
    : seconds(options.duration);
  if (options.users !== undefined) {
    if (options.rate !== undefined || options.rampTo !== undefined) {
      throw new UsageError(
        "bad-load-option",
        `--users ${options.users} cannot be given with --rate or --ramp-to.`,
        "--users starts that many virtual users over --duration; --rate starts so many a second.",
      );
    }
    return { name: "flowrun", duration, arrivalCount: count(options.users, "users") };
  }
  const rate = options.rate === undefined
    ? DEFAULT_PHASE.arrivalRate!
    : count(options.rate, "rate");
  const phase: Phase = { name: "flowrun", duration, arrivalRate: rate };
  if (options.rampTo !== undefined) phase.rampTo = count(options.rampTo, "ramp-to");
  return phase;
}
