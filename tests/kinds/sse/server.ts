/**
 * SSE servers for the `sse:` step's tests, on 127.0.0.1 with an ephemeral
 * port: job progress (JSON data, named events, ids, retry, comments, CRLF, a
 * BOM), a stream that drops mid-way and resumes from `Last-Event-ID`, one
 * that never ends, one huge event, a 401, and a POST that streams its
 * answer. Each records the requests it saw.
 */

/** What a server saw of one request. */
export interface Seen {
  path: string;
  /** The query string, with its `?`. */
  search: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** A running server: its base URL, what it saw, and how to stop it. */
export interface SseServer {
  url: string;
  seen: Seen[];
  /** Resolves when a client opened /forever (the run is mid-stream). */
  streaming: Promise<void>;
  close(): Promise<void>;
}

const encoder = new TextEncoder();

/** A stream of text chunks, each after `gapMs`; `close` ends it, else it ends after the last. */
function chunks(parts: string[], gapMs: number): ReadableStream<Uint8Array> {
  let i = 0;
  let gone = false;
  return new ReadableStream({
    async pull(controller) {
      if (i >= parts.length || gone) return controller.close();
      if (i > 0 && gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      if (!gone) controller.enqueue(encoder.encode(parts[i++]));
    },
    // The client went away: no more chunks (the loops here are bounded anyway).
    cancel() {
      gone = true;
    },
  });
}

const STREAM = { "content-type": "text/event-stream", "cache-control": "no-cache" };

/** Job progress: a BOM, CRLF line ends, comments, named events with JSON data, ids, a retry. */
export const PROGRESS = [
  "\uFEFF: job stream\r\nretry: 3000\r\n\r\n",
  'id: 1\r\nevent: progress\r\ndata: {"state": "running", "pct": 10}\r\n\r\n',
  ": keep-alive\r\n\r\n",
  'id: 2\r\nevent: progress\r\ndata: {"state": "running",\r\ndata:  "pct": 60}\r\n\r\n',
  "id: 3\r\ndata: plain text, not JSON\r\n\r\n",
  'id: 4\r\nevent: done\r\ndata: {"state": "finished", "result": "r-42"}\r\n\r\n',
];

/** The token /secret-events sends in an event's data. */
export const EVENT_TOKEN = "evt-tok-5f4e3d2c1b0a";

/** Events 1..6 of the resumable stream, each with its id; 6 is `done`. */
function resumable(from: number, to: number): string[] {
  const out = ["retry: 20\n\n"];
  for (let n = from; n <= to; n++) {
    out.push(`id: ${n}\nevent: ${n === 6 ? "done" : "tick"}\ndata: {"n": ${n}}\n\n`);
  }
  return out;
}

/** Starts the servers' one listener; with `tls` (PEM certificate and key), over HTTPS. */
export function startSseServer(tls?: { cert: string; key: string }): SseServer {
  const seen: Seen[] = [];
  let opened: () => void = () => {};
  const streaming = new Promise<void>((resolve) => opened = resolve);
  const options = { hostname: "127.0.0.1", port: 0, onListen() {}, ...tls };
  const server = Deno.serve(options, async (request) => {
    const { pathname: path, search } = new URL(request.url);
    seen.push({
      path,
      search,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
    });
    return route(path, request, seen, opened);
  });
  return {
    url: `${tls ? "https" : "http"}://127.0.0.1:${server.addr.port}`,
    seen,
    streaming,
    close: () => server.shutdown(),
  };
}

function route(path: string, request: Request, seen: Seen[], opened: () => void): Response {
  if (path === "/start") return Response.json({ id: "job-7" }, { status: 201 });
  if (path === "/jobs/job-7/events") {
    return new Response(chunks(PROGRESS, 5), { headers: STREAM });
  }
  if (path === "/drop") {
    // Drops after event 3 on the first connection; resumes after Last-Event-ID.
    const last = Number(request.headers.get("last-event-id") ?? "0");
    const to = last === 0 ? 3 : 6;
    return new Response(chunks(resumable(last + 1, to), 0), { headers: STREAM });
  }
  if (path === "/forever") {
    opened();
    // Bounded: 100,000 ticks at most, or until the client goes.
    const ticks = Array.from({ length: 100_000 }, (_, n) => `id: ${n}\ndata: {"n": ${n}}\n\n`);
    return new Response(chunks(ticks, 10), { headers: STREAM });
  }
  if (path === "/silent") {
    opened();
    return new Response(chunks([": hello\n\n", ...Array(10_000).fill(": .\n")], 50), {
      headers: STREAM,
    });
  }
  if (path === "/huge") {
    const big = "x".repeat(64 * 1024);
    return new Response(chunks(["data: ", ...Array(64).fill(big), "\n\n"], 0), {
      headers: STREAM,
    });
  }
  if (path === "/private") {
    return Response.json({ error: "unauthorized" }, {
      status: 401,
      headers: { "www-authenticate": "Bearer" },
    });
  }
  if (path === "/counter") {
    // One event per connection: how many connections came so far.
    const n = seen.filter((s) => s.path === "/counter").length;
    return new Response(chunks([`data: {"n": ${n}}\n\n`], 0), { headers: STREAM });
  }
  if (path === "/flaky") {
    const n = seen.filter((s) => s.path === "/flaky").length;
    if (n === 1) return new Response("busy", { status: 503 });
    return new Response(chunks(['event: done\ndata: {"try": ' + n + "}\n\n"], 0), {
      headers: STREAM,
    });
  }
  if (path === "/use") return Response.json({ ok: true });
  if (path === "/login") {
    return Response.json({ ok: true }, { headers: { "set-cookie": "sid=s-1; Path=/" } });
  }
  if (path === "/session-events") {
    // A stream behind a session cookie, which sets one more.
    if (!(request.headers.get("cookie") ?? "").includes("sid=s-1")) {
      return Response.json({ error: "no session" }, { status: 401 });
    }
    const headers = { ...STREAM, "set-cookie": "seen=yes; Path=/" };
    return new Response(chunks(["event: done\ndata: {}\n\n"], 0), { headers });
  }
  if (path === "/secret-events") {
    const parts = [`data: {"token": "${EVENT_TOKEN}"}\n\n`, "event: done\ndata: {}\n\n"];
    return new Response(chunks(parts, 0), { headers: STREAM });
  }
  if (path === "/chat") {
    const asked = JSON.parse(seen.at(-1)!.body) as { prompt: string };
    const words = asked.prompt.split(" ");
    const parts = words.map((w) => `data: {"delta": ${JSON.stringify(w)}}\n\n`);
    return new Response(chunks([...parts, "data: [DONE]\n\n"], 0), { headers: STREAM });
  }
  return new Response("not found", { status: 404 });
}
