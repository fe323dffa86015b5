/**
 * `convert har` on a page whose reads carry the moment they were made, as
 * Prometheus's graph page does: an instant query's `time=` (Unix seconds, a
 * fraction of milliseconds), a range query's `start=` an hour before its
 * `end=`, and jQuery's cache-buster `_=` in milliseconds. Replayed as
 * recorded, the queries ask for the recording's moment, days before a fresh
 * server existed, and the server below (which, like a fresh Prometheus, has
 * data only since it started) refuses them. Such a value lies within the
 * recording's own time span (the entries' `startedDateTime`s), or within a
 * week of the request beside one that does: it is sent as the clock when the
 * request is made, shifted as recorded (`${NOW.UNIX-1h}`).
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { passesTwice } from "../support/form_pages.ts";

/** The recording's moment: three days before the test runs. */
const AT = Date.now() - 3 * 24 * 3600 * 1000;

function entry(path: string, ms: number) {
  return {
    startedDateTime: new Date(AT + ms).toISOString(),
    request: { method: "GET", url: `http://127.0.0.1:9/api/v1/${path}`, headers: [] },
    response: {
      status: 200,
      headers: [],
      content: { mimeType: "application/json", text: '{"status":"success","data":{}}' },
    },
  };
}

/** A list of revisions whose dates the next read sends back: the server's times, not the clock's. */
function revisions() {
  const listed = entry("revisions", 3000);
  const text = JSON.stringify({
    status: "success",
    data: { revisions: [Math.round(AT / 1000) - 30] },
  });
  return {
    ...listed,
    response: { ...listed.response, content: { ...listed.response.content, text } },
  };
}

function recording(): string {
  const s = (ms: number) => ((AT + ms) / 1000).toFixed(3);
  return JSON.stringify({
    log: {
      entries: [
        entry(`query?query=up&time=${s(40)}&_=${AT - 2000}`, 50),
        entry(`query_range?query=up&start=${s(990 - 3600_000)}&end=${s(990)}&step=14`, 1000),
        entry(`series?match=up&limit=3600000&id=1609459200`, 2000),
        revisions(),
        entry(`page?rev=${Math.round(AT / 1000) - 30}&do=diff`, 4000),
      ],
    },
  });
}

/** A server with data since it started: a time before that, or after now, is refused. */
function server() {
  const since = Date.now() / 1000 - 2 * 3600;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const query = new URL(req.url).searchParams;
    for (const name of ["time", "start", "end"]) {
      const t = query.get(name);
      if (t !== null && (Number(t) < since || Number(t) > Date.now() / 1000 + 60)) {
        return Response.json({ status: "error", error: `${name} outside the data` }, {
          status: 422,
        });
      }
    }
    // Its own revision, made when it started: what a later read sends back.
    if (req.url.includes("/revisions")) {
      return Response.json({ status: "success", data: { revisions: [Math.round(since)] } });
    }
    return Response.json({ status: "success", data: {} });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

Deno.test("har: a query's times within the recording's moments are sent as the clock then", () => {
  const { yaml } = convertHar(recording());
  assert.match(yaml, /query\?query=up&time=\$\{NOW\.UNIX\}&_=\$\{NOW\.UNIX_MS\}/, yaml);
  assert.match(yaml, /start=\$\{NOW\.UNIX-1h\}&end=\$\{NOW\.UNIX\}&step=14/, yaml);
  // Numbers of a request with no time of the recording's span stay as they are.
  assert.match(yaml, /series\?match=up&limit=3600000&id=1609459200/, yaml);
  // The revision's date is the answer's (seven digits or more: handed_numbers.ts), read live.
  assert.match(yaml, /page\?rev=\$\{steps\.list_revisions\.capture\.\w+\}&do=diff/, yaml);
});

Deno.test("har: replayed days later, the queries ask for the moment they are sent", async () => {
  const app = server();
  try {
    await passesTwice(recording(), app.origin, () => {}, { BASE_URL: app.origin });
  } finally {
    await app.close();
  }
});
