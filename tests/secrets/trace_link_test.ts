/**
 * `--trace-link` is a value the user writes on the command line, and a tracing backend's link may
 * hold a key in its query. The manifest wrote the command line with the run's secrets masked, but
 * the HTML report kept the link as given in its data and the console printed it under each step
 * at -v: a short secret of the run in it showed in clear. The link is now masked as a value, once,
 * before either shows it; `{trace_id}` and the rest stay readable.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowText } from "./short_secret_artifacts.ts";

const PIN = "q7~z";
const TOKEN = "tok_9fK2mQ7rX4vB8nL3pW6s";

Deno.test("a secret of the run in --trace-link shows in no artifact", async () => {
  const flow = `name: traced
steps:
  - name: s
    request: {url: "\${BASE_URL}/x"}
    assert: {status: 201}
`;
  const link = `http://traces.test/t/{trace_id}?pin=${PIN}&key=${TOKEN}`;
  const w = await runFlowText(flow, {}, [
    "--trace",
    "--trace-link",
    link,
    "--var",
    `pin=${PIN}`,
    "--var",
    `api_key=${TOKEN}`,
    "--secret",
    "pin",
  ]);
  assert.equal(w.code, 1, w.console);
  noLeak({ ...w, texts: [...w.texts, w.html] }, [PIN, TOKEN, "9fK2mQ7rX4vB8nL3"]);
  assert.match(w.console, /trace: http:\/\/traces\.test\/t\/[0-9a-f]{32}\?pin=\*\*\*&key=\*\*\*/);
  assert.ok(w.html.includes("{trace_id}?pin=***&key=***"), "the HTML report keeps the link");
});
