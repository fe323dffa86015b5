/**
 * How the tests of tests/real/ start Transmission, the BitTorrent daemon
 * (Debian's `transmission-daemon` 3.00, C), and make the `.torrent` file a
 * user adds to it. Its web UI (`/transmission/web/`, a single-page app)
 * talks JSON-RPC to `/transmission/rpc`, guarded against CSRF by
 * `X-Transmission-Session-Id`: a request without the daemon's current id is
 * answered 409 with the id in that response header, and the client sends
 * it again with it; every start of the daemon issues a new id.
 *
 * Every start is a fresh daemon: its own config folder (a `settings.json`
 * that lets 127.0.0.1 in and checks no Host name), its own download folder,
 * an RPC port and a peer port that were free a moment before, and no DHT,
 * local peer discovery or port mapping (nothing leaves the machine; a
 * torrent that never finds a peer is fine).
 *
 * @module
 */
import { freePort, type Instance, type Launch } from "./servers.ts";
import { debianMissing } from "./debian.ts";

const DAEMON = "/usr/bin/transmission-daemon";

/**
 * Why the Transmission tests cannot run here ("" when they can): no
 * `transmission-daemon` and `apt-get install` could not put it there. With
 * `CI` set that is an error, like a failed install.
 *
 * @example
 * ```ts
 * import { transmissionMissing } from "./transmission.ts";
 * if (typeof transmissionMissing() !== "string") throw new Error();
 * ```
 */
export function transmissionMissing(): string {
  return debianMissing(DAEMON, "transmission-daemon");
}

/** RPC authentication: Basic, with this user and password. */
export interface RpcAuth {
  user: string;
  password: string;
}

/**
 * A fresh daemon on 127.0.0.1, with RPC authentication when `auth` is
 * given; it is ready once its web UI answers (the RPC itself answers 409
 * before a session id is sent).
 *
 * @example
 * ```ts
 * import { transmissionLaunch } from "./transmission.ts";
 * const launch = transmissionLaunch();
 * if (launch.probe !== "/transmission/web/" || !launch.command.includes("-T")) throw new Error();
 * ```
 */
export function transmissionLaunch(auth?: RpcAuth): Launch {
  const peerPort = freePort();
  return {
    command: [
      DAEMON,
      "-f",
      "-g",
      "DIR/config",
      "--rpc-bind-address",
      "127.0.0.1",
      "-p",
      "PORT",
      ...(auth ? ["-t", "-u", auth.user, "-v", auth.password] : ["-T"]),
      "--no-portmap",
      "--no-dht",
      "--no-lpd",
      "-P",
      String(peerPort),
      "--download-dir",
      "DIR/downloads",
    ],
    seed: async (dir) => {
      await Deno.mkdir(`${dir}/config`);
      await Deno.mkdir(`${dir}/downloads`);
      const settings = {
        // Its default is ~/Downloads: a path of this machine in every recorded session-get.
        "incomplete-dir": `${dir}/incomplete`,
        "rpc-whitelist": "127.0.0.1",
        "rpc-whitelist-enabled": true,
        "rpc-host-whitelist-enabled": false,
        "pex-enabled": false,
        "utp-enabled": false,
        "bind-address-ipv4": "127.0.0.1",
        "bind-address-ipv6": "::1",
      };
      await Deno.writeTextFile(`${dir}/config/settings.json`, JSON.stringify(settings, null, 2));
    },
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/transmission/web/",
  };
}

type Bencoded = number | string | Uint8Array | Bencoded[] | { [key: string]: Bencoded };

/** Bencoding (BEP 3): integers, byte strings, lists and dictionaries with sorted keys. */
function bencode(value: Bencoded): Uint8Array {
  const text = (s: string) => new TextEncoder().encode(s);
  const join = (parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) (out.set(p, at), at += p.length);
    return out;
  };
  if (typeof value === "number") return text(`i${value}e`);
  if (typeof value === "string") value = text(value);
  if (value instanceof Uint8Array) return join([text(`${value.length}:`), value]);
  if (Array.isArray(value)) return join([text("l"), ...value.map(bencode), text("e")]);
  const keys = Object.keys(value).sort();
  return join([text("d"), ...keys.flatMap((k) => [bencode(k), bencode(value[k])]), text("e")]);
}

/**
 * A single-file `.torrent` for `content` named `name` (one piece of 16 KiB
 * or more, its SHA-1 computed here), with a tracker at 127.0.0.1:9 that
 * never answers: a torrent that is added, listed and never finds a peer.
 *
 * @example
 * ```ts
 * import { makeTorrent } from "./transmission.ts";
 * const torrent = await makeTorrent("a.txt", new TextEncoder().encode("a"));
 * if (new TextDecoder().decode(torrent.slice(0, 11)) !== "d8:announce") throw new Error();
 * ```
 */
export async function makeTorrent(name: string, content: Uint8Array): Promise<Uint8Array> {
  const pieceLength = 16_384;
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < content.length; at += pieceLength) {
    const digest = await crypto.subtle.digest("SHA-1", content.slice(at, at + pieceLength));
    pieces.push(new Uint8Array(digest));
  }
  const joined = new Uint8Array(pieces.length * 20);
  pieces.forEach((p, i) => joined.set(p, i * 20));
  return bencode({
    announce: "http://127.0.0.1:9/announce",
    info: { length: content.length, name, "piece length": pieceLength, pieces: joined },
  });
}

/**
 * A fresh daemon with RPC authentication on, stopped by `close`. Its every
 * path answers 401 without the password, so it is started here rather than
 * by `servers.ts` `start` (whose probe sends none): ready once its web UI
 * answers 200 to the Basic credentials (at most 300 polls of 100 ms).
 *
 * @example
 * ```ts ignore
 * import { startWithAuth } from "./transmission.ts";
 * const daemon = await startWithAuth({ user: "ada", password: "secret-1" });
 * await daemon.close();
 * ```
 */
export async function startWithAuth(auth: RpcAuth): Promise<Instance> {
  const launch = transmissionLaunch(auth);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-real-" });
  await launch.seed?.(dir);
  const port = freePort();
  const put = (s: string) => s.replaceAll("DIR", dir).replaceAll("PORT", String(port));
  const child = new Deno.Command("setsid", {
    args: launch.command.map(put),
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const close = async () => {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch {
      // Gone already.
    }
    await child.status;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  const origin = `http://127.0.0.1:${port}`;
  const authorization = `Basic ${btoa(`${auth.user}:${auth.password}`)}`;
  for (let poll = 0; poll < 300; poll++) {
    const ok = await fetch(`${origin}/transmission/web/`, { headers: { authorization } })
      .then(async (r) => (await r.body?.cancel(), r.ok), () => false);
    if (ok) return { origin, dir, log: () => "", close };
    await new Promise((r) => setTimeout(r, 100));
  }
  await close();
  throw new Error(`transmission-daemon with authentication did not answer at ${origin} in 30 s`);
}
