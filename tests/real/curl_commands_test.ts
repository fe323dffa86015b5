/**
 * `convert curl` on real servers with curl commands written here for them
 * (`fixtures/curl_commands/<server>.sh`), in the forms each server's users
 * write: a login form then its session cookie, an API key header, `-u`,
 * `-d @-` heredocs, `eval "$(curl …)"`, `ID=$(curl … | jq -r .id)`, `$ `
 * prompts, answers pasted under a command, `| jq`, localhost and 127.0.0.1.
 * Each is converted with default options, accepted by `validate`, and run
 * once on a fresh instance with only the variables the flow asks for (its
 * base URL, the credential the user set the server up with); every command
 * must become a step that gets its intended answer (a 2xx, or the one the
 * case names). No credential the commands type is written in the flow, and
 * words equal to one are kept. `REAL_KEEP=DIR` keeps the flows and reports.
 */
import { assertAllSucceeded, type CommandsCase, convertAndRun } from "./curl_commands.ts";
import { DIRECTUS, DIRECTUS_ADMIN, directusMissing, withDirectus } from "./directus.ts";
import { httpbinLaunch, httpbinMissing } from "./httpbin.ts";
import { netdataMissing, withNetdata } from "./netdata.ts";
import { NODE_RED_PASSWORD, NODE_RED_VERSION, startNodeRed } from "./har/node_red.ts";
import { PDNS_API_KEY, pdnsMissing, withPdns } from "./pdns.ts";
import { LOGIN, qbittorrentLaunch, qbittorrentMissing } from "./qbittorrent.ts";
import {
  type Launch,
  prepare,
  realTest,
  start,
  withInstance,
  withRetriedStart,
} from "./servers.ts";
import { SIGNALK, SIGNALK_ADMIN, signalkFirstAdmin, signalkLaunch } from "./signalk.ts";
import { syncthingLaunch, syncthingMissing } from "./syncthing.ts";
import { javaMissing, WIREMOCK, wiremockLaunch } from "./wiremock.ts";
import { VERDACCIO, verdaccioLaunch } from "./verdaccio.ts";

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
function byDescription(
  origin: string,
  described: RegExp,
  value: string,
  more: Record<string, string> = {},
) {
  return (name: string, what: string) =>
    described.test(what) ? value : baseOnly(origin, more)(name, what);
}

const pdns = await pdnsMissing();
realTest(
  "curl commands for PowerDNS's API, converted and run on a fresh instance",
  pdns,
  async (dir) => {
    await withPdns(start, async (server) => {
      const c: CommandsCase = {
        file: "pdns",
        requests: 10,
        value: byDescription(server.origin, /"x-api-key" header/, PDNS_API_KEY),
        secrets: ["changeme"],
        // The zone the commands create is opened by its name as written (its trailing dot too).
        kept: ["example.org."],
      };
      assertAllSucceeded(c, await convertAndRun(c, dir));
    });
  },
);

const qbittorrent = qbittorrentMissing();
realTest(
  "curl commands for qBittorrent's Web API (login, then its cookie), converted and run on a fresh instance",
  qbittorrent,
  async (dir) => {
    await withInstance(qbittorrentLaunch(), async (server) => {
      const c: CommandsCase = {
        file: "qbittorrent",
        requests: 10,
        value: baseOnly(server.origin, { LOGIN_PASSWORD: LOGIN.password }),
        // The password, and the SID the commands paste from an earlier login's answer.
        secrets: ["adminadmin", "Jx3yVbZ1cQm8rT0aLw9eKs2HdNf5PuGo"],
        kept: ["username: admin", "{ cookie: SID }"],
      };
      assertAllSucceeded(c, await convertAndRun(c, dir));
    });
  },
);

