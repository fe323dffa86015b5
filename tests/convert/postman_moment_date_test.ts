/**
 * moment.js dates a script makes, as booking collections send a check-in "a year from today"
 * and a check-out a week after it (`const moment = require('moment'); var checkin =
 * moment().add(1, 'y').format("YYYY-MM-DD"); moment(checkin).add(7, 'days')…`), and check
 * the booking read back with `moment(json.bookingdates.checkin).format("YYYY-MM-DD")`. Both
 * stayed comments: the dates were sent empty (restful-booker stored `0NaN-aN-aN`) and the
 * checks were lost. Now the dates are `${NOW.DATE+365d}` and `${NOW.DATE+372d}` (a year is
 * 365 days in a flow) and the checks read the day the response writes. A small server stores
 * and answers bookings; one check is written to fail, so the checks are seen to run.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const DAY = 86_400_000;

const PRE = [
  "const moment = require('moment')",
  "const today = moment()",
  "var checkin = today.add(1, 'y').format(\"YYYY-MM-DD\")",
  'pm.environment.set("checkin", checkin)',
  "const checkout = moment(checkin).add(7, 'days').format(\"YYYY-MM-DD\")",
  'pm.environment.set("checkout", checkout)',
  "pm.environment.set(\"sent\", moment().subtract(2, 'hours').toISOString())",
  // The moment object itself: Postman keeps the object, whose text is no ISO time: named.
  'pm.environment.set("object", moment())',
];

const TESTS = [
  "var json = pm.response.json()",
  "const moment = require('moment')",
  "pm.test('Check-in', function () {",
  "  const responseCheckin = moment(json.bookingdates.checkin).format('YYYY-MM-DD')",
  "  pm.expect(responseCheckin).to.eql(pm.environment.get('checkin'))",
  "})",
  "pm.test('Check-out', function () {",
  "  pm.expect(moment(json.bookingdates.checkout).format('YYYY-MM-DD')).to.eql(pm.environment.get('checkout'))",
  "})",
  "pm.test('Check-out is the check-in (fails)', function () {",
  "  pm.expect(moment(json.bookingdates.checkout).format('YYYY-MM-DD')).to.eql(pm.environment.get('checkin'))",
  "})",
];

Deno.test("postman moment(): a date a script makes is sent as a day, and a response's day is checked", async () => {
  const bookings: Record<string, unknown>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST") {
      bookings.push(await req.json());
      return Response.json({ bookingid: bookings.length });
    }
    return Response.json(bookings[Number(path.split("/").pop()) - 1] ?? {}, {
      status: bookings.length ? 200 : 404,
    });
  });
  const dir = await Deno.makeTempDir();
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Booking", schema: V21 },
      item: [{
        name: "Create Booking",
        event: [
          { listen: "prerequest", script: { exec: PRE } },
          {
            listen: "test",
            script: { exec: ["pm.environment.set('id', pm.response.json().bookingid)"] },
          },
        ],
        request: {
          method: "POST",
          url: `${base}/booking`,
          header: [{ key: "Content-Type", value: "application/json" }],
          body: {
            mode: "raw",
            raw: '{"bookingdates": {"checkin": "{{checkin}}", "checkout": "{{checkout}}"},' +
              ' "sent": "{{sent}}", "object": "{{object}}"}',
          },
        },
      }, {
        name: "Get Booking",
        event: [{ listen: "test", script: { exec: TESTS } }],
        request: { method: "GET", url: `${base}/booking/{{id}}` },
      }],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /untranslated, from the test script/, flow.text);
    const said = formatPostmanSummary(summary, dir);
    assert.deepEqual(summary.broken?.map((b) => b.name), ["object"], said);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const before = Date.now();
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    const after = Date.now();
    assert.equal(run.code, 1, run.stdout + run.stderr + flow.text);
    assert.match(run.stdout, /Check-out is the check-in \(fails\)/);
    assert.doesNotMatch(run.stdout, /✘ Check-in:|✘ Check-out:/, run.stdout);
    const [booking] = bookings as { bookingdates: Record<string, string>; sent: string }[];
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const { checkin, checkout } = booking.bookingdates;
    assert.ok([day(before + 365 * DAY), day(after + 365 * DAY)].includes(checkin), checkin);
    assert.equal(day(Date.parse(checkin) + 7 * DAY), checkout);
    const sent = Date.parse(booking.sent);
    assert.ok(sent >= before - 2 * 3_600_000 - 1000 && sent <= after - 2 * 3_600_000 + 1000);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
