/**
 * `convert har` on a list whose rows a fresh instance stamps anew: MailDev
 * 3.0's `GET /api/email/summary` lists each message with its own random
 * `id`, the `time` it arrived and its `subject` (docs/real-servers-har.md).
 * The capture of the opened message's id picked its row by `time`, the
 * first field no other row shared, so on a fresh instance (the same
 * messages, received later) it matched nothing and every later step was
 * skipped. A date-time is when the instance made the row, never what names
 * it: the row is picked by another field (`subject`).
 *
 * The stand-in runs on 127.0.0.1 and stamps each row with the time it is asked.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:8888";
const SUBJECTS = ["Order 1 shipped", "Order 2 shipped", "Order 3 shipped"];

function standIn(stamp: (i: number) => string) {
  const ids = SUBJECTS.map(() => crypto.randomUUID().slice(0, 8));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/api/email/summary") {
      return Response.json({
        items: SUBJECTS.map((subject, i) => ({ id: ids[i], time: stamp(i), subject })),
      });
    }
    const i = ids.indexOf(pathname.split("/").pop() ?? "");
    if (i < 0) return Response.json({ error: "Not found" }, { status: 404 });
    return Response.json({ id: ids[i], subject: SUBJECTS[i] });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

function recording(stamp: (i: number) => string): string {
  const ids = ["nav2x77n", "73mei5h3", "k2p9q4zz"];
  const items = SUBJECTS.map((subject, i) => ({ id: ids[i], time: stamp(i), subject }));
  return harOf([
    { url: `${RECORDED}/api/email/summary?limit=50`, json: { items } },
    { url: `${RECORDED}/api/email/${ids[1]}`, json: { id: ids[1], subject: SUBJECTS[1] } },
  ]);
}

const stamps: [string, (i: number) => string][] = [
  ["ISO date-times", (i) => new Date(Date.now() + i * 1000).toISOString()],
  [
    "date-times with a space and an offset",
    (i) => new Date(Date.now() + i * 1000).toISOString().replace("T", " ").replace("Z", "+00:00"),
  ],
];

for (const [label, stamp] of stamps) {
  Deno.test(`convert har: a listed row is never picked by its ${label}`, async () => {
    const { flow, run } = await convertHarThenRun(() => standIn(stamp), recording(stamp));
    assert.match(flow, /@\.subject == 'Order 2 shipped'/, flow);
    assert.doesNotMatch(flow, /@\.time ==/, flow);
    assert.equal(run.code, 0, run.stdout + flow);
  });
}
