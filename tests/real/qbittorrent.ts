/**
 * How the tests of tests/real/ start qBittorrent (Debian's `qbittorrent-nox`
 * 4.5, C++/Qt) with its web UI: a single-page app that logs in with a form
 * POST to `/api/v2/auth/login` (the answer sets a `SID` cookie), polls
 * `/api/v2/sync/maindata?rid=N` where N is the `rid` the previous answer
 * gave, and guards against CSRF by refusing a request whose `Origin` or
 * `Referer` names another host than its `Host` header.
 *
 * Every start is a fresh instance: its own profile folder (a
 * `qBittorrent.conf` that accepts the legal notice, binds the web UI to
 * 127.0.0.1 and turns off DHT, local peer discovery, peer exchange and UPnP),
 * its own download folder, a web UI port and a peer port that were free a
 * moment before. Its login is 4.5's default, `admin` / `adminadmin`.
 *
 * @module
 */
import { freePort, type Launch } from "./servers.ts";
import { debianMissing } from "./debian.ts";

const PROGRAM = "/usr/bin/qbittorrent-nox";

/** The web UI login of a fresh instance (4.5's default). */
export const LOGIN = { username: "admin", password: "adminadmin" } as const;

/**
 * Why the qBittorrent tests cannot run here ("" when they can): no
 * `qbittorrent-nox` and `apt-get install` could not put it there. With `CI`
 * set that is an error, like a failed install.
 *
 * @example
 * ```ts
 * import { qbittorrentMissing } from "./qbittorrent.ts";
 * if (typeof qbittorrentMissing() !== "string") throw new Error();
 * ```
 */
export function qbittorrentMissing(): string {
  return debianMissing(PROGRAM, "qbittorrent-nox");
}

/** The profile's `qBittorrent.conf`: nothing leaves the machine, the UI listens on 127.0.0.1 only. */
function config(dir: string, peerPort: number): string {
  return [
    "[LegalNotice]",
    "Accepted=true",
    "",
    "[BitTorrent]",
    "Session\\DHTEnabled=false",
    "Session\\LSDEnabled=false",
    "Session\\PeXEnabled=false",
    "Session\\AnonymousModeEnabled=true",
    "Session\\Interface=lo",
    "Session\\InterfaceName=lo",
    `Session\\Port=${peerPort}`,
    `Session\\DefaultSavePath=${dir}/downloads`,
    `Session\\TempPath=${dir}/incomplete`,
    "",
    "[Preferences]",
    "Connection\\UPnP=false",
    "General\\Locale=en",
    "WebUI\\Address=127.0.0.1",
    "WebUI\\UseUPnP=false",
    "",
  ].join("\n");
}

/**
 * A fresh instance on 127.0.0.1; it is ready once its web UI's page answers
 * (the API answers 403 before a login).
 *
 * @example
 * ```ts
 * import { qbittorrentLaunch } from "./qbittorrent.ts";
 * const launch = qbittorrentLaunch();
 * if (!launch.command.includes("--webui-port=PORT")) throw new Error();
 * ```
 */
export function qbittorrentLaunch(): Launch {
  const peerPort = freePort();
  return {
    command: [PROGRAM, "--profile=DIR", "--webui-port=PORT", `--torrenting-port=${peerPort}`],
    env: { HOME: "DIR" },
    seed: async (dir) => {
      await Deno.mkdir(`${dir}/qBittorrent/config`, { recursive: true });
      await Deno.mkdir(`${dir}/downloads`);
      await Deno.writeTextFile(`${dir}/qBittorrent/config/qBittorrent.conf`, config(dir, peerPort));
    },
    origin: (_out, port) => `http://127.0.0.1:${port}`,
    probe: "/",
  };
}

/**
 * How many torrents the instance at `origin` holds, asked through its API
 * after a login of its own.
 *
 * @example
 * ```ts ignore
 * import { torrentCount } from "./qbittorrent.ts";
 * const n = await torrentCount("http://127.0.0.1:8080");
 * ```
 */
export async function torrentCount(origin: string): Promise<number> {
  const login = await fetch(`${origin}/api/v2/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(LOGIN).toString(),
  });
  await login.body?.cancel();
  const sid = /SID=[^;]+/.exec(login.headers.get("set-cookie") ?? "")?.[0] ?? "";
  const list = await fetch(`${origin}/api/v2/torrents/info`, { headers: { cookie: sid } });
  if (!list.ok) throw new Error(`torrents/info answered ${list.status}`);
  return (await list.json()).length;
}
