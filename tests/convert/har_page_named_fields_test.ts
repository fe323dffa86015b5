/**
 * `convert har` on a help desk whose forms name their fields by the session, as osTicket 1.18's
 * public "Open a New Ticket" form does (measured by hand, docs/real-servers-har.md): each field's
 * name is a hash of the session id and the field (`name="c391c788134920"`), and the server reads
 * a field only under the name it wrote for this session. The recording's names are no fields of
 * a fresh session, so the replayed ticket came back "Email Address is a required field" and
 * every later step failed. The details fields come in HTML inside a JSON answer, served as
 * `text/html`, that the page's script fetched when a topic was picked.
 *
 * What the converter does (lib/convert/page_named_controls.ts, correlate/page_named_fields.ts):
 * a field name that is opaque made-up text (hex digits, or letters and digits mixed, no word)
 * and that an earlier page wrote as an input's, select's or textarea's `name` is a value the
 * page handed out: it is captured from the fresh page (by its place among the controls of that
 * shape) and sent as the field's name; a suffix after the made-up stem (`…-ext`) is kept. The
 * page that holds it is kept, as a page holding a sent token is. Words (`topicId`) stay as
 * recorded.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";

/** The 14 hex digits the desk names `field` by in session `sid` (FNV-1a, 64 bits). */
function fieldName(sid: string, field: string): string {
  let h = 0xcbf29ce484222325n;
  for (const ch of `${sid}:${field}`) {
    h ^= BigInt(ch.codePointAt(0)!);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, "0").slice(-14);
}

/** The ticket form: contact fields named for the session, a topic picker, the session's token. */
function openPage(sid: string): string {
  const n = (f: string) => fieldName(sid, f);
  return `<html><body><form id="ticketForm" method="post" action="/open" enctype="multipart/form-data">
<input type="hidden" name="token" value="tk-${n("token")}">
<label for="${n("email")}">Email</label><input type="email" id="_${n("email")}" name="${
    n("email")
  }" value="">
<label for="${n("name")}">Full name</label><input type="text" id="_${n("name")}" name="${
    n("name")
  }" value="">
<input id="_${n("phone")}" type="tel" name="${
    n("phone")
  }" value=""> Ext: <input type="text" name="${n("phone")}-ext" value="">
<select name="topicId"><option value="2">Feedback</option></select>
<tbody id="dynamic-form"></tbody><input type="submit" value="Create"></form></body></html>`;
}

/** The topic's fields, as HTML inside JSON (its quotes escaped), served as the desk does. */
function topicFields(sid: string): string {
  const n = (f: string) => fieldName(sid, f);
  const html = [
    `<tr><td><input type="text" name="${n("summary")}" value=""></td></tr>`,
    `<tr><td><textarea name="${n("details")}"></textarea></td></tr>`,
    `<tr><td><select name="${
      n("priority")
    }[]"><option value="2">Normal</option></select></td></tr>`,
  ].join("\n");
  return JSON.stringify({ media: "", html });
}

/** The public form serves the topic's JSON as `text/html`; the agent's panel as JSON. */
const TOPIC_TYPE = { public: "text/html; charset=utf-8", agent: "application/json" };

/** The page a created ticket answers with: a note form, its field named for the session. */
function ticketPage(sid: string): string {
  return `<html><body><p>Ticket created</p><form method="post" action="/note">
<input type="text" name="${
    fieldName(sid, "note")
  }" value=""><input type="submit"></form></body></html>`;
}

interface Desk {
  origin: string;
  tickets: string[];
  notes: string[];
  close(): Promise<void>;
}

