/**
 * `deno run -A served_main.ts KIND OPTIONS`: one of the tests' gRPC servers
 * (tests/kinds/grpc/served.ts starts it) in a process of its own, so that no
 * test process holds a server's HTTP/2 sessions: Deno 2.9.6 aborts inside
 * nghttp2 when a GOAWAY reaches a `node:http2` session (denoland/deno#36788),
 * and an abort here costs this server, not the test process's results.
 *
 * Its first line of output is `{"port":…,"target":…}`. Each entry the server
 * records (a call, a reflection question, `-bin` bytes) is then a line
 * `{"seen":"calls","item":…}`, and the server waits for the parent's `\n`
 * before it answers: when a client has its answer, the parent's copy holds
 * what the server saw. It ends when killed, or when its parent is gone; on
 * SIGTERM it shuts the server down, sending its clients a GOAWAY, and prints
 * `{"shut":true}`.
 *
 * @module
 */
import { startAtlas } from "../../fixtures/grpc/atlas_server.ts";
import { officialServer, specServer } from "../../fixtures/grpc_reflection/servers.ts";
import { startTlsGuide } from "../../export/tls_guide.ts";
import { echoServer } from "./bin_echo_server.ts";

/** The recorded lists a started server may have. */
const LISTS = ["calls", "asked", "got"] as const;

type Started = { port?: number; target?: string } & Partial<Record<string, unknown>>;

const encoder = new TextEncoder();

function writeLine(value: unknown): void {
  const bytes = encoder.encode(`${JSON.stringify(value)}\n`);
  for (let done = 0; done < bytes.length;) done += Deno.stdout.writeSync(bytes.subarray(done));
}

/** Blocks until the parent's acknowledgement; the parent gone (end of input), the process ends. */
function awaitAck(): void {
  const byte = new Uint8Array(1);
  for (;;) {
    const read = Deno.stdin.readSync(byte);
    if (read === null) Deno.exit(0);
    if (read === 1 && byte[0] === 10) return;
  }
}

/** Makes each push onto `list` reported to the parent, and acknowledged, before it counts. */
function reported(name: string, list: unknown[]): void {
  const push = list.push.bind(list);
  list.push = (...items: unknown[]) => {
    for (const item of items) {
      writeLine({ seen: name, item });
      awaitAck();
    }
    return push(...items);
  };
}

// deno-lint-ignore no-explicit-any
type Any = any;

/** Starts the server `kind` names with `options` (JSON: PEM text, modes, flags). */
function start(kind: string, options: Any): Promise<Started> {
  switch (kind) {
    case "atlas":
      return startAtlas(options) as Promise<Any>;
    case "official":
      return officialServer(options) as Promise<Any>;
    case "spec":
      return specServer() as Promise<Any>;
    case "echo":
      return echoServer() as Promise<Any>;
    case "tls-guide":
      return startTlsGuide(options.tls, options.ca, options.mutual) as Promise<Any>;
  }
  throw new Error(`served_main.ts: no server named ${kind}`);
}

if (import.meta.main) {
  const [kind, options = "{}"] = Deno.args;
  const server = await start(kind, JSON.parse(options));
  for (const name of LISTS) {
    if (Array.isArray(server[name])) reported(name, server[name] as unknown[]);
  }
  const port = server.port ?? Number(server.target!.split(":").at(-1));
  writeLine({ port, target: server.target ?? `127.0.0.1:${port}` });
  // SIGTERM shuts the server down as a real one does (a GOAWAY to each client still connected),
  // and says so; the process stays until killed: tests/kinds/grpc/channel_closed_test.ts.
  Deno.addSignalListener("SIGTERM", async () => {
    await (server as { close(): unknown }).close();
    writeLine({ shut: true });
  });
  // Reparented when the test process died without killing it: nothing would end it then.
  const parent = Deno.ppid;
  setInterval(() => Deno.ppid !== parent && Deno.exit(0), 500);
}
