/**
 * AWS credentials where the AWS CLI and SDKs look for them: the standard
 * environment variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
 * `AWS_SESSION_TOKEN`), else a profile (`AWS_PROFILE`, else `default`) of
 * the shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`, else
 * `~/.aws/credentials`). A profile named outright is read from the file
 * whatever the environment holds. The file is read with a bound: it holds
 * a few keys, never megabytes.
 *
 * @module
 */
import { InputFileError } from "./input_error.ts";
import { readBytesSync } from "./read.ts";
import { around, tell, type Told, told } from "../model/told.ts";

/**
 * Credentials as read: the keys, and where they came from (for messages;
 * never a secret).
 *
 * @example
 * ```ts
 * import type { FoundAwsCredentials } from "./aws_credentials.ts";
 * const c: FoundAwsCredentials = { accessKeyId: "AKID", secretAccessKey: "s", source: "the environment" };
 * if (c.source !== "the environment") throw new Error();
 * ```
 */
export interface FoundAwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** `the environment`, or `profile "x" of /path`. */
  source: string;
}

/**
 * No credentials where they were looked for. The message says where it
 * looked and what to set; it never holds a key.
 *
 * @example
 * ```ts
 * import { AwsCredentialsError, findAwsCredentials } from "./aws_credentials.ts";
 * try {
 *   findAwsCredentials(() => undefined);
 *   throw new Error("expected no credentials");
 * } catch (error) {
 *   if (!(error instanceof AwsCredentialsError)) throw error;
 *   if (error.told.values.join() !== "default,~/.aws/credentials") throw error;
 * }
 * ```
 */
export class AwsCredentialsError extends Error {
  /**
   * The message as flowrun's words and the values it quotes (a profile's name, the file's path,
   * why it cannot be read), masked where a step shows it: a short password never masks a word.
   */
  readonly told: Told;
  /** An error whose message names where the credentials were looked for. */
  constructor(message: string | Told) {
    super(typeof message === "string" ? message : tell(message));
    this.name = "AwsCredentialsError";
    this.told = typeof message === "string" ? told`${message}` : message;
  }
}

/** The largest credentials file read: a few profiles are a few hundred bytes. */
export const MAX_AWS_CREDENTIALS_BYTES = 1_048_576;

/**
 * The profiles of a shared credentials file (INI: `[name]` sections,
 * `key = value` lines, `#` and `;` comments), names and keys as written,
 * values trimmed.
 *
 * @example
 * ```ts
 * import { parseAwsProfiles } from "./aws_credentials.ts";
 * const profiles = parseAwsProfiles("[default]\naws_access_key_id = AKID ; comment\n# note\n[dev]\nregion=eu-west-1\n");
 * if (profiles.get("default")?.get("aws_access_key_id") !== "AKID") throw new Error();
 * if (profiles.get("dev")?.get("region") !== "eu-west-1") throw new Error();
 * ```
 */
export function parseAwsProfiles(text: string): Map<string, Map<string, string>> {
  const profiles = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const section = /^\[\s*(?:profile\s+)?([^\]]*?)\s*\]$/.exec(line);
    if (section) {
      current = profiles.get(section[1]) ?? new Map();
      profiles.set(section[1], current);
      continue;
    }
    const eq = line.indexOf("=");
    if (!current || eq < 0) continue;
    // An inline comment starts with whitespace then # or ; (a key holds neither after a space).
    const value = line.slice(eq + 1).replace(/\s[#;].*$/, "").trim();
    current.set(line.slice(0, eq).trim().toLowerCase(), value);
  }
  return profiles;
}