/** The desk: a session per cookie, fields read only under this session's names. */
function desk(topicType: string): Desk {
  const tickets: string[] = [];
  const notes: string[] = [];
  let sessions = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /sid=([\w-]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    const html = { "content-type": "text/html; charset=utf-8" };
    if (!sid) {
      const fresh = `s${++sessions}-${crypto.randomUUID().slice(0, 8)}`;
      return new Response(openPage(fresh), {
        headers: { ...html, "set-cookie": `sid=${fresh}; Path=/; HttpOnly` },
      });
    }
    const n = (f: string) => fieldName(sid, f);
    if (url.pathname === "/open" && req.method === "GET") {
      return new Response(openPage(sid), { headers: html });
    }
    if (url.pathname === "/form/topic/2") {
      return new Response(topicFields(sid), { headers: { "content-type": topicType } });
    }
    const form = req.method === "POST" ? await req.formData() : new FormData();
    if (url.pathname === "/open" && req.method === "POST") {
      const email = form.get(n("email"));
      if (form.get("token") !== `tk-${n("token")}` || !email || !form.get(n("summary"))) {
        return new Response("<p>Email Address is a required field</p>", {
          status: 422,
          headers: html,
        });
      }
      const priority = form.get(`${n("priority")}[]`);
      tickets.push(
        `${email}: ${form.get(n("summary"))} (ext ${form.get(`${n("phone")}-ext`)}, ${priority})`,
      );
      return new Response(ticketPage(sid), { headers: html });
    }
    if (url.pathname === "/note" && req.method === "POST") {
      const note = form.get(n("note"));
      if (!note) {
        return new Response("<p>Note is a required field</p>", { status: 422, headers: html });
      }
      notes.push(String(note));
      return new Response("<p>Note posted</p>", { headers: html });
    }
    if (url.pathname === "/api/tickets") return Response.json({ open: tickets.length });
    return new Response("not found", { status: 404 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    tickets,
    notes,
    close: () => server.shutdown(),
  };
}

const REC = "http://127.0.0.1:8080";
const SID = "s1-rec0rd3d";

/** A HAR entry of the recorded session (its cookie sent, or set when `setsCookie`). */
function entry(
  method: string,
  path: string,
  response: string,
  extra: { headers?: { name: string; value: string }[]; postData?: unknown; setsCookie?: boolean } =
    {},
) {
  const cookie = extra.setsCookie ? [] : [{ name: "Cookie", value: `sid=${SID}` }];
  const set = extra.setsCookie
    ? [{ name: "Set-Cookie", value: `sid=${SID}; Path=/; HttpOnly` }]
    : [];
  return {
    startedDateTime: "2026-11-30T21:00:00.000Z",
    time: 5,
    request: {
      method,
      url: `${REC}${path}`,
      headers: [...cookie, ...(extra.headers ?? [])],
      ...(extra.postData ? { postData: extra.postData } : {}),
    },
    response: {
      status: 200,
      headers: [{ name: "Content-Type", value: "text/html; charset=utf-8" }, ...set],
      cookies: [],
      content: { size: response.length, mimeType: "text/html; charset=utf-8", text: response },
    },
  };
}

/** The journey as recorded: open the form, pick the topic, send the ticket, then a note. */
function recording(topicType: string): string {
  const n = (f: string) => fieldName(SID, f);
  const boundary = "----WebKitFormBoundaryHarbour01";
  const parts = [
    ["token", `tk-${n("token")}`],
    [n("email"), "mara.quay@example.com"],
    [n("name"), "Mara Quay"],
    [n("phone"), ""],
    [`${n("phone")}-ext`, "12"],
    ["topicId", "2"],
    [n("summary"), "Crane on pier 4 is stuck"],
    [n("details"), "<p>It stopped at noon.</p>"],
    [`${n("priority")}[]`, "2"],
  ];
  const body =
    parts.map(([k, v]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`
    ).join("") + `--${boundary}--\r\n`;
  const xhr = [{ name: "X-Requested-With", value: "XMLHttpRequest" }];
  const entries = [
    entry("GET", "/open", openPage(SID), { setsCookie: true }),
    entry("GET", "/form/topic/2", topicFields(SID), { headers: xhr }),
    entry("POST", "/open", ticketPage(SID), {
      headers: [{ name: "Content-Type", value: `multipart/form-data; boundary=${boundary}` }],
      postData: { mimeType: `multipart/form-data; boundary=${boundary}`, text: body },
    }),
    entry("POST", "/note", "<p>Note posted</p>", {
      headers: [{ name: "Content-Type", value: "application/x-www-form-urlencoded" }],
      postData: {
        mimeType: "application/x-www-form-urlencoded",
        text: `${n("note")}=Called+the+crane+crew`,
      },
    }),
  ];
  entries[1].response.headers[0].value = topicType;
  entries[1].response.content.mimeType = topicType;
  // The desk's one API read: with it, a page is kept only when it takes part in the session.
  const api = entry("GET", "/api/tickets", '{"open":1}');
  api.response.headers[0].value = "application/json";
  api.response.content.mimeType = "application/json";
  return JSON.stringify({ log: { version: "1.2", entries: [...entries, api] } });
}

for (const [where, topicType] of Object.entries(TOPIC_TYPE)) {
  Deno.test(`convert har: field names a page made up for its session are read from the fresh page (topic's fields as ${where}), and the ticket and its note pass`, async () => {
    const { converted, flow, run, server } = await convertHarThenRun(
      () => desk(topicType),
      recording(topicType),
    );
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.equal(server.tickets.length, 1, server.tickets.join("\n"));
    assert.match(server.tickets[0], /: Crane on pier 4 is stuck \(ext 12, 2\)$/);
    assert.deepEqual(server.notes, ["Called the crane crew"]);
    // No recorded made-up name is sent; the word `topicId` is.
    for (const f of ["email", "name", "phone", "summary", "details", "priority", "note"]) {
      assert.ok(!flow.includes(fieldName(SID, f)), `${f} sent as recorded:\n${flow}`);
    }
    assert.match(flow, /topicId: "2"/);
    assert.match(flow, /\}-ext": "12"/);
    assert.match(flow, /\}\[\]": "2"/);
    // The topic's answer is kept: it holds names the ticket sends.
    assert.match(flow, /url: \$\{vars\.base_url\}\/form\/topic\/2/);
    assert.match(converted.stderr, /Converted 5 of 5/);
  });
}
