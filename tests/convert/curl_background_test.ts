/**
 * `convertCurl`: docs start a watch with `curl -N …/watch -d '…' &` and
 * then send the writes it will report. `-N` (`--no-buffer`) says the answer
 * is a stream read as it comes, and `&` that the shell goes on without
 * waiting for it; a flow waits for each answer in turn, so such a step
 * never ended and every command after it was skipped. It is left out, and
 * the summary says so by its line. A command sent to the background
 * without `-N`, or `-N` without `&`, is a step as before. Commands written
 * here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const WRITE = `curl -L http://localhost:2379/v3/kv/put -X POST -d '{"name": "a"}'`;

Deno.test("a stream read in the background is left out, with a note naming its line", () => {
  for (
    const watch of [
      `curl -N http://localhost:2379/v3/watch \\\n  -X POST -d '{"create_request": {"name":"a"} }' &`,
      `curl --no-buffer -s http://localhost:2379/v3/watch -d '{}' & `,
      `curl -sN http://localhost:2379/v3/watch -d '{}' &`,
    ]
  ) {
    const { yaml, summary } = convertCurl(`${watch}\n\n${WRITE}\n`);
    assert.equal(summary.steps, 1, yaml);
    assert.equal(summary.commands, 2, yaml);
    assert.doesNotMatch(yaml, /\/v3\/watch/, yaml);
    assert.ok(
      summary.notes.some((n) => /line 1\b.*background/.test(n)),
      summary.notes.join("\n"),
    );
  }
});

Deno.test("a background command that is no stream, or a stream waited for, is a step", () => {
  for (
    const text of [
      `curl http://localhost:2379/v3/watch -d '{}' &\n${WRITE}\n`,
      `curl -N http://localhost:2379/v3/watch -d '{}' && ${WRITE}\n`,
      `curl -N http://localhost:2379/v3/watch -d '{}'\n${WRITE}\n`,
    ]
  ) {
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 2, `${text}\n${yaml}`);
  }
});
