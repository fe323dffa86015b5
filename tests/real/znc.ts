/**
 * How the tests of tests/real/ start ZNC 1.8 from Debian bookworm (`znc`, an IRC bouncer in
 * C++), for its web admin (`webadmin`, a global module): server-rendered pages whose forms post a
 * `_CSRF_Check` token the page handed out, a session cookie named for the listener's port
 * (`PORT-SessionId`), a login form without a token.
 *
 * - **Instance**: a data folder holding `configs/znc.conf`, written as `znc --makeconf` would:
 *   one listener on `127.0.0.1:PORT` for the web only (no IRC clients), `webadmin` loaded, one
 *   admin user {@linkcode LOGIN} whose password is stored as ZNC's salted SHA-256 (`znc
 *   --makepass`'s `<Pass>` block). No network is configured, so ZNC connects nowhere.
 * - **Start**: ZNC waits 30 s before it runs as root, so as root it runs as `nobody` (the
 *   folder is handed to that user); `-f` keeps it in the foreground, in the test's process
 *   group. Ready once the login page answers.
 *
 * @module
 */
import { freePort, type Launch } from "./servers.ts";
import { debianPackagesMissing } from "./debian.ts";

const ZNC = "/usr/bin/znc";

/** The admin a fresh instance has, and the password the user types at the login. */
export const LOGIN = { username: "keeper", password: "lantern-moth-62" } as const;

/**
 * Why the ZNC tests cannot run here ("" when they can): no `znc` and `apt-get install` could
 * not put it there. With `CI` set that is an error.
 *
 * @example
 * ```ts
 * import { zncMissing } from "./znc.ts";
 * if (typeof zncMissing() !== "string") throw new Error();
 * ```
 */
export function zncMissing(): string {
  return debianPackagesMissing({ znc: ZNC });
}

/** ZNC's stored password: SHA-256 of the password followed by the salt, in hex. */
async function passBlock(password: string): Promise<string> {
  const salt = [...crypto.getRandomValues(new Uint8Array(10))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(password + salt),
  );
  const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `\t<Pass password>\n\t\tMethod = SHA256\n\t\tHash = ${hash}\n\t\tSalt = ${salt}\n\t</Pass>`;
}

/** The config of a fresh instance listening on `port`. */
async function config(port: number): Promise<string> {
  const { username } = LOGIN;
  return [
    "Version = 1.8.2",
    "LoadModule = webadmin",
    "<Listener web>",
    ...["Host = 127.0.0.1", `Port = ${port}`, "IPv4 = true", "IPv6 = false", "SSL = false"]
      .map((l) => `\t${l}`),
    "\tAllowIRC = false\n\tAllowWeb = true",
    "</Listener>",
    `<User ${username}>`,
    "\tAdmin = true",
    `\tNick = ${username}\n\tAltNick = ${username}_\n\tIdent = ${username}`,
    "\tRealName = Bouncer Keeper",
    await passBlock(LOGIN.password),
    "</User>",
    "",
  ].join("\n");
}

/** Runs `program` with `args` and throws with what it printed when it fails. */
async function run(program: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(program, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${program}: ${new TextDecoder().decode(out.stderr)}`);
}

/**
 * A fresh instance on 127.0.0.1, ready once its login page answers. Its port is chosen here
 * (free a moment before) because the config names it.
 *
 * @example
 * ```ts
 * import { zncLaunch } from "./znc.ts";
 * if (!zncLaunch().command.includes("DIR/data")) throw new Error();
 * ```
 */
export function zncLaunch(): Launch {
  const port = freePort();
  const root = Deno.uid() === 0;
  const asNobody = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"];
  return {
    command: [...(root ? asNobody : []), ZNC, "-f", "-n", "-d", "DIR/data"],
    env: { HOME: "DIR" },
    seed: async (dir) => {
      await Deno.mkdir(`${dir}/data/configs`, { recursive: true });
      await Deno.writeTextFile(`${dir}/data/configs/znc.conf`, await config(port));
      // The folder is made private to root; ZNC, run as nobody, writes its config back there.
      if (root) await run("chown", ["-R", "nobody:nogroup", dir]);
    },
    origin: () => `http://127.0.0.1:${port}`,
    probe: "/",
  };
}
