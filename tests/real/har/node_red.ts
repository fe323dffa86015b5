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
import { type Install, install, prefixOf } from "../servers.ts";

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
export interface NodeRed {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  origin: string;
  /** Everything the instance logged so far. */
  log(): string;
  /** Stops the instance's process group and removes its data folder. */
  close(): Promise<void>;
}

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
  const dir = await Deno.makeTempDir({ prefix: "flowrun-node-red-" });
  await Deno.writeTextFile(`${dir}/settings.js`, settings(await bcryptHash(NODE_RED_PASSWORD)));
  // setsid makes node the leader of a new process group, so close() ends anything it started.
  const child = new Deno.Command("setsid", {
    args: [
      "node",
      `${nodeRedPrefix}/node_modules/node-red/red.js`,
      "--userDir",
      dir,
      "--settings",
      `${dir}/settings.js`,
    ],
    env: { NODE_RED_DISABLE_TELEMETRY: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      Deno.kill(-child.pid, "SIGTERM");
    } catch {
      // The group is gone already.
    }
    const killer = setTimeout(() => {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone.
      }
    }, 5_000);
    await child.status;
    clearTimeout(killer);
    await drained.catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  for (let attempt = 0; attempt < 300; attempt++) {
    const port = /Server now running at http:\/\/127\.0\.0\.1:(\d+)\//.exec(text)?.[1];
    if (port) {
      const origin = `http://127.0.0.1:${port}`;
      const ok = await fetch(`${origin}/auth/login`).then(async (r) => {
        await r.body?.cancel();
        return r.ok;
      }, () => false);
      if (ok) return { origin, log: () => text, close };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await close();
  throw new Error(`Node-RED did not start within 30 s:\n${text.slice(-3000)}`);
}
