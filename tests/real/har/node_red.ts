/**
 * A real Node-RED (the open-source flow editor: a single-page editor over an
 * admin HTTP API), installed from the npm registry into a cache outside the
 * repository and started fresh on 127.0.0.1 for each test that needs one.
 *
 * The instance runs with `adminAuth` (one user, its password hashed with the
 * package's own bcryptjs), so the editor logs in through `POST /auth/token`
 * and sends the issued token as `Authorization: Bearer` on every admin call:
 * the session token a recorded journey must take from the live login.
 *
 * @module
 */
import { type Install, install, type Instance, prefixOf, start } from "../servers.ts";

/** The exact version the tests pin (4.x runs on Node 20; 5.x wants Node 22). */
export const NODE_RED_VERSION = "4.1.8";

/** The user the instance knows, and the password the browser types. */
export const NODE_RED_USER = "admin";
/** The password a fresh instance accepts (what a user types, so a secret to ask for). */
export const NODE_RED_PASSWORD = "Ratchet-Lantern-42";

/** The pinned package, installed as the other real servers are (`../servers.ts`). */
const PINNED = [{ name: "node-red", version: NODE_RED_VERSION }];

/** Where the pinned package is installed: outside the repository, kept between runs. */
export const nodeRedPrefix: string = prefixOf(PINNED);

/**
 * Installs the pinned Node-RED with npm into {@linkcode nodeRedPrefix} unless a complete
 * install is there (the real servers' harness: a lock for parallel files, a 5-minute kill).
 */
export async function installNodeRed(): Promise<Install> {
  return await install(PINNED);
}

/** A running fresh instance. */
export type NodeRed = Instance;

/** The bcrypt hash of `password`, made by the package's own bcryptjs. */
async function bcryptHash(password: string): Promise<string> {
  const out = await new Deno.Command("node", {
    args: [
      "-e",
      "process.stdout.write(require(process.argv[1]).hashSync(process.argv[2], 8))",
      `${nodeRedPrefix}/node_modules/bcryptjs`,
      password,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/** The settings of a fresh instance: its own port (0: the system picks), flows and user. */
function settings(hash: string): string {
  const config = {
    uiHost: "127.0.0.1",
    uiPort: 0,
    flowFile: "flows.json",
    credentialSecret: false,
    adminAuth: {
      type: "credentials",
      users: [{ username: NODE_RED_USER, password: hash, permissions: "*" }],
    },
    logging: { console: { level: "info", metrics: false, audit: false } },
    // No welcome tour and no projects wizard: the journey is the same on every start.
    editorTheme: {
      tours: false,
      projects: { enabled: false },
      // The palette manager would fetch the public catalogue: the tests stay on 127.0.0.1.
      palette: { catalogues: [] },
    },
    diagnostics: { enabled: false },
    // Nothing is sent to nodered.org, and the editor asks no consent question on first login.
    telemetry: { enabled: false, updateNotification: false },
    runtimeState: { enabled: false },
  };
  return `module.exports = ${JSON.stringify(config, null, 2)};\n`;
}

/**
 * Starts a fresh Node-RED on 127.0.0.1 (its own temp data folder, a port the
 * system picks), in a process group of its own, and resolves once it logs
 * the address it serves and answers there (at most 30 s, polled 300 times).
 */
export async function startNodeRed(): Promise<NodeRed> {
  await installNodeRed();
  const hash = await bcryptHash(NODE_RED_PASSWORD);
  return await start({
    command: [
      "node",
      `${nodeRedPrefix}/node_modules/node-red/red.js`,
      "--userDir",
      "DIR",
      "--settings",
      "DIR/settings.js",
    ],
    env: { NODE_RED_DISABLE_TELEMETRY: "1" },
    seed: (dir) => Deno.writeTextFile(`${dir}/settings.js`, settings(hash)),
    origin: (out) => /Server now running at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1],
    probe: "/auth/login",
  });
}
