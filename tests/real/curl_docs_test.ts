/**
 * `convert curl` on real servers with each project's OWN documented curl
 * examples (`fixtures/curl_docs/<project>.sh`, vendored verbatim with their
 * source): converted with default options as a user pastes them, accepted
 * by `validate`, and run once on a fresh instance with only the variables
 * the flow asks for (its base URL, the credential the user set the server
 * up with). Measured: the examples that get the doc's success (a 2xx); an
 * example a fresh instance cannot answer so is named with why
 * (docs/real-servers.md, "curl: the projects' own examples"), and any other
 * failure fails the test. No credential of the commands is written in the
 * flow, and words equal to one are kept. `REAL_KEEP=DIR` keeps the flows
 * and reports.
 */
import { assertOnlyImpossible, convertAndRunDocs, type DocsCase } from "./curl_docs.ts";
import { httpbinLaunch, httpbinMissing } from "./httpbin.ts";
import { netdataMissing, withNetdata } from "./netdata.ts";
import { PDNS_API_KEY, pdnsMissing, withPdns } from "./pdns.ts";
import { LOGIN, qbittorrentLaunch, qbittorrentMissing } from "./qbittorrent.ts";
import { prepare, realTest, start, withInstance, withRetriedStart } from "./servers.ts";
import { syncthingLaunch, syncthingMissing } from "./syncthing.ts";
import { javaMissing, WIREMOCK, wiremockLaunch } from "./wiremock.ts";

/** A value for the base URL; anything else a new user cannot know. */
function baseOnly(origin: string, more: Record<string, string> = {}) {
  return (name: string, what: string) => {
    // The server's address, however many spellings of it the commands use.
    if (/^BASE_URL(_\d+)?$/.test(name)) return origin;
    if (Object.hasOwn(more, name)) return more[name];
    throw new Error(`the flow asks for ${name} (${what}), which a new user cannot know`);
  };
}

/** Each variable the header describes as `described` gets `value` (one key, however many spellings). */
function byDescription(origin: string, described: RegExp, value: string) {
  return (name: string, what: string) =>
    described.test(what) ? value : baseOnly(origin)(name, what);
}

const pdns = await pdnsMissing();
realTest(
  "PowerDNS's documented curl examples, converted and run on a fresh instance",
  pdns,
  async (dir) => {
    await withPdns(start, async (server) => {
      const c: DocsCase = {
        file: "pdns",
        value: byDescription(server.origin, /"x-api-key" header/, PDNS_API_KEY),
        impossible: {
          // 422 "Key 'ttl' not an Integer or not present": the RRset has no `ttl` (each record
          // has one: the README's older form of an RRset).
          update_zone_3: "422",
        },
        secrets: ["changeme"],
      };
      assertOnlyImpossible(c, await convertAndRunDocs(c, dir));
    });
  },
);

const qbittorrent = qbittorrentMissing();
realTest(
  "qBittorrent's documented curl login, converted and run on a fresh instance",
  qbittorrent,
  async (dir) => {
    await withInstance(qbittorrentLaunch(), async (server) => {
      const c: DocsCase = {
        file: "qbittorrent",
        value: baseOnly(server.origin, { LOGIN_PASSWORD: LOGIN.password }),
        impossible: {},
        secrets: ["adminadmin", "hBc7TxF76ERhvIw0jQQ4LZ7Z1jQUV0tQ"],
        kept: ["username: admin"],
      };
      assertOnlyImpossible(c, await convertAndRunDocs(c, dir));
    });
  },
);

const syncthing = syncthingMissing();
realTest(
  "Syncthing's documented curl examples, converted and run on a fresh instance",
  syncthing,
  async (dir) => {
    await withInstance(syncthingLaunch(), async (server) => {
      const config = await Deno.readTextFile(`${server.dir}/home/config.xml`);
      const key = /<apikey>([^<]+)<\/apikey>/.exec(config)?.[1] ?? "";
      const c: DocsCase = {
        file: "syncthing",
        value: byDescription(server.origin, /"x-api-key" header/i, key),
        impossible: {
          // Sent without an API key, as the docs print them: the REST API answers 403.
          get_deviceid: "403",
          get_deviceid_2: "403",
          get_device: "403",
          discovery: "403",
          scan: "403 (and no folder `default`)",
          // `.. versionadded:: 2.0.0`; Debian's Syncthing is 1.19: 404.
          create_loglevel: "404",
          // "Removed in v0.12.0", the page says: 405.
          discovery_2: "405",
          // A fresh instance has no folder (`ab1c2-def3g`, `YOUR_FOLDER_ID`, `default`): 500, 404, 500.
          reset: "500",
          get_file: "404",
          create_version: "500",
        },
        secrets: ["yourkey", "abc123", "TcE28kVPdtJ8COws1JdM0b2nodj77WeQ"],
      };
      const result = await convertAndRunDocs(c, dir);
      // `localhost:8384` and `http://127.0.0.1:8384` are one server: one base URL.
      if (result.asked.has("BASE_URL_2")) throw new Error("one server, two base URLs");
      assertOnlyImpossible(c, result);
    });
  },
);

const java = javaMissing();
const wiremock = java ? { ignoredBecause: java } : await prepare([WIREMOCK]);
realTest(
  "WireMock's documented curl examples, converted and run on a fresh instance",
  wiremock.ignoredBecause,
  async (dir) => {
    await withInstance(wiremockLaunch(wiremock.install!.prefix), async (server) => {
      const c: DocsCase = {
        file: "wiremock",
        value: baseOnly(server.origin, { BASIC_PASSWORD: "the-admin-password" }),
        impossible: {
          // Its stub is a file dropped into `mappings/` before a restart: a fresh instance has none.
          get_mytest: "404",
        },
        secrets: ["bXktdXNlcm5hbWU6bXktc3VwZXItc2VjcmV0LXBhc3N3b3Jk", "my-super-secret-password"],
      };
      assertOnlyImpossible(c, await convertAndRunDocs(c, dir));
    });
  },
);

realTest(
  "httpbin's documented curl examples, converted and run on a fresh instance",
  httpbinMissing(),
  async (dir) => {
    await withRetriedStart(start, () => httpbinLaunch, async (server) => {
      const c: DocsCase = {
        file: "httpbin",
        value: baseOnly(server.origin),
        // "HTTP/1.1 418 I'M A TEAPOT", as the page prints it.
        answers: { head_status: 418 },
        impossible: {},
        secrets: [],
      };
      assertOnlyImpossible(c, await convertAndRunDocs(c, dir));
    });
  },
);

realTest(
  "Netdata's documented curl examples, converted and run on a fresh instance",
  netdataMissing(),
  async (dir) => {
    await withNetdata(start, async (server) => {
      const c: DocsCase = {
        file: "netdata",
        value: baseOnly(server.origin),
        impossible: {},
        secrets: [],
      };
      const result = await convertAndRunDocs(c, dir);
      // Two inside `eval "$(curl …)"`, one after `time`: before, only the last was a step.
      if (result.steps.length !== 3) throw new Error(`3 examples, ${result.steps.length} steps`);
      assertOnlyImpossible(c, result);
    });
  },
);
