/**
 * `convert har` on a server that answers a write before its effect is visible, as Nagios 4's
 * web UI does (docs/real-servers-har.md): its command form answers "submitted", the daemon
 * takes the command, and the pages show it only when the status file is next written, seconds
 * later; the user read the host's page again until the comment was there, then deleted it through
 * the link on that row. Replayed at machine speed, the read met the state before the write, and
 * what the steps after it took from that read (the row's id) was missing. The stand-in here makes
 * every added note visible 300 ms after answering. The evidence the converter reads: the text the
 * write sent is in the read's recorded answer, held by no record before the write, and an earlier
 * repeat of the same read lacked it, or the write was answered 202.
 */
import assert from "node:assert/strict";
import { runCliTwice } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8870";
const TITLE = "Harbour ledger, second shift";
const ID = "nt_4f9a2c7e1b30d6a8";

type Note = { id: string; title: string };

/** A notes service whose adds show after `lagMs`; `accepted` answers them 202. */
function standIn(lagMs = 300, accepted = false) {
  const notes: Note[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (add: () => void) => {
    const t = setTimeout(() => (timers.delete(t), add()), lagMs);
    timers.add(t);
  };
  const row = (n: Note) => `<tr><td>${n.title}</td><td><a href='/cmd?del=${n.id}'>x</a></td></tr>`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const made = () => ({ id: `nt_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}` });
    if (req.method === "POST" && url.pathname === "/api/notes") {
      const { title } = await req.json();
      later(() => notes.push({ ...made(), title }));
      return Response.json({ queued: true }, { status: accepted ? 202 : 200 });
    }
    if (req.method === "POST" && url.pathname === "/cmd") {
      const form = new URLSearchParams(await req.text());
      later(() => notes.push({ ...made(), title: form.get("com_data") ?? "" }));
      return new Response("<p>Your command was submitted.</p>", {
        headers: { "content-type": "text/html" },
      });
    }
    const at = notes.findIndex((n) =>
      n.id === (url.pathname.split("/")[3] ?? url.searchParams.get("del"))
    );
    if (req.method === "DELETE" || url.searchParams.has("del")) {
      if (at === -1) return Response.json({ error: "no such note" }, { status: 404 });
      notes.splice(at, 1);
      if (req.method === "GET") {
        return new Response("<p>Deleted.</p>", { headers: { "content-type": "text/html" } });
      }
      return Response.json({ deleted: true });
    }
    if (url.pathname === "/host") {
      return new Response(`<table>${notes.map(row).join("")}</table>`, {
        headers: { "content-type": "text/html" },
      });
    }
    return Response.json({ notes });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      await server.shutdown();
    },
  };
}

/** Add a note, read the list (`polled`: first before it showed), delete it, read again. */
function jsonJourney(polled: boolean, status = 200): string {
  const list = (notes: Note[]): EntrySpec => ({ url: `${AT}/api/notes`, json: { notes } });
  return harOf([
    {
      method: "POST",
      url: `${AT}/api/notes`,
      body: JSON.stringify({ title: TITLE }),
      status,
      json: { queued: true },
    },
    ...(polled ? [list([])] : []),
    list([{ id: ID, title: TITLE }]),
    { method: "DELETE", url: `${AT}/api/notes/${ID}`, json: { deleted: true } },
    list([]),
  ]);
}

/** The same on server-rendered pages: a form post, the page read until the row shows, its link. */
function pageJourney(): string {
  const page = (rows: string) => ({ url: `${AT}/host`, html: `<table>${rows}</table>` });
  const row = `<tr><td>${TITLE}</td><td><a href='/cmd?del=${ID}'>x</a></td></tr>`;
  return harOf([
    page(""),
    {
      method: "POST",
      url: `${AT}/cmd`,
      headers: [["Content-Type", "application/x-www-form-urlencoded"]],
      mime: "application/x-www-form-urlencoded",
      body: new URLSearchParams({ cmd_typ: "1", com_data: TITLE }).toString(),
      html: "<p>Your command was submitted.</p>",
    },
    page(""),
    page(row),
    { url: `${AT}/cmd?del=${ID}`, html: "<p>Deleted.</p>" },
  ]);
}

/** Converts `har`, then runs the flow twice on one fresh stand-in; both runs must pass. */
async function passesTwice(har: string, server: ReturnType<typeof standIn>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-shown-later-" });
  try {
    const { converted, flow } = await convertHar(dir, har);
    await runCliTwice(`${dir}/flow.yaml`, server.origin, flow);
    assert.match(
      converted.stderr,
      /read again, 250 ms apart, until the body shows it/,
      converted.stderr,
    );
    assert.match(
      flow,
      /until:\n\s+json:\n\s+- \{ path: \$\.body, contains: .*Harbour ledger/,
      flow,
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert har: a read the page repeated until it showed what a JSON write sent is read again until it does, and the flow passes twice on a server that shows it 300 ms later", async () => {
  await passesTwice(jsonJourney(true), standIn());
});

Deno.test("convert har: a write answered 202 Accepted makes the next read that shows what it sent wait for it", async () => {
  await passesTwice(jsonJourney(false, 202), standIn(300, true));
});

Deno.test("convert har: a form post whose page showed its text a reload later is awaited, and the link on that row is followed", async () => {
  await passesTwice(pageJourney(), standIn());
});

Deno.test("convert har: without evidence of a wait (one read, the write answered 200) the read is sent once, as before", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-shown-at-once-" });
  try {
    const { converted, flow } = await convertHar(dir, jsonJourney(false));
    assert.ok(!flow.includes("loop:"), flow);
    assert.doesNotMatch(converted.stderr, /read again, 250 ms apart/, converted.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