const syncthing = syncthingMissing();
realTest(
  "curl commands for Syncthing's REST API, converted and run on a fresh instance",
  syncthing,
  async (dir) => {
    await withInstance(syncthingLaunch(), async (server) => {
      const config = await Deno.readTextFile(`${server.dir}/home/config.xml`);
      const key = /<apikey>([^<]+)<\/apikey>/.exec(config)?.[1] ?? "";
      const c: CommandsCase = {
        file: "syncthing",
        requests: 12,
        value: byDescription(server.origin, /"x-api-key" header/i, key),
        secrets: ["abc123"],
        // `MYID=$(curl … | jq -r .myID)`: the device id is the status step's answer.
        kept: ["myid: $.json.myID", "/rest/config/folders/photos"],
      };
      const result = await convertAndRun(c, dir);
      // `localhost:8384` and `http://127.0.0.1:8384` are one server: one base URL.
      if (result.asked.has("BASE_URL_2")) throw new Error("one server, two base URLs");
      assertAllSucceeded(c, result);
    });
  },
);

/** The admin password the WireMock instance is started with: not the one the commands type. */
const WIREMOCK_ADMIN = { username: "admin", password: `pw-${crypto.randomUUID()}` };

/**
 * WireMock whose admin API asks for Basic auth (`--admin-api-basic-auth`),
 * ready once a file of its `__files` answers (`/__admin/health` asks for
 * the password too).
 */
function guardedWiremock(prefix: string): Launch {
  const launch = wiremockLaunch(prefix);
  const { username, password } = WIREMOCK_ADMIN;
  return {
    ...launch,
    command: [...launch.command, "--admin-api-basic-auth", `${username}:${password}`],
    seed: async (dir) => {
      await launch.seed?.(dir);
      await Deno.writeTextFile(`${dir}/__files/ready.txt`, "ready\n");
    },
    probe: "/ready.txt",
  };
}

const java = javaMissing();
const wiremock = java ? { ignoredBecause: java } : await prepare([WIREMOCK]);
realTest(
  "curl commands for WireMock's admin API (Basic auth), converted and run on a fresh instance",
  wiremock.ignoredBecause,
  async (dir) => {
    await withInstance(guardedWiremock(wiremock.install!.prefix), async (server) => {
      const c: CommandsCase = {
        file: "wiremock",
        requests: 8,
        value: baseOnly(server.origin, { BASIC_PASSWORD: WIREMOCK_ADMIN.password }),
        secrets: ["s3cr3t-admin"],
        // The stub created with this id is deleted by it, as written.
        kept: ["username: admin", "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7"],
      };
      assertAllSucceeded(c, await convertAndRun(c, dir));
    });
  },
);

realTest(
  "curl commands for httpbin, converted and run on a fresh instance",
  httpbinMissing(),
  async (dir) => {
    await withRetriedStart(start, () => httpbinLaunch, async (server) => {
      const c: CommandsCase = {
        file: "httpbin",
        requests: 10,
        value: baseOnly(server.origin, { BASIC_PASSWORD: "wonderland" }),
        // `/status/418` answers 418, as the answer pasted under it says.
        answers: { head_status: 418 },
        secrets: [],
        // The password is the URL's last segment too: the URL is sent as written, `-u`'s is asked.
        kept: ["/basic-auth/alice/wonderland", "password: ${ENV.BASIC_PASSWORD}"],
      };
      assertAllSucceeded(c, await convertAndRun(c, dir));
    });
  },
);

realTest(
  "curl commands for httpbin in API reference pages' shapes, converted and run on a fresh instance",
  httpbinMissing(),
  async (dir) => {
    await withRetriedStart(start, () => httpbinLaunch, async (server) => {
      const c: CommandsCase = {
        file: "httpbin_reference",
        // The `curl -N … &` stream is left out: seven of eight.
        requests: 7,
        // `<httpbin-url>` is the server; `:shop-id` the user's to choose.
        value: byDescription(server.origin, /written as <httpbin-url>/, server.origin, {
          SHOP_ID: "default",
        }),
        // The id the docs' answer printed: a fresh instance hands out another.
        secrets: ["4a3e1f9c-8d2b-4c6e-9f1a-2b7d5e8c0a13"],
        kept: ["Bearer ${steps.get_uuid.capture.uuid_id}", "key: Y29sb3Vy"],
      };
      assertAllSucceeded(c, await convertAndRun(c, dir));
    });
  },
);

