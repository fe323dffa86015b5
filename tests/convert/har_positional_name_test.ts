/**
 * `convert har` on a name a page took from a list answer by its position:
 * Bull Board's board lists its queues (`{"queues": [{"name": "mail", …},
 * {"name": "reports", …}]}`) and the page sends the first one's name in the
 * later paths (`POST /api/queues/mail/add`). No other field of the item tells
 * it apart (counts are numbers, the other words are shared), so the capture
 * reads `$.json.queues[0].name`: right on an instance set up as the recorded
 * one, and wrong, silently, on one that lists its queues in another order
 * (the jobs went to `reports`, whose worker never ran them).
 *
 * What the converter does (correlate/position_notes.ts): the capture stays by
 * position where the position is the only evidence, and the summary names
 * each such capture, with the value it read and the list, when the list held
 * more than one item alike (an instance may list them in another order; a
 * tuple's positions are its fields). An item another field tells apart is
 * captured by that field and named nowhere.
 * Each case runs twice on one stand-in.
 */
import assert from "node:assert/strict";
import { passesTwice } from "../support/form_pages.ts";

/** How the board lists its queues in one case, and what the summary must say. */
interface Listing {
  name: string;
  queues: (names: string[]) => unknown;
  capture: RegExp;
  noted: boolean;
}

const LISTINGS: Listing[] = [
  {
    name: "items told apart by no field but the name",
    queues: (names) =>
      names.map((name, i) => ({ name, type: "bullmq", counts: { waiting: i, failed: 0 } })),
    capture: /\$\.json\.queues\[0\]\.name/,
    noted: true,
  },
  {
    name: "a list of names",
    queues: (names) => names,
    capture: /\$\.json\.queues\[0\]/,
    noted: true,
  },
  {
    name: "one queue",
    queues: (names) => names.slice(0, 1).map((name) => ({ name, type: "bullmq" })),
    // The one item is told apart by any of its words: one is as good as its position.
    capture: /queues\[\?@\.type == 'bullmq'\]\.name/,
    noted: false,
  },
  {
    // A record spelled as a tuple (Deluge's `web.get_hosts`): its positions are its fields.
    name: "one tuple of mixed types",
    queues: (names) => names.slice(0, 1).map((name) => [name, "127.0.0.1", 6379, "ready"]),
    capture: /\$\.json\.queues\[0\]\[0\]/,
    noted: false,
  },
  {
    name: "items told apart by another field",
    queues: (names) => names.map((name) => ({ name, prefix: `bull:${name}` })),
    capture: /queues\[\?@\.prefix == 'bull:mail'\]\.name/,
    noted: false,
  },
];

/** A board over two queues: a listing, and jobs added to a queue by its name. */
function boardStandIn(listing: Listing) {
  const jobs = new Map<string, number>([["mail", 0], ["reports", 0]]);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/api/queues") {
      return Response.json({ queues: listing.queues([...jobs.keys()]) });
    }
    const queue = /^\/api\/queues\/([^/]+)\/add$/.exec(url.pathname)?.[1];
    if (req.method !== "POST" || !queue || !jobs.has(queue)) {
      return Response.json({ error: "no such queue" }, { status: 404 });
    }
    jobs.set(queue, jobs.get(queue)! + 1);
    return Response.json({ job: { id: String(jobs.get(queue)), name: "welcome" } });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, jobs, close: () => server.shutdown() };
}

/** The journey: the board lists the queues, the page adds a job to the first and lists again. */
function recording(listing: Listing): string {
  const origin = "http://127.0.0.1:3000";
  const names = ["mail", "reports"];
  const entry = (i: number, method: string, path: string, answer: unknown, sent?: string) => ({
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: 5,
    request: {
      method,
      url: `${origin}${path}`,
      headers: sent ? [{ name: "Content-Type", value: "application/json" }] : [],
      cookies: [],
      ...(sent ? { postData: { mimeType: "application/json", text: sent } } : {}),
    },
    response: {
      status: 200,
      headers: [{ name: "Content-Type", value: "application/json" }],
      cookies: [],
      content: { mimeType: "application/json", text: JSON.stringify(answer) },
      redirectURL: "",
    },
    _resourceType: "fetch",
  });
  const job = JSON.stringify({ name: "welcome", data: { to: "ops@harbour.test" } });
  const entries = [
    entry(0, "GET", "/api/queues", { queues: listing.queues(names) }),
    entry(1, "POST", "/api/queues/mail/add", { job: { id: "1", name: "welcome" } }, job),
    entry(2, "POST", "/api/queues/mail/add", { job: { id: "2", name: "welcome" } }, job),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "stand-in" }, entries } });
}

for (const listing of LISTINGS) {
  Deno.test(`convert har: a queue's name read from ${listing.name} is captured, named in the summary when the order may change`, async () => {
    const app = boardStandIn(listing);
    try {
      await passesTwice(recording(listing), app.origin, (flow, summary) => {
        assert.match(flow, listing.capture);
        assert.doesNotMatch(flow, /url: .*\/api\/queues\/mail\/add/);
        const note = /read by (its )?position/i;
        if (!listing.noted) return assert.doesNotMatch(summary, note);
        assert.match(summary, note);
        assert.match(summary, /"mail"/);
        assert.match(summary, /queues\[0\]/);
        // The flow's header says it too: the flow is what a user reads later.
        assert.match(flow, note);
      });
      assert.deepEqual([...app.jobs], [["mail", 4], ["reports", 0]]);
    } finally {
      await app.close();
    }
  });
}