/**
 * Credentials for a request: a `profile` named outright is read from the
 * shared credentials file; otherwise the environment's keys, else the
 * file's `AWS_PROFILE` (or `default`) profile. Throws
 * {@linkcode AwsCredentialsError} when there are none, or when the file
 * exists but cannot be read.
 *
 * @example
 * ```ts
 * import { findAwsCredentials } from "./aws_credentials.ts";
 * const env = new Map([["AWS_ACCESS_KEY_ID", "AKID"], ["AWS_SECRET_ACCESS_KEY", "s"], ["AWS_SESSION_TOKEN", "t"]]);
 * const found = findAwsCredentials((name) => env.get(name));
 * if (found.sessionToken !== "t" || found.source !== "the environment") throw new Error();
 * ```
 */
export function findAwsCredentials(
  env: (name: string) => string | undefined,
  profile?: string,
): FoundAwsCredentials {
  const id = env("AWS_ACCESS_KEY_ID");
  const secret = env("AWS_SECRET_ACCESS_KEY");
  if (profile === undefined && id && secret) {
    return found(id, secret, env("AWS_SESSION_TOKEN"), "the environment");
  }
  const name = profile || env("AWS_PROFILE") || "default";
  const path = credentialsPath(env);
  const where = told`profile "${name}" of ${path ?? "~/.aws/credentials"}`;
  const keys = path === undefined ? undefined : readProfiles(path, env)?.get(name);
  const half = id || secret
    ? ` (only ${id ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY"} is set in the environment)`
    : "";
  if (!keys) {
    throw new AwsCredentialsError(
      around("No AWS credentials: there is no ", where, `${half}; ${FIX}.`),
    );
  }
  const keyId = keys.get("aws_access_key_id");
  const keySecret = keys.get("aws_secret_access_key");
  if (!keyId || !keySecret) {
    const missing = keyId ? "aws_secret_access_key" : "aws_access_key_id";
    throw new AwsCredentialsError(around("The ", where, ` has no ${missing}; ${FIX}.`));
  }
  return found(keyId, keySecret, keys.get("aws_session_token"), tell(where));
}

const FIX = "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write the profile's " +
  "aws_access_key_id and aws_secret_access_key into the shared credentials file " +
  "(AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/credentials) and name it with profile: or AWS_PROFILE";

function found(
  accessKeyId: string,
  secretAccessKey: string,
  token: string | undefined,
  source: string,
): FoundAwsCredentials {
  return { accessKeyId, secretAccessKey, ...(token ? { sessionToken: token } : {}), source };
}

/** `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials` (undefined without a home). */
function credentialsPath(env: (name: string) => string | undefined): string | undefined {
  const named = env("AWS_SHARED_CREDENTIALS_FILE");
  if (named) return named.replace(/^~(?=$|[/\\])/, env("HOME") ?? env("USERPROFILE") ?? "~");
  const home = env("HOME") ?? env("USERPROFILE");
  return home ? `${home}/.aws/credentials` : undefined;
}

/**
 * The file's profiles, or undefined when it does not exist. A file that cannot be read (a
 * folder, a device, too large, no permission) is said naming the file and the variable that
 * chose it: the read's own error reached the step as "internal error while running the step".
 */
function readProfiles(
  path: string,
  env: (name: string) => string | undefined,
): Map<string, Map<string, string>> | undefined {
  try {
    Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
  }
  let bytes: Uint8Array;
  try {
    bytes = readBytesSync(path, { limit: MAX_AWS_CREDENTIALS_BYTES });
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    const chosen = env("AWS_SHARED_CREDENTIALS_FILE")
      ? "AWS_SHARED_CREDENTIALS_FILE names"
      : "the default credentials file is";
    // The path and the read's reason (which may quote it) are values; the rest is flowrun's.
    throw new AwsCredentialsError(around(
      `The AWS shared credentials file cannot be read: ${chosen} `,
      told`${path}, and ${lowerFirst(error.message)}`,
      " Point AWS_SHARED_CREDENTIALS_FILE at the credentials file (an INI file of a few " +
        "profiles), or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.",
    ));
  }
  return parseAwsProfiles(new TextDecoder().decode(bytes));
}

function lowerFirst(text: string): string {
  const sentence = /[.!?]$/.test(text) ? text : `${text}.`;
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}
