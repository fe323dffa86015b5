/**
 * The values options take, bounded and checked: `--var` run parameters,
 * sizes in bytes, durations and whole numbers. A value at fault is a
 * usage error whose code names the option (`bad-max-body`, `bad-jobs`).
 *
 * @module
 */
import { UsageError } from "../lib/model/errors.ts";
import { parseDuration } from "../lib/_util/duration.ts";
import { isName } from "../lib/model/names.ts";
import { lineShape } from "../lib/secrets/line_shape.ts";

/**
 * `--var NAME=VALUE` pairs as run parameters; RUN_ID and TRACE_ID cannot be set.
 *
 * @example
 * ```ts
 * import { parseParams } from "./option_values.ts";
 * const params = parseParams(["base_url=http://localhost:8080", "query=a=b"]);
 * if (params.get("query") !== "a=b") throw new Error();
 * ```
 */
export function parseParams(values: readonly string[] = []): Map<string, string> {
  const params = new Map<string, string>();
  for (const item of values) {
    const eq = item.indexOf("=");
    const name = eq === -1 ? item : item.slice(0, eq);
    if (eq === -1 || !isName(name)) {
      throw new UsageError(
        "bad-var",
        // Without "=" the value cannot be told from the name: only what stands where a name goes.
        `Expected --var NAME=VALUE, got "${eq === -1 ? lineShape(item) : name}".`,
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
 * import { byteSize } from "./option_values.ts";
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
 * import { duration } from "./option_values.ts";
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
 * import { positiveInteger } from "./option_values.ts";
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
 * `--coverage-min`: a percent from 0 to 100 (of `run` and `merge`).
 *
 * @example
 * ```ts
 * import { coverageMin } from "./option_values.ts";
 * if (coverageMin("80") !== 80 || coverageMin(undefined) !== undefined) throw new Error();
 * ```
 */
export function coverageMin(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const min = /^\d+(\.\d+)?$/.test(given) ? Number(given) : NaN;
  if (!(min >= 0 && min <= 100)) {
    throw new UsageError(
      "bad-coverage-min",
      `--coverage-min "${given}" is not a percent from 0 to 100.`,
      "Write the least share of the documents' operations the run must exercise: --coverage-min 80.",
    );
  }
  return min;
}
