/**
 * Two recordings of a notes app's journey (a page that sends its local time in a header, a
 * header that reads one way at start-up and another after, and a path built of a created note's
 * id): what differs only by a produced value is captured, a time is a time, and a header equal at
 * its pair is no variable.
 */
import assert from "node:assert/strict";
import { correlateTwo } from "../../lib/convert/two_recordings_correlate.ts";
import { type EntrySpec, recordsOf } from "../support/har_records.ts";

const BASE = "http://127.0.0.1:8080";

/** One session: a create that answers `id`, then writes naming it, each header as given. */
function session(id: string, ntx: string, now: string[], hoisted: string[]): EntrySpec[] {
  const h = (i: number): [string, string][] => [["x-local-now", now[i]], ["x-hoisted", hoisted[i]]];
  // Only the first session read the root's text again: a request with no partner.
  const reread: EntrySpec[] = hoisted.length > 4
    ? [{ url: `${BASE}/api/notes/root/blob`, headers: h(4), json: { content: "" } }]
    : [];
  return [
    { url: `${BASE}/api/tree`, headers: h(0), json: { notes: [{ noteId: "root" }] } },
    {
      method: "POST",
      url: `${BASE}/api/notes/root/children?target=into`,
      headers: h(1),
      body: JSON.stringify({ content: "", isProtected: false }),
      json: { note: { noteId: id, title: "new note" }, branch: { branchId: `root_${id}` } },
    },
    {
      method: "POST",
      url: `${BASE}/api/recent-notes`,
      headers: h(2),
      body: JSON.stringify({ noteId: id, notePath: `root/${id}` }),
      status: 204,
    },
    {
      method: "PUT",
      url: `${BASE}/api/options`,
      headers: h(3),
      body: JSON.stringify({
        openContexts: JSON.stringify([{ ntxId: ntx, notePath: `root/${id}`, active: true }]),
      }),
      status: 204,
    },
    ...reread,
  ];
}

function convert() {
  const a = recordsOf(session(
    "xtd344QweyKb",
    "nSeYRw",
    [
      "2026-11-30 22:08:40.331+0000",
      "2026-11-30 22:08:41.002+0000",
      "2026-11-30 22:08:42.520+0000",
      "2026-11-30 22:08:43.530+0000",
      "2026-11-30 22:08:44.540+0000",
    ],
    ["null", "root", "root", "root", "root"],
  ));
  const b = recordsOf(session(
    "5wYWRNh2HKej",
    "ndrSJu",
    [
      "2026-11-30 22:10:02.117+0000",
      "2026-11-30 22:10:03.870+0000",
      "2026-11-30 22:10:04.224+0000",
      "2026-11-30 22:10:05.234+0000",
    ],
    // The start-up request of the second session was answered before the page hoisted a note.
    ["root", "root", "root", "null"],
  ));
  return correlateTwo(a, b, a.map((r) => ({ records: [r] })), "a").c;
}

const text = (v: unknown) => JSON.stringify(v);

Deno.test("two recordings: a path holding a created id, differing only by it, is captured", () => {
  // Seen on a notes app: `notePath: "root/<id of the note just made>"` differed between the
  // recordings and was made ${RANDOM.HEX_17} (read as base64), so the flow sent a path naming
  // no note. Each recording's own create answered the id it holds.
  const c = convert();
  const recent = text(c.steps[2].body);
  assert.ok(!recent.includes("RANDOM"), recent);
  assert.match(recent, /root\/\$\{steps\.[a-z_0-9]+\.capture\.[a-z_0-9]+\}/, recent);
  // The same inside a JSON document a form field carries: its page-made parts are sent as
  // recorded (a fallback cannot hold "}"), the created id is captured.
  const options = text(c.steps[3].body);
  assert.ok(!options.includes("xtd344QweyKb"), options);
  assert.match(options, /root\/\$\{steps\./, options);
});

Deno.test("two recordings: a local time written with a space before its hour is sent as recorded", () => {
  // `2026-11-30 22:08:40.331+0000` (date, space, time, milliseconds, offset): the page's clock,
  // asked for as an optional variable at every request before.
  const c = convert();
  const env = [...c.env.keys()].filter((n) => n !== "BASE_URL");
  assert.ok(!env.some((n) => /LOCAL_NOW/.test(n)), env.join(", "));
  assert.deepEqual(c.steps[1].headers.find(([n]) => n === "x-local-now"), [
    "x-local-now",
    "2026-11-30 22:08:41.002+0000",
  ]);
});

Deno.test("two recordings: a header equal at its pair is sent as recorded there", () => {
  // `x-hoisted: root` was equal in most pairs and differed in the two a slow start-up shifted;
  // the flow read it from a variable at every request.
  const c = convert();
  // And at the request the second recording has no partner for: no evidence it differs there.
  for (const at of [1, 2, 4]) {
    assert.deepEqual(c.steps[at].headers.find(([n]) => n === "x-hoisted"), ["x-hoisted", "root"]);
  }
});