realTest(
  "curl commands for Netdata's API, converted and run on a fresh instance",
  netdataMissing(),
  async (dir) => {
    await withNetdata(start, async (server) => {
      const c: CommandsCase = {
        file: "netdata",
        // One inside `eval "$(curl …)"`, one after `time`: each a step.
        requests: 8,
        value: baseOnly(server.origin),
        secrets: [],
      };
      assertAllSucceeded(c, await convertAndRun(c, dir));
    });
  },
);

const directus = directusMissing();
const directusInstall = directus ? { ignoredBecause: directus } : await prepare([DIRECTUS]);
realTest(
  "curl commands for Directus (a login whose answer is not printed, then its token as a placeholder), converted and run on a fresh instance",
  directusInstall.ignoredBecause,
  async (dir) => {
    await withDirectus({ prefix: directusInstall.install!.prefix }, async (d) => {
      const c: CommandsCase = {
        file: "directus",
        requests: 5,
        // The password the instance was set up with; the token is the login's answer's.
        value: baseOnly(d.baseUrl, { LOGIN_PASSWORD: DIRECTUS_ADMIN.password }),
        secrets: ["d1r3ctu5"],
        kept: ["Bearer ${steps.login.capture.YOUR_ACCESS_TOKEN}"],
      };
      assertAllSucceeded(c, await convertAndRun(c, dir));
    });
  },
);

const nodeRed = await prepare([{ name: "node-red", version: NODE_RED_VERSION }]);
realTest(
  "curl commands for Node-RED's admin API (a token from /auth/token, its answer printed), converted and run on a fresh instance",
  nodeRed.ignoredBecause,
  async (dir) => {
    const instance = await startNodeRed();
    try {
      const c: CommandsCase = {
        file: "node_red",
        requests: 10,
        value: baseOnly(instance.origin, { LOGIN_PASSWORD: NODE_RED_PASSWORD }),
        // The password typed, and the token the printed answer handed out.
        secrets: ["n0de-red-pw", "Zk3pQ9vX2mL7tR4wB8nC1yH6dJ5sF0gAeUoIiKqWzTxYcVbN"],
        kept: ["username: admin", "/flow/${steps.flow.capture.flow_id}"],
      };
      assertAllSucceeded(c, await convertAndRun(c, dir));
    } finally {
      await instance.close();
    }
  },
);

const verdaccio = await prepare([VERDACCIO]);
realTest(
  "curl commands for Verdaccio's npm registry API (npm adduser's PUT, then its token), converted and run on a fresh instance",
  verdaccio.ignoredBecause,
  async (dir) => {
    await withInstance(verdaccioLaunch(verdaccio.install!.prefix), async (server) => {
      const c: CommandsCase = {
        file: "verdaccio",
        requests: 9,
        // The user the commands create on a fresh registry: any password the user chooses.
        value: byDescription(server.origin, /"password" field/, `pw-${crypto.randomUUID()}`),
        secrets: ["v3rd-pa55"],
        kept: ["name: ada", "Bearer ${steps.update_org_couchdb_user_ada.capture.NPM_TOKEN}"],
      };
      assertAllSucceeded(c, await convertAndRun(c, dir));
    });
  },
);

const signalk = await prepare([SIGNALK]);
realTest(
  "curl commands for Signal K (curl -i's login answer pasted, its cookie and token sent back), converted and run on a fresh instance",
  signalk.ignoredBecause,
  async (dir) => {
    await withInstance(signalkLaunch(signalk.install!.prefix), async (server) => {
      // The admin the user made in the first-run form, whose password the flow asks.
      await signalkFirstAdmin(server.origin);
      const c: CommandsCase = {
        file: "signalk",
        requests: 6,
        value: baseOnly(server.origin, { LOGIN_PASSWORD: SIGNALK_ADMIN.password }),
        // The password typed, and the JWT the pasted answer's cookie and body held.
        secrets: ["s1gn4lk-pw", "Vq3nR8mK2pX7wT5yB1cL9sD4fH6jA0gEuZoIiQ"],
        kept: ["{ cookie: JAUTHENTICATION }", "username: admin"],
      };
      assertAllSucceeded(c, await convertAndRun(c, dir));
    });
  },
);
