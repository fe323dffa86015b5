/**
 * `convert har` on a read repeated after a write, whose first answer the
 * recording lost, as Raneto's page loses its `GET /translations/en.json`
 * (measured by hand, docs/real-servers-har.md): the page navigates while
 * the answer comes, so Playwright keeps its status with an empty text and
 * chrome-har keeps no text at all; the next page asks again and its answer,
 * a catalogue of the UI's words, holds `editor`, which the sign-in before
 * it sent as the user's name. A lost answer shows nothing of what the server
 * held: it is no "earlier repeat that lacked the text", so the read is sent
 * once, with no loop waiting for what it showed from the start. A repeat
 * whose answer was recorded without the text still makes the read wait
 * (tests/convert/har_shown_later_test.ts).
 */
import assert from "node:assert/strict";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8870";
const WORDS = { edit: { title: "Page editor" }, login: { user: "Username" } };

/** The recording: a sign-in as `editor`, then the words read twice, the first answer `lost`. */
function recording(lost: "empty" | "absent"): string {
  const har = JSON.parse(harOf([
    {
      method: "POST",
      url: `${AT}/rn-login`,
      body: "username=editor&password=Tide-Chart-41",
      mime: "application/x-www-form-urlencoded",
      json: { status: 1, message: "Login Successful" },
    },
    { url: `${AT}/translations/en.json`, json: WORDS },
    { url: `${AT}/translations/en.json`, json: WORDS },
  ]));
  const content = har.log.entries[1].response.content;
  if (lost === "empty") content.text = "";
  else delete content.text;
  return JSON.stringify(har);
}

for (const lost of ["empty", "absent"] as const) {
  Deno.test(`convert har: a repeat of a read whose answer was lost (${lost} text) is no evidence the server showed a write later: no loop`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      const { flow } = await convertHar(dir, recording(lost));
      assert.doesNotMatch(flow, /loop:/, flow);
      assert.doesNotMatch(flow, /contains: editor/, flow);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
