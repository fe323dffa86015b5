/**
 * Environment variables a shell, a login or the operating system sets for every process. A
 * converter that names a value to set after a collection's `{{pwd}}`, `{{user}}` or `{{lang}}`
 * (or a body's `pwd` field) asked for `PWD`, `USER` or `LANG`: those are always set, so the flow
 * run as printed sent the current directory as the password and the login's name as the user
 * where Newman sends what the files give, and masked the directory in every report as a secret.
 * A name a converter makes is therefore never one of these.
 *
 * @module
 */

/** Set by POSIX shells, `login`, `sudo`, terminals and desktops, and by Windows for every process. */
const SET_FOR_EVERY_PROCESS = new Set([
  "PATH",
  "HOME",
  "PWD",
  "OLDPWD",
  "USER",
  "LOGNAME",
  "USERNAME",
  "SHELL",
  "TERM",
  "LANG",
  "LANGUAGE",
  "HOSTNAME",
  "MAIL",
  "TMPDIR",
  "TEMP",
  "TMP",
  "TZ",
  "DISPLAY",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "SHLVL",
  "USERPROFILE",
  "APPDATA",
  "COMPUTERNAME",
  "OS",
  "CI",
]);

/**
 * `name`, or `name_VALUE` when a shell or the operating system already sets `name` (`LC_…` and
 * `XDG_…` included), so `${ENV.…}` reads only what the user sets.
 *
 * @example
 * ```ts
 * import { ownEnvName } from "./shell_env.ts";
 * if (ownEnvName("PWD") !== "PWD_VALUE" || ownEnvName("LC_ALL") !== "LC_ALL_VALUE") throw new Error();
 * if (ownEnvName("LOGIN_PASSWORD") !== "LOGIN_PASSWORD" || ownEnvName("USER_ID") !== "USER_ID") throw new Error();
 * ```
 */
export function ownEnvName(name: string): string {
  return SET_FOR_EVERY_PROCESS.has(name) || /^(LC|XDG)_/.test(name) ? `${name}_VALUE` : name;
}
