/**
 * A JavaScript `Date` a pre-request script keeps in a local and moves before writing it, proven
 * against Newman itself: `const d = new Date(); d.setDate(d.getDate() + 3);
 * pm.environment.set("checkin", d.toISOString().slice(0, 10))`, a copy moved from its original
 * (`const to = new Date(from); to.setDate(from.getDate() + 1)`), hours moved back, minutes as
 * milliseconds, and today's day cut from `new Date().toISOString()`, as booking and report
 * collections make a check-in, a period or an expiry. flowrun left each line a comment and sent
 * `{{checkin}}` as written (Newman 6.2.2 sent `2026-12-02`, three days on). Now a `Date` in a
 * local is the time of the request, moved by its `set…(get…() ± n)` calls, written as the flow's
 * `${NOW…}`; a set that is no such shift (`d.setDate(15)`) leaves it unknown, named.
 *
 * A day moved by a random count (`h.setDate(h.getDate() + _.random(1, 30))`,
 * `moment().add(_.random(1, 30), "days")`) is moved by the least the count can be, one day, where
 * Newman draws from 1 to 30: the summary says so, by name, with the `--var` that gives another.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { jsonPoster } from "../support/postman_items.ts";
import { withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const DAY = 86_400_000;

const SCRIPT = [
  "const moment = require('moment');",
  "const d = new Date();",
  "d.setDate(d.getDate() + 3);",
  "pm.environment.set('checkin', d.toISOString().slice(0, 10));",
  "const from = new Date();",
  "const to = new Date(from);",
  "to.setDate(from.getDate() + 1);",
  "pm.environment.set('checkout', to.toISOString().split('T')[0]);",
  "const e = new Date(); e.setHours(e.getHours() - 2);",
  "pm.environment.set('since', e.toISOString());",
  "const g = new Date();",
  "g.setMinutes(g.getMinutes() + 30);",
  "pm.environment.set('expires', g.getTime());",
  "pm.environment.set('today', new Date().toISOString().substring(0, 10));",
  "const h = new Date();",
  "h.setDate(h.getDate() + _.random(1, 30));",
  "pm.environment.set('later', h.toISOString().slice(0, 10));",
  "pm.environment.set('moved', moment().add(_.random(1, 30), 'days').format('YYYY-MM-DD'));",
  "const k = new Date();",
  "k.setDate(15);",
  "pm.environment.set('odd', k.toISOString());",
];

const BODY = '{"checkin": "{{checkin}}", "checkout": "{{checkout}}", "since": "{{since}}", ' +
  '"expires": {{expires}}, "today": "{{today}}", "later": "{{later}}", "moved": "{{moved}}", ' +
  '"odd": "{{odd}}"}';

/** The UTC day `days` after `at`, as both runners write it. */
const dayOf = (at: number, days: number) => new Date(at + days * DAY).toISOString().slice(0, 10);

Deno.test("postman date local: a Date moved in a local is sent as Newman sends it", () =>
  withBodySink(async (base, seen, dir) => {
    const file = `${dir}/dates.json`;
    const exec = SCRIPT;
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        info: { name: "Dates", schema: V21 },
        variable: [{ key: "baseUrl", value: base }],
        item: [
          jsonPoster("{{baseUrl}}")("Book", "/book", BODY, [{
            listen: "prerequest",
            script: { exec },
          }]),
        ],
      }),
    );
    await runNewman(file, { baseUrl: base });
    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const summary = converted.stdout + converted.stderr;
    // Only the day set to the 15th is named; the random shifts are said, with a --var.
    assert.match(summary, /sets \{\{odd\}\} in a way flowrun cannot express/, summary);
    assert.doesNotMatch(summary, /sets \{\{(checkin|checkout|since|expires|today|later|moved)\}\}/);
    assert.match(
      summary,
      /^Not random as in Postman: .*\{\{later\}\} \(Book\), \{\{moved\}\} \(Book\).*--var later=…/m,
    );
    const before = Date.now();
    const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    const after = Date.now();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const [newman, flow] = seen as unknown as Record<string, unknown>[];
    const days = (n: number) => [dayOf(before, n), dayOf(after, n)];
    for (const [key, n] of [["checkin", 3], ["checkout", 1], ["today", 0]] as const) {
      assert.ok(days(n).includes(String(newman[key])), `Newman ${key}: ${newman[key]}`);
      assert.ok(days(n).includes(String(flow[key])), `flow ${key}: ${JSON.stringify(flow)}`);
    }
    const near = (t: number, shift: number) => t >= before + shift - 60_000 && t <= after + shift;
    for (const sent of [newman, flow]) {
      assert.ok(near(Date.parse(String(sent.since)), -2 * 3_600_000), JSON.stringify(sent));
      assert.ok(
        typeof sent.expires === "number" && near(sent.expires, 1_800_000),
        JSON.stringify(sent),
      );
    }
    // Newman draws 1 to 30 days on; the flow takes the least, a day on.
    const month = Array.from({ length: 31 }, (_, i) => dayOf(before, i + 1)).concat(
      dayOf(after, 30),
    );
    assert.ok(month.includes(String(newman.later)) && month.includes(String(newman.moved)));
    assert.ok(days(1).includes(String(flow.later)) && days(1).includes(String(flow.moved)));
    // The 15th: Newman's day, the flow's {{odd}} as written.
    assert.match(String(newman.odd), /^\d{4}-\d\d-15T/);
    assert.equal(flow.odd, "{{odd}}");
  }));
