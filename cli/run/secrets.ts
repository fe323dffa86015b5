/**
 * The secrets a run knows before anything is printed, and the environment
 * as the flows read it. Known up front: `--secret` names, `--var` values
 * whose names look secret, and (as the flows read them, during loading,
 * before any output) values of secret-looking environment variables. The
 * runner adds what it meets later. Only variables the flows read count: the
 * name rule knowingly over-matches (XDG_SESSION_TYPE), and masking every
 * such value would shred the output.
 *
 * @module
 */
import { UsageError } from "../../lib/model/errors.ts";
import { isSecretName } from "../../lib/secrets/names.ts";
import { MIN_SECRET_LENGTH } from "../../lib/secrets/secret_index.ts";

/**
 * What learns a secret: the CLI's redactor in a real run.
 *
 * @example
 * ```ts
 * import type { SecretSink } from "./secrets.ts";
 * const learned = new Set<string>();
 * const sink: SecretSink = { add: (value) => void learned.add(value) };
 * sink.add("s3cret");
 * if (!learned.has("s3cret")) throw new Error();
 * ```
 */
export interface SecretSink {
  /** Masks `value` in everything written from now on. */
  add(value: string): void;
  /** Hears the name of a secret variable too short to be masked (see {@linkcode shortSecretWarning}). */
  short?(name: string): void;
}

/**
 * The warning for a secret variable whose value is shorter than the
 * shortest a redactor masks (`ok`, `run`): named, never quoted. Masking two
 * or three letters would rewrite flowrun's own words wherever they stand
 * (`run`, `ok`), and hides nothing a guesser could not try, so, as GitLab
 * and Buildkite do, flowrun says so instead.
 *
 * @example
 * ```ts
 * import { shortSecretWarning } from "./secrets.ts";
 * if (!shortSecretWarning("PASSWORD").startsWith("warning[short-secret]: PASSWORD is shorter than 4 characters")) throw new Error();
 * ```
 */
export function shortSecretWarning(name: string): string {
  return `warning[short-secret]: ${name} is shorter than ${MIN_SECRET_LENGTH} characters: ` +
    "it cannot be told from ordinary words and is not masked in what the run writes.\n" +
    "  hint: Use a longer secret; one of 8 characters or more is masked wherever it stands.\n";
}

/** Learns a secret variable's value; a non-blank one too short to mask is named to `sink.short`. */
function learn(sink: SecretSink, name: string, value: string): void {
  sink.add(value);
  const length = value.trim().length;
  if (length > 0 && length < MIN_SECRET_LENGTH) sink.short?.(name);
}

/**
 * The run's secrets: each known value with the variable that holds it, so
 * a printed curl command can say "$NAME", and the rule for secret names.
 *
 * @example
 * ```ts
 * import type { RunSecrets } from "./secrets.ts";
 * const secrets: RunSecrets = { variables: new Map([["t0k", "TOKEN"]]), isSecret: (n) => n === "TOKEN" };
 * if (secrets.variables.get("t0k") !== "TOKEN" || !secrets.isSecret("TOKEN")) throw new Error();
 * ```
 */
export interface RunSecrets {
  /** Secret value → the variable that holds it. */
  variables: Map<string, string>;
  /** Whether a variable of this name holds a secret (`--secret` or the name rule). */
  isSecret(name: string): boolean;
}

/**
 * Learns the `--secret` values (each must be set by `--var`, the
 * environment or an `--env-file`) and the `--var` values with secret names.
 *
 * @example
 * ```ts
 * import { learnSecrets } from "./secrets.ts";
 * const learned: string[] = [];
 * const secrets = learnSecrets({
 *   secretNames: new Set(["token"]),
 *   params: new Map([["token", "t0ps3cret"], ["api_password", "hunter22"], ["user", "ann"]]),
 *   envFile: new Map(),
 *   env: () => undefined,
 *   sink: { add: (value) => learned.push(value) },
 * });
 * if (learned.join() !== "t0ps3cret,t0ps3cret,hunter22") throw new Error(learned.join());
 * if (secrets.variables.get("hunter22") !== "api_password" || secrets.isSecret("user")) throw new Error();
 * ```
 */
export function learnSecrets(input: {
  secretNames: ReadonlySet<string>;
  params: ReadonlyMap<string, string>;
  envFile: ReadonlyMap<string, string>;
  env: (name: string) => string | undefined;
  sink: SecretSink;
}): RunSecrets {
  const { secretNames, params, sink } = input;
  const variables = new Map<string, string>();
  for (const name of secretNames) {
    const value = params.get(name) ?? input.env(name) ?? input.envFile.get(name);
    if (value === undefined) {
      throw new UsageError(
        "bad-secret",
        `--secret ${name}: no --var or environment variable of that name is set.`,
      );
    }
    learn(sink, name, value);
    variables.set(value, name);
  }
  const isSecret = (name: string) => secretNames.has(name) || isSecretName(name);
  for (const [name, value] of params) {
    if (!isSecret(name)) continue;
    learn(sink, name, value);
    variables.set(value, name);
  }
  return { variables, isSecret };
}

/**
 * The environment as the flows read it: the process's variables over the
 * `--env-file` ones (as dotenv tools do), each name read once, and every
 * name read recorded for the manifest. A secret-named variable's value is
 * learned as it is read.
 *
 * @example
 * ```ts
 * import { flowEnv } from "./secrets.ts";
 * const learned: string[] = [];
 * const secrets = { variables: new Map(), isSecret: (name: string) => name.endsWith("TOKEN") };
 * const { env, read } = flowEnv({
 *   env: (name) => name === "API_TOKEN" ? "s3cr3t-value" : undefined,
 *   envFile: new Map([["BASE_URL", "http://localhost"]]),
 *   secrets,
 *   sink: { add: (value) => learned.push(value) },
 * });
 * if (env("BASE_URL") !== "http://localhost" || env("API_TOKEN") !== "s3cr3t-value") throw new Error();
 * if (learned.join() !== "s3cr3t-value" || [...read].join() !== "BASE_URL,API_TOKEN") throw new Error();
 * ```
 */
export function flowEnv(input: {
  env: (name: string) => string | undefined;
  envFile: ReadonlyMap<string, string>;
  secrets: RunSecrets;
  sink: SecretSink;
}): { env: (name: string) => string | undefined; read: Set<string> } {
  const { envFile, secrets, sink } = input;
  const read = new Set<string>();
  // Read once per name: every request of every flow reads ${ENV.BASE_URL} again, and each
  // read was a runtime call, a secret-name test and a registration.
  const seen = new Map<string, string | undefined>();
  const env = (name: string) => {
    if (seen.has(name)) return seen.get(name);
    read.add(name);
    const value = input.env(name) ?? envFile.get(name);
    if (value !== undefined && secrets.isSecret(name)) {
      learn(sink, name, value);
      if (!secrets.variables.has(value)) secrets.variables.set(value, name);
    }
    seen.set(name, value);
    return value;
  };
  return { env, read };
}
