/**
 * How the tests of tests/real/ start Deluge (Debian's `deluged` 2.0 and
 * `deluge-web`, Python/Twisted): a BitTorrent daemon and the web server in
 * front of it, whose single-page app (ExtJS) talks JSON-RPC to `POST /json`
 * (`{method, params, id}`), logs in with `auth.login` and the web password
 * (a fresh instance's is `deluge`; the answer sets a `_session_id` cookie),
 * then connects the web server to a daemon of its host list by the host's
 * id (`web.get_hosts`, `web.connect`).
 *
 * Every start is a fresh pair in one process group: one config folder for
 * both, seeded with the daemon's local login (a random password), a host
 * list naming that daemon on a port that was free a moment before under a
 * random host id (what `deluge-web` writes on its own first start, but for
 * port 58846), and a `core.conf` that keeps every peer socket on 127.0.0.1
 * with no DHT, local peer discovery, UPnP or NAT-PMP; the web server listens
 * on `PORT`.
 *
 * @module
 */
import { freePort, type Launch } from "./servers.ts";
import { debianPackagesMissing } from "./debian.ts";

const DAEMON = "/usr/bin/deluged";
const WEB = "/usr/bin/deluge-web";

/** The web password of a fresh instance (Deluge's default). */
export const WEB_PASSWORD = "deluge";

/**
 * Why the Deluge tests cannot run here ("" when they can): no `deluged` or
 * `deluge-web` and `apt-get install` could not put them there. With `CI` set
 * that is an error, like a failed install.
 *
 * @example
 * ```ts
 * import { delugeMissing } from "./deluge.ts";
 * if (typeof delugeMissing() !== "string") throw new Error();
 * ```
 */
export function delugeMissing(): string {
  return debianPackagesMissing({ deluged: DAEMON, "deluge-web": WEB });
}

/** A Deluge config file: its version header, then the settings (two JSON objects). */
function configFile(file: number, settings: unknown): string {
  return JSON.stringify({ file, format: 1 }, null, 4) + JSON.stringify(settings, null, 4);
}

/** A random lowercase hex string of `bytes` bytes. */
function hex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Writes the daemon's login, the web server's host list and the daemon's settings into `dir`. */
async function seed(dir: string, daemonPort: number): Promise<void> {
  const password = hex(20);
  await Deno.mkdir(`${dir}/downloads`);
  await Deno.writeTextFile(`${dir}/auth`, `localclient:${password}:10\n`);
  const host = [hex(16), "127.0.0.1", daemonPort, "localclient", password];
  await Deno.writeTextFile(`${dir}/hostlist.conf`, configFile(3, { hosts: [host] }));
  const core = {
    daemon_port: daemonPort,
    download_location: `${dir}/downloads`,
    move_completed_path: `${dir}/downloads`,
    torrentfiles_location: `${dir}/downloads`,
    dht: false,
    lsd: false,
    upnp: false,
    natpmp: false,
    utpex: false,
    new_release_check: false,
    listen_interface: "127.0.0.1",
    outgoing_interface: "127.0.0.1",
  };
  await Deno.writeTextFile(`${dir}/core.conf`, configFile(1, core));
}

/**
 * A fresh daemon and web server on 127.0.0.1; ready once the web UI's page
 * answers (the daemon is reached only when the UI connects).
 *
 * @example
 * ```ts
 * import { delugeLaunch } from "./deluge.ts";
 * const launch = delugeLaunch();
 * if (launch.command[0] !== "bash" || !launch.command[2].includes("-p PORT")) throw new Error();
 * ```
 */
export function delugeLaunch(): Launch {
  const daemonPort = freePort();
  const quiet = "-L error";
  // One shell, so both servers share the process group `start` stops; the web server starts
  // once the daemon listens (at most 300 polls of 100 ms), so the UI never finds it offline.
  const script = [
    `${DAEMON} -d -c DIR -p ${daemonPort} -u 127.0.0.1 -i 127.0.0.1 ${quiet} &`,
    `for _ in $(seq 300); do (: </dev/tcp/127.0.0.1/${daemonPort}) 2>/dev/null && break; sleep 0.1; done`,
    `exec ${WEB} -d -c DIR -p PORT -i 127.0.0.1 ${quiet}`,
  ].join("\n");
  return {
    command: ["bash", "-c", script],
    env: { HOME: "DIR" },
    seed: (dir) => seed(dir, daemonPort),
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/",
  };
}

/**
 * Calls `method` with `params` on the web server at `origin` after a login
 * and a connection of its own: the `result` it answered.
 *
 * @example
 * ```ts ignore
 * import { delugeCall } from "./deluge.ts";
 * const torrents = await delugeCall("http://127.0.0.1:8112", "core.get_session_state", []);
 * ```
 */
export async function delugeCall(origin: string, method: string, params: unknown[]) {
  let cookie = "";
  const call = async (m: string, p: unknown[]) => {
    const answer = await fetch(`${origin}/json`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ method: m, params: p, id: 1 }),
    });
    cookie ||= /_session_id=[^;]+/.exec(answer.headers.get("set-cookie") ?? "")?.[0] ?? "";
    const json = await answer.json();
    if (json.error) throw new Error(`${m}: ${JSON.stringify(json.error)}`);
    return json.result;
  };
  await call("auth.login", [WEB_PASSWORD]);
  if (!await call("web.connected", [])) {
    const [[hostId]] = await call("web.get_hosts", []);
    await call("web.connect", [hostId]);
  }
  // The daemon's methods are known once the connection is made: at most 100 polls of 100 ms.
  for (let poll = 0; poll < 100 && !await call("web.connected", []); poll++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return await call(method, params);
}
