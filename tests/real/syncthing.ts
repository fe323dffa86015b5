/**
 * How the tests of tests/real/ start Syncthing, the file synchroniser
 * (Debian's `syncthing` 1.19, Go). Its web GUI (an AngularJS single-page
 * app at `/`) calls the REST API under `/rest/`, guarded against CSRF by a
 * pair whose NAME depends on the instance: the page's answer sets a cookie
 * `CSRF-Token-<first 5 characters of the device id>` and the app sends its
 * value in the header `X-CSRF-Token-<same 5 characters>`. A fresh instance
 * has another device id, so another header name as well as another value.
 *
 * Every start is a fresh instance: `syncthing generate` makes its keys and
 * config in a temp folder of its own (a new device id each time, no default
 * folder), and the config is edited so that it makes no connection off this
 * machine: no global or local discovery, no relays, no NAT traversal, no
 * crash reports, no upgrade checks, and a sync listener on 127.0.0.1 only.
 * Usage reporting is left undecided (`urAccepted` 0), so the GUI asks, as it
 * asks every new user.
 *
 * The GUI's address in the config is set too (127.0.0.1:8384 unless told),
 * though the instance listens where `--gui-address` says: `generate` writes
 * 8384 only when that port is free a moment, else a random port, and a
 * config write sending another address than the config's restarts the
 * GUI's listener (the request after it is refused). That made `--verify` on
 * a fresh instance repair the seven config writes in some runs and not in
 * others (issue 52): now the instance says which.
 *
 * @module
 */
import type { Launch } from "./servers.ts";
import { debianMissing } from "./debian.ts";

const SYNCTHING = "/usr/bin/syncthing";

/**
 * Why the Syncthing tests cannot run here ("" when they can): no
 * `syncthing` and `apt-get install` could not put it there. With `CI` set
 * that is an error, like a failed install.
 *
 * @example
 * ```ts
 * import { syncthingMissing } from "./syncthing.ts";
 * if (typeof syncthingMissing() !== "string") throw new Error();
 * ```
 */
export function syncthingMissing(): string {
  return debianMissing(SYNCTHING, "syncthing");
}

/** The options of config.xml that would reach off this machine, and what they become. */
const OFFLINE: Record<string, string> = {
  listenAddress: "tcp://127.0.0.1:0",
  globalAnnounceEnabled: "false",
  localAnnounceEnabled: "false",
  relaysEnabled: "false",
  natEnabled: "false",
  startBrowser: "false",
  autoUpgradeIntervalH: "0",
  crashReportingEnabled: "false",
};

/**
 * `config.xml` with every option of {@linkcode OFFLINE} set, so the
 * instance tries no connection off 127.0.0.1.
 *
 * @example
 * ```ts
 * import { offline } from "./syncthing.ts";
 * const xml = offline("<natEnabled>true</natEnabled>");
 * if (xml !== "<natEnabled>false</natEnabled>") throw new Error(xml);
 * ```
 */
export function offline(xml: string): string {
  for (const [name, value] of Object.entries(OFFLINE)) {
    xml = xml.replace(new RegExp(`<${name}>[^<]*</${name}>`), `<${name}>${value}</${name}>`);
  }
  return xml;
}

/**
 * `config.xml` with the GUI's address set to `address` (the instance still
 * listens where `--gui-address` says).
 *
 * @example
 * ```ts
 * import { guiAt } from "./syncthing.ts";
 * const xml = guiAt('<gui enabled="true">\n  <address>127.0.0.1:41789</address>', "127.0.0.1:8384");
 * if (!xml.includes("<address>127.0.0.1:8384</address>")) throw new Error(xml);
 * ```
 */
export function guiAt(xml: string, address: string): string {
  return xml.replace(/(<gui\b[^>]*>\s*<address>)[^<]*(<\/address>)/, `$1${address}$2`);
}

/**
 * The GUI address `syncthing generate` writes when 127.0.0.1:8384 is free.
 *
 * @example
 * ```ts
 * import { DEFAULT_GUI } from "./syncthing.ts";
 * if (!DEFAULT_GUI.endsWith(":8384")) throw new Error(DEFAULT_GUI);
 * ```
 */
export const DEFAULT_GUI = "127.0.0.1:8384";

/**
 * A fresh instance on 127.0.0.1 (a new device id, so a new CSRF header
 * name), ready once its GUI's page answers. With `identity`, a folder
 * holding a `cert.pem` and `key.pem`, the instance is that device (its id,
 * so its CSRF header's name) with everything else new: config, API key,
 * CSRF tokens, database and home folder. `guiAddress` is the GUI's address
 * its config holds (default {@linkcode DEFAULT_GUI}, whatever `generate`
 * found free).
 *
 * @example
 * ```ts
 * import { syncthingLaunch } from "./syncthing.ts";
 * const launch = syncthingLaunch();
 * if (!launch.command.includes("--no-restart")) throw new Error();
 * ```
 */
export function syncthingLaunch(identity?: string, guiAddress = DEFAULT_GUI): Launch {
  return {
    command: [
      SYNCTHING,
      "serve",
      "--home",
      "DIR/home",
      "--no-browser",
      "--no-restart",
      "--no-upgrade",
      "--no-default-folder",
      "--skip-port-probing",
      "--gui-address",
      "http://127.0.0.1:PORT",
    ],
    env: {
      STNODEFAULTFOLDER: "1",
      STNOUPGRADE: "1",
      STNORESTART: "1",
      // Its default folder for new folders is ~: a path of this machine in every recorded config.
      HOME: "DIR",
    },
    seed: async (dir) => {
      if (identity) {
        await Deno.mkdir(`${dir}/home`);
        // `generate` keeps a key pair it finds: the device id stays that of the pair.
        for (const file of ["cert.pem", "key.pem"]) {
          await Deno.copyFile(`${identity}/${file}`, `${dir}/home/${file}`);
        }
      }
      const generated = await new Deno.Command(SYNCTHING, {
        args: ["generate", "--home", `${dir}/home`, "--no-default-folder"],
        env: { HOME: dir },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (!generated.success) {
        throw new Error(`syncthing generate failed: ${new TextDecoder().decode(generated.stderr)}`);
      }
      const config = `${dir}/home/config.xml`;
      await Deno.writeTextFile(config, guiAt(offline(await Deno.readTextFile(config)), guiAddress));
    },
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/",
  };
}

/**
 * The device id of the instance whose home folder is `dir/home`, as its
 * config names it (the first `<device id=…>`).
 *
 * @example
 * ```ts
 * import { deviceIdIn } from "./syncthing.ts";
 * if (deviceIdIn('<device id="AB-CD" name="x">') !== "AB-CD") throw new Error();
 * ```
 */
export function deviceIdIn(configXml: string): string {
  return /<device id="([A-Z0-9-]+)"/.exec(configXml)?.[1] ?? "";
}
