/**
 * `flowrun convert curl` end to end on the browser corpus
 * (tests/fixtures/curl/README.md): each file is sent by the real curl at a
 * local server, converted by the CLI, and the flow run at the same server;
 * what arrived must be the same request field by field (the headers
 * `convert curl` drops as noise aside), with no secret written in the flow.
 * A cmd file is compared with what curl sends for its bash twin: the same
 * requests, as the browser copies them for the other shell.
 */
import assert from "node:assert/strict";
import {
  type Arrived,
  askedSorted,
  compareAll,
  convertAndRun,
  sendWithCurl,
  withWire,
} from "../support/curl_wire.ts";
import { hasCurl } from "../support/has_curl.ts";

/** Values the corpus holds that are secrets: none may be written in a flow. */
const SECRETS = [
  "eyJhbGciOiJIUzI1NiJ9",
  "5f0c9a7d2e8b4c1a",
  "7b1d2f3e4a5b6c7d8e9f0a1b",
  "nk_live_51HxQe2Lk9w0d8sT",
  "q9ZkT2v0Yb7mX4",
  "3f9a0c2b7e5d4c1a9b8e7f6d5c4b3a29",
];

const CASES: { file: string; twin?: string; steps: number; env: string[] }[] = [
  { file: "chrome_bash.sh", steps: 4, env: ["SESSION_COOKIE", "API_TOKEN", "CSRF_TOKEN"] },
  {
    file: "chrome_cmd.txt",
    twin: "chrome_bash.sh",
    steps: 4,
    env: ["SESSION_COOKIE", "API_TOKEN", "CSRF_TOKEN"],
  },
  { file: "firefox_bash.sh", steps: 3, env: ["API_KEY", "SESSION_COOKIE"] },
  { file: "webkit_cmd.txt", twin: "firefox_bash.sh", steps: 3, env: ["SESSION_COOKIE", "API_KEY"] },
  { file: "safari_bash.sh", steps: 2, env: ["API_TOKEN"] },
];

Deno.test({
  name: "convert curl: browser copies send what curl sends, secrets as variables",
  ignore: !hasCurl,
  fn: (t) =>
    withWire(async (wire, dir) => {
      const sent = new Map<string, Arrived[]>();
      for (const c of CASES) {
        await t.step(c.file, async () => {
          const source = c.twin ?? c.file;
          if (!sent.has(source)) sent.set(source, await sendWithCurl(wire, dir, source, {}));
          const flow = await convertAndRun(wire, dir, c.file, {});
          assert.match(
            flow.summary,
            new RegExp(`^Converted \\d+ curl commands? into ${c.steps} steps?\\.`),
          );
          assert.deepEqual(
            askedSorted(flow.summary),
            [...c.env].sort(),
          );
          for (const secret of SECRETS) assert.ok(!flow.yaml.includes(secret), secret);
          await compareAll(sent.get(source)!, flow, c.file);
        });
      }
    }),
});
