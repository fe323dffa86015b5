/**
 * A pre-request script that picks one of a literal list at random (`_.sample(list)`,
 * `_.shuffle(list)[0]`) or shifts a day by a random count (`moment().add(_.random(1, 14),
 * 'days')`) was left a comment, so the request sent `{{room}}` and `{{checkin}}` as written, which
 * a booking server refuses or stores as nonsense. Each is now a value the script could have made,
 * the same in every run: the list's first element (the order the list is written in is one
 * shuffle), and the day shifted by the least count the made number can be (`_.random(1, 14)` is
 * `${RANDOM.DIGITS_1}`, one digit from 1: a day later). A list known only when the script runs
 * (a response's) stays unknown (`lodashPick`'s example).
 *
 * Newman 6.2.1 (by hand, this collection against a server that printed the body, run on
 * 2026-11-28) sent `{"room": "double", "meal": "Dinner", "checkin": "2026-12-10", "first": "a"}`
 * and `{"room": "suite", "meal": "Dinner", "checkin": "2026-12-07", "first": "b"}`; without the
 * `require('moment')` the sandbox throws at `moment()` and sends the rest as written.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { jsonPoster } from "../support/postman_items.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const ROOMS = ["single", "double", "suite"];
const MEALS = ["Breakfast", "Lunch", "Dinner"];

const SCRIPT = [
  "const moment = require('moment');",
  `pm.environment.set("room", _.sample(${JSON.stringify(ROOMS)}));`,
  `pm.environment.set("meal", _.shuffle(${JSON.stringify(MEALS)})[0]);`,
  "pm.environment.set(\"checkin\", moment().add(_.random(1, 14), 'days').format('YYYY-MM-DD'));",
  'const letters = ["a", "b"];',
  'pm.environment.set("first", _.sample(letters));',
];

const FIELDS = ["room", "meal", "checkin", "first"];

/** A booking whose body quotes each value the script picks. */
function collection(base: string) {
  const raw = `{${FIELDS.map((f) => `"${f}": "{{${f}}}"`).join(", ")}}`;
  const script = [{ listen: "prerequest", script: { exec: SCRIPT } }];
  return {
    info: { name: "Picks", schema: V21 },
    item: [jsonPoster(base)("Book", "/booking", raw, script)],
  };
}

/** The day `days` after today, in UTC, as the flow's `${NOW.DATE}` writes it. */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

Deno.test("postman random pick: a list's element and a day a random count on, as Newman could send", () =>
  withBodySink(async (base, seen, dir) => {
    const { files, summary } = convertPostman(JSON.stringify(collection(base)));
    const text = formatPostmanSummary(summary, dir);
    assert.doesNotMatch(text, /^Not translated/m, text);
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    const got = seen[0];
    assert.ok(ROOMS.includes(got.room), got.room);
    assert.ok(MEALS.includes(got.meal), got.meal);
    assert.ok(["a", "b"].includes(got.first), got.first);
    // A day from 1 to 14 on (the clock may pass midnight between the two reads).
    const days = Array.from({ length: 15 }, (_, i) => day(i + 1)).concat(day(0));
    assert.ok(days.includes(got.checkin), got.checkin);
  }));
