/**
 * `flowrun convert curl` on bodies read from standard input that the command
 * line itself holds (tests/fixtures/curl/heredocs.sh): here-documents with
 * quoted and unquoted delimiters, `<<-` with tabs, a here-string, a pipe
 * after the delimiter, and `echo`, `printf` and `cat FILE` before a pipe.
 * Sent by bash and the real curl at a local server, converted by the CLI,
 * the flow run at the same server, the requests compared field by field;
 * and the lines of a here-document are the body, not commands.
 */
import assert from "node:assert/strict";
import {
  compareAll,
  convertAndRun,
  localCorpus,
  sendWithCurl,
  startWire,
} from "../support/curl_wire.ts";
import { hasCurl } from "../support/has_curl.ts";

Deno.test({
  name: "convert curl: a here-document, here-string or echo into a pipe is curl's stdin",
  ignore: !hasCurl,
  async fn() {
    const wire = startWire();
    const dir = await localCorpus(wire.origin);
    const env = { OWNER: "ann lee", SHELF: "s-9" };
    try {
      const sent = await sendWithCurl(wire, dir, "heredocs.sh", env);
      const flow = await convertAndRun(wire, dir, "heredocs.sh", env);
      assert.match(flow.summary, /^Converted 9 curl commands into 9 steps\.$/m, flow.summary);
      // The pipe's reader is the one skipped; the lines of each here-document are no command,
      // and what echo, printf and cat write is curl's input.
      assert.match(flow.summary, /^Skipped 1 command that is not curl: line 21: head\.$/m);
      assert.doesNotMatch(flow.summary, /not carried|no word|to end it/, flow.summary);
      assert.deepEqual(
        /^Set before running: (.*)\.$/m.exec(flow.summary)?.[1].split(", ").sort(),
        ["OWNER", "SHELF"],
      );
      await compareAll(sent, flow, "heredocs.sh");
    } finally {
      await wire.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
