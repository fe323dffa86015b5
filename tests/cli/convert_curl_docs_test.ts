/**
 * `flowrun convert curl` end to end on the API-docs corpus, a wiki-style
 * script and bodies on standard input the text holds (here-documents, a
 * here-string, `echo`/`printf`/`cat` into a pipe; tests/fixtures/curl/README.md):
 * sent by bash and the real curl at a local server, converted by the CLI,
 * the flow run at the same server, and the requests compared field by
 * field. `$NAME` in a command is the user's own variable: curl and the flow
 * get the same value.
 */
import assert from "node:assert/strict";
import {
  askedSorted,
  compareAll,
  convertAndRun,
  sendWithCurl,
  withWire,
} from "../support/curl_wire.ts";
import { hasCurl } from "../support/has_curl.ts";

const SECRETS = [
  "<YOUR-TOKEN>",
  "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
  btoa("sk_test_4eC39HqLyjWDarjtT1zdp7dc:"),
  "xoxb-1234-56789abcdefghijklmnop",
  "xoxb-not-a-real-token-this-will-not-work",
  "xoxb-xxxxxxxxx-xxxx",
];

const CASES: { file: string; steps: number; env: Record<string, string>; set: string[] }[] = [
  {
    file: "github_docs.sh",
    steps: 3,
    env: { GITHUB_TOKEN: "ghp_fixture0123456789" },
    set: ["API_TOKEN", "GITHUB_TOKEN"],
  },
  // The key is -u's user name: the flow's auth: basic sends what curl sends when it is set.
  {
    file: "stripe_docs.sh",
    steps: 3,
    env: { BASIC_USER: "sk_test_4eC39HqLyjWDarjtT1zdp7dc" },
    set: ["BASIC_USER"],
  },
  {
    file: "slack_docs.sh",
    steps: 4,
    env: { SLACK_BOT_TOKEN: "xoxb-from-the-environment" },
    set: ["API_TOKEN", "API_TOKEN_2", "API_TOKEN_3", "SLACK_BOT_TOKEN"],
  },
  {
    file: "scripts.sh",
    steps: 10,
    env: { INVENTORY_TOKEN: "inv_tok_9f8e7d6c" },
    set: ["INVENTORY_TOKEN"],
  },
  {
    file: "heldout_docs.sh",
    steps: 6,
    env: {
      TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
      TWILIO_AUTH_TOKEN: "twilio-auth-token-0",
      OPENAI_API_KEY: "sk-proj-fixture0",
    },
    set: ["OPENAI_API_KEY", "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN"],
  },
  {
    file: "heredocs.sh",
    steps: 9,
    env: { OWNER: "ann lee", SHELF: "s-9" },
    set: ["OWNER", "SHELF"],
  },
];

Deno.test({
  name: "convert curl: API docs' commands send what curl sends",
  ignore: !hasCurl,
  fn: (t) =>
    withWire(async (wire, dir) => {
      for (const c of CASES) {
        await t.step(c.file, async () => {
          const sent = await sendWithCurl(wire, dir, c.file, c.env);
          const flow = await convertAndRun(wire, dir, c.file, c.env);
          assert.match(flow.summary, new RegExp(`into ${c.steps} steps\\.`));
          assert.deepEqual(
            askedSorted(flow.summary),
            [...c.set].sort(),
          );
          for (const secret of SECRETS) assert.ok(!flow.yaml.includes(secret), secret);
          // The one difference a flow cannot avoid, which the summary names: -T sends no
          // content type, a body_file application/octet-stream.
          const known = { "PUT /v1/imports/upload.csv": "octet-stream" };
          if (c.file === "scripts.sh") {
            assert.match(flow.summary, /no Content-Type; the flow sends application\/octet-stream/);
          }
          if (c.file === "heredocs.sh") {
            // The pipe's reader is the one skipped: a here-document's lines are no commands, and
            // what echo, printf and cat write is curl's input.
            assert.match(flow.summary, /^Skipped 1 command that is not curl: line 21: head\.$/m);
            assert.doesNotMatch(flow.summary, /not carried|no word|to end it/, flow.summary);
          }
          await compareAll(sent, flow, c.file, known);
        });
      }
    }),
});
