/**
 * Record, convert, run, on apps the converter was not built against: each
 * app in `tests/apps/` has stored browser recordings (Playwright `recordHar`
 * and a chrome-har export, re-recorded with `deno task record:apps`). Each
 * recording is converted with default options by the CLI, then run by the
 * CLI against a fresh instance of its app, exactly as a new user would: the
 * flow's base-URL variables pointed at the instance, its required variables
 * set (the password the user knows, anything else to a value a fresh
 * instance cannot know), and nothing else. Every step must pass on the first
 * run, and the flow must pass the QA checks (tests/support/harcheck.ts).
 */
import assert from "node:assert/strict";
import {
  type AppInstance,
  assertReplayPassed,
  convertAndReplay,
  PROJECTLY_PASSWORD,
  startProjectly,
} from "../support/convert_apps.ts";
import { harCheck } from "../support/harcheck.ts";

/** One app of the corpus. */
interface App {
  name: string;
  /** Stored recordings, relative to the app's folder. */
  recordings: string[];
  /** The folder under tests/apps. */
  dir: URL;
  /** A fresh instance (new state, keys and id offsets). */
  start(): Promise<AppInstance>;
  /** The value a new user gives a required variable the flow names, or undefined. */
  known(name: string): string | undefined;
}

const APPS: App[] = [
  {
    // A bearer SPA with a JSON login, a polled export job, cookie + CSRF
    // settings and a telemetry script from another host (its JSON events come first).
    name: "projectly",
    dir: new URL("../apps/projectly/", import.meta.url),
    recordings: ["full.pw.har", "full.cdp.har", "bearer.pw.har"],
    start: () => startProjectly(),
    known: (name) => name === "LOGIN_PASSWORD" ? PROJECTLY_PASSWORD : undefined,
  },
];

for (const app of APPS) {
  for (const recording of app.recordings) {
    Deno.test(`${app.name} ${recording}: the default conversion passes on a fresh instance`, async () => {
      const har = new URL(recording, app.dir).pathname;
      const instance = await app.start();
      let flow;
      try {
        const replay = await convertAndReplay(har, instance.origin, app.known);
        assertReplayPassed(replay);
        flow = replay.flow;
        assert.equal(await instance.telemetry(), 0, "the flow called a telemetry host");
      } finally {
        await instance.close();
      }
      const found = harCheck(await Deno.readTextFile(har), flow);
      assert.deepEqual(found, {
        leaks: [],
        noiseHeaders: [],
        analyticsCookies: [],
        literalIds: [],
      });
    });
  }
}

Deno.test("the QA checks flag a leaked secret, a noise header, an analytics cookie and a literal id", () => {
  const har = JSON.stringify({
    log: {
      entries: [{
        request: {
          url: "https://app.test/api/login",
          postData: { text: JSON.stringify({ username: "ann", password: "hunter2-secret" }) },
        },
        response: { content: { text: JSON.stringify({ id: "prj_9f3a2c", token: "t0k-abcdef" }) } },
      }],
    },
  });
  const flow = [
    "# LOGIN_PASSWORD  was hunter2-secret",
    "steps:",
    "  - name: a",
    "    request:",
    "      url: https://app.test/api/projects/prj_9f3a2c",
    "      headers:",
    "        user-agent: x",
    "        if-match: '\"v1\"'",
    "        cookie: _ga=GA1.2.3",
    "",
  ].join("\n");
  assert.deepEqual(harCheck(har, flow), {
    leaks: ["#0 body password: hunter2-secr…"],
    noiseHeaders: ["user-agent"],
    analyticsCookies: ["_ga"],
    literalIds: ["#0 id: prj_9f3a2c"],
  });
  assert.deepEqual(harCheck(har, "steps: []\n"), {
    leaks: [],
    noiseHeaders: [],
    analyticsCookies: [],
    literalIds: [],
  });
});
