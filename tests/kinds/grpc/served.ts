/**
 * The tests' gRPC servers, each run in a process of its own
 * (tests/kinds/grpc/served_main.ts) on 127.0.0.1 at an ephemeral port, and
 * killed at the end: the test process then holds no server session.
 *
 * Why: Deno 2.9.6 aborts the whole process inside nghttp2 when a GOAWAY
 * reaches a `node:http2` session (denoland/deno#36788). A loop of grpc-js
 * servers and clients in one process (13 calls, then a shutdown) aborted
 * within 300 rounds in 6 runs of 9; a client whose server, in another
 * process, shut down (`forceShutdown`, a GOAWAY) aborted within 3 rounds, 3
 * times in 3. Served from here, a test process has no server session for a
 * client's GOAWAY to reach, and the server is killed (SIGKILL: no GOAWAY is
 * sent) rather than shut down, so no client session is sent one either: the
 * same loop with the server served so, stopped while its client was open,
 * ran 300 rounds without an abort, 3 times in 3.
 *
 * What the server records (calls, reflection questions, `-bin` bytes) is
 * copied here as it happens, before the client gets its answer, so a test
 * reads it as it read the in-process server's lists.
 *
 * @module
 */
import type { BadMode } from "../../fixtures/grpc/atlas_server.ts";
import type { Official } from "../../fixtures/grpc_reflection/servers.ts";

const MAIN = new URL("./served_main.ts", import.meta.url).pathname;
const ROOT = new URL("../../../", import.meta.url).pathname;

/** A server in a process of its own: its address, what it recorded, and how to stop it. */
export interface Served {
  port: number;
  /** The server's process id. */
  pid: number;
  /** `127.0.0.1:port`. */
  target: string;
  /** The atlas server's calls: each call's method and `authorization` metadata, in order. */
  calls: { method: string; authorization?: string }[];
  /** The reflection servers' questions (and the Mirror's callers). */
  asked: Record<string, unknown>[];
  /** The echo server's `-bin` metadata, as `name bytes`. */
  got: string[];
  /** Resolves once a call of `method` has reached the server (checked every 5 ms, for 30 s at most). */
  reached(method: string): Promise<void>;
  /** Kills the server (no GOAWAY is sent) and waits for its process to end. */
  close(): Promise<void>;
  /** Whether its process ended before `close` or `shutdown` asked it to (Deno's nghttp2 abort). */
  endedByItself(): boolean;
  /** Shuts the server down as a real one does (a GOAWAY to each client); `close` still ends it. */
  shutdown(): Promise<void>;
}

/** Lines of `stream`, as they come. */
async function* linesOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    text += decoder.decode(chunk, { stream: true });
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n")) {
      yield text.slice(0, end);
      text = text.slice(end + 1);
    }
  }
}

/** Starts the server `kind` of served_main.ts with `options`, in a process of its own. */
export async function served(kind: string, options: unknown = {}): Promise<Served> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, kind, JSON.stringify(options)],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = linesOf(child.stdout);
  const first = await lines.next();
  if (first.done) {
    await writer.close().catch(() => {});
    throw new Error(
      `the ${kind} gRPC server ended before its port (${JSON.stringify(await child.status)})`,
    );
  }
  const ready = JSON.parse(first.value) as { port: number; target: string };
  const lists = { calls: [], asked: [], got: [] } as Record<string, unknown[]>;
  const copy = copied(lines, writer, lists);
  let closed: Promise<void> | undefined;
  let shutDown = false;
  let byItself = false;
  // Registered before close's own wait, so it is known once close resolves.
  child.status.then((s) => byItself = !shutDown && s.signal !== "SIGKILL");
  const close = () => closed ??= ended(child, kind, copy.done, writer);
  return {
    ...ready,
    pid: child.pid,
    calls: lists.calls as Served["calls"],
    asked: lists.asked as Served["asked"],
    got: lists.got as string[],
    reached: async (method) => {
      for (
        let i = 0;
        i < 6000 && !lists.calls.some((c) => (c as Served["calls"][0]).method === method);
        i++
      ) {
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    close,
    endedByItself: () => byItself,
    shutdown: async () => {
      shutDown = true;
      child.kill("SIGTERM");
      await copy.shut;
    },
  };
}

/**
 * Copies each entry the server reports into `lists`, then acknowledges it (the server answers
 * only after that); `shut` resolves when the server says it shut down, `done` at its output's end.
 */
function copied(
  lines: AsyncGenerator<string>,
  writer: WritableStreamDefaultWriter<Uint8Array>,
  lists: Record<string, unknown[]>,
): { done: Promise<void>; shut: Promise<void> } {
  let said = () => {};
  const shut = new Promise<void>((resolve) => said = resolve);
  const done = (async () => {
    for await (const line of lines) {
      const { seen, item, shut: down } = JSON.parse(line);
      if (down) {
        said();
        continue;
      }
      lists[seen].push(item);
      await writer.write(new Uint8Array([10])).catch(() => {});
    }
    said();
  })();
  return { done, shut };
}

/** Kills the server's process (no GOAWAY is sent) and waits for its end; says if it ended first. */
async function ended(
  child: Deno.ChildProcess,
  kind: string,
  copying: Promise<void>,
  writer: WritableStreamDefaultWriter<Uint8Array>,
): Promise<void> {
  try {
    child.kill("SIGKILL");
  } catch {
    // It ended by itself: said below, since what the test asked of it is already checked.
  }
  const { signal, code } = await child.status;
  if (signal !== "SIGKILL") {
    // A client's GOAWAY can abort the server's process too (rarely: none in 1,800 rounds of
    // 1 to 3 calls, one in some 650 of 13), past the test's last answer.
    console.error(`the ${kind} gRPC server had ended by itself (${signal ?? `exit ${code}`})`);
  }
  await copying;
  await writer.close().catch(() => {});
}

/** The atlas server of tests/fixtures/grpc/atlas_server.ts (`startAtlas`), served apart. */
export function servedAtlas(
  options: { tls?: { key: string; cert: string; ca?: string }; bad?: BadMode } = {},
): Promise<Served> {
  return served("atlas", options);
}

/** The official reflection server of tests/fixtures/grpc_reflection/servers.ts, served apart. */
export function servedOfficial(options: Official = {}): Promise<Served> {
  return served("official", options);
}

/** The spec's reflection server of tests/fixtures/grpc_reflection/servers.ts, served apart. */
export function servedSpec(): Promise<Served> {
  return served("spec");
}
