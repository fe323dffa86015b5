/**
 * How the tests of tests/real/ start Radicale, the CalDAV and CardDAV
 * server (Debian's `python3-radicale` 3.1, Python). Its built-in web UI
 * (`/.web/`, plain script) speaks WebDAV to the server itself: `PROPFIND`
 * with an XML body and `Depth: 1` to list the user's collections, `MKCOL`
 * to create an address book or a calendar at a path the page makes up (a
 * random UUID), `PROPPATCH` to edit one, `PUT` to upload a calendar file,
 * `DELETE`; answers are `207 Multi-Status` XML. The password the user types
 * is sent as HTTP Basic on every request the page makes.
 *
 * Every start is a fresh server: its own config file, a plain htpasswd file
 * with one user, and its own empty storage folder, on a port that was free
 * a moment before.
 *
 * @module
 */
import type { Launch } from "./servers.ts";
import { debianMissing } from "./debian.ts";

const PYTHON = "/usr/bin/python3";
/** A file the package installs: Debian's python3 runs `-m radicale` from it. */
const MODULE = "/usr/lib/python3/dist-packages/radicale/__main__.py";

/** The user of every instance (what a person types in the web UI's login). */
export const RADICALE_USER = { user: "ada", password: "Quill-Harbor-77" };

/**
 * Why the Radicale tests cannot run here ("" when they can): no
 * `python3-radicale` and `apt-get install` could not put it there. With
 * `CI` set that is an error, like a failed install.
 *
 * @example
 * ```ts
 * import { radicaleMissing } from "./radicale.ts";
 * if (typeof radicaleMissing() !== "string") throw new Error();
 * ```
 */
export function radicaleMissing(): string {
  return debianMissing(MODULE, "python3-radicale");
}

/**
 * A fresh Radicale on 127.0.0.1 with htpasswd authentication (the one user
 * of {@link RADICALE_USER}, its password in plain text in a file of the
 * instance's folder); ready once its web UI answers, which needs no login.
 *
 * @example
 * ```ts
 * import { radicaleLaunch } from "./radicale.ts";
 * const launch = radicaleLaunch();
 * if (launch.probe !== "/.web/" || !launch.command.includes("radicale")) throw new Error();
 * ```
 */
export function radicaleLaunch(): Launch {
  return {
    command: [
      PYTHON,
      "-m",
      "radicale",
      // Only the file written here: no /etc/radicale/config or ~/.config of this machine.
      "--config",
      "DIR/config",
      "--server-hosts",
      "127.0.0.1:PORT",
    ],
    seed: async (dir) => {
      await Deno.mkdir(`${dir}/collections`);
      const { user, password } = RADICALE_USER;
      await Deno.writeTextFile(`${dir}/users`, `${user}:${password}\n`);
      const config = [
        "[auth]",
        "type = htpasswd",
        `htpasswd_filename = ${dir}/users`,
        "htpasswd_encryption = plain",
        "[storage]",
        `filesystem_folder = ${dir}/collections`,
        "",
      ].join("\n");
      await Deno.writeTextFile(`${dir}/config`, config);
    },
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/.web/",
  };
}
