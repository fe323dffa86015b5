/**
 * A short secret (shorter than eight characters: `pass`, `flow`, `1234`) is masked where it is a
 * value, as a token of its own and in every encoding the redactor decodes; never inside a longer
 * word or number, never in the fields of flowrun's own records (a status, a name, a duration),
 * never by the last pass over a text flowrun writes. A secret of eight or more is masked wherever
 * it stands, as before.
 */
import assert from "node:assert/strict";
import { Redactor } from "../../lib/secrets/redactor.ts";

function redactorOf(...secrets: string[]): Redactor {
  const r = new Redactor();
  for (const s of secrets) r.add(s);
  return r;
}

Deno.test("a short secret is masked as a token of its own, in every encoding", () => {
  const r = redactorOf("pass", "1234");
  const masked: [string, string][] = [
    ["pw=pass", "pw=***"],
    ['{"password":"pass"}', '{"password":"***"}'],
    ['{"p":"\\u0070ass"}', '{"p":"***"}'],
    ["q=p%61ss&x=1", "q=***&x=1"],
    ["<v>&#112;ass</v>", "<v>***</v>"],
    ["a pass-word", "a ***-word"],
    ["GET /items/1234?n=1234", "GET /items/***?n=***"],
    ["x cGFzcw== y", "x *** y"],
  ];
  for (const [text, want] of masked) assert.equal(r.redact(text), want, text);
  // Another word or number that holds it is not the secret.
  for (const text of ["2 passed", "password", "compass", "pass_word", "passé", "12345", "a1234"]) {
    assert.equal(r.redact(text), text);
  }
});

Deno.test("a secret of eight characters or more is masked wherever it stands", () => {
  const r = redactorOf("hunter22", "tok-1234abcd");
  assert.equal(r.redact("xhunter22y"), "x***y");
  assert.equal(r.redactOutput("id=tok-1234abcd1"), "id=***1");
  assert.equal(r.redactValue({ name: "for tok-1234abcd" }).name, "for ***");
});

Deno.test("the last pass over written text leaves short secrets to the values, before", () => {
  const r = redactorOf("flow", "pass", "s3cr3t-t0ken");
  const line = "1 flow: 2 passed · pass --var x=… · Bearer s3cr3t-t0ken";
  assert.equal(r.redactOutput(line), "1 flow: 2 passed · pass --var x=… · Bearer ***");
  assert.equal(r.redact("kind: flow"), "kind: ***");
});

Deno.test("flowrun's own fields keep their words; values beside them are masked", () => {
  const r = redactorOf("step", "1234");
  const step = {
    name: "login step",
    status: "passed",
    duration_ms: 1234,
    attempt_starts_ms: [0, 1234],
    line: 3,
    captures: ["step"],
    request: {
      method: "POST",
      url: "http://h/step?x=step",
      headers: { "x-note": "step", name: "step" },
      body: '{"p":"step"}',
    },
    response: { status: 200, body: '{"n":1234}' },
    assertions: [{ path: "$.json.n", operator: "equals", expected: 1234, actual: "step" }],
    message: "got step",
  };
  const masked = r.redactValue(step);
  assert.deepEqual(masked, {
    ...step,
    request: {
      method: "POST",
      url: "http://h/***?x=***",
      // A request's headers are its data, whatever a header is named.
      headers: { "x-note": "***", name: "***" },
      body: '{"p":"***"}',
    },
    response: { status: 200, body: '{"n":***}' },
    assertions: [{ ...step.assertions[0], expected: "***", actual: "***" }],
    message: "got ***",
  });
  // A HAR entry: its header pairs are named by flowrun, valued by the exchange.
  const entry = r.redactValue({
    _step: "login step",
    time: 1234,
    request: { headers: [{ name: "step", value: "step" }] },
  });
  assert.deepEqual(entry, {
    _step: "login step",
    time: 1234,
    request: { headers: [{ name: "step", value: "***" }] },
  });
  // A load problem is flowrun's sentence about the flow file.
  const run = r.redactValue({ problems: [{ message: "of step s", hint: "pass --var" }] });
  assert.equal(run.problems[0].message, "of step s");
});

Deno.test("a check's message is flowrun's text; a step's too when its checks failed it", () => {
  const r = redactorOf("status", "holds", "tok-1234abcd");
  const check = (message: string) => ({ path: "status", actual: "status", message });
  const step = (failure_kind: string, message: string) => ({
    name: "s",
    status: "failed",
    failure_kind,
    message,
    assertions: [check("status: expected 201, got 200"), check('$.x: equals "a" holds')],
  });
  const flow = {
    name: "f",
    steps: [
      step("assertion", "status: expected 201, got 200 (and 1 more)."),
      step("until", "Still unmet after 2 attempts: status: expected 201, got 200."),
      // A message of no kind flowrun knows (a library's caller made it): masked as one value.
      { ...step("", "status of tok-1234abcd refused"), failure_kind: undefined },
      step("condition", "Skipped: its condition status of tok-1234abcd does not hold."),
      step("request", "Request failed: status of tok-1234abcd refused."),
      step("skipped", 'Skipped because step "status" failed.'),
      // A flow file's problem: told with its values masked before the run, then flowrun's words.
      step("invalid", "a.yaml:5:12 status of tok-1234abcd refused. Hint: quote the status"),
    ],
  };
  const masked = r.redactValue(flow);
  const [failed, unmet, other, condition, request, skipped, invalid] = masked.steps;
  assert.equal(failed.message, "status: expected 201, got 200 (and 1 more).");
  assert.equal(unmet.message, "Still unmet after 2 attempts: status: expected 201, got 200.");
  assert.deepEqual(failed.assertions.map((a) => a.message), [
    "status: expected 201, got 200",
    '$.x: equals "a" holds',
  ]);
  // The values beside it are still values; another kind of message is masked as one.
  assert.equal(failed.assertions[0].actual, "***");
  assert.equal(other.message, "*** of *** refused");
  assert.equal(invalid.message, "a.yaml:5:12 status of *** refused. Hint: quote the status");
  // Why a condition does not hold is masked where it is made (the values it compared), then kept
  // as flowrun's words: a long secret is still masked in it.
  assert.equal(condition.message, "Skipped: its condition status of *** does not hold.");
  // A request's error and a skip reason are masked where they are made (their values), then
  // kept as flowrun's words: a long secret is still masked in them.
  assert.equal(request.message, "Request failed: status of *** refused.");
  assert.equal(skipped.message, 'Skipped because step "status" failed.');
  // Why a capture found nothing is masked where it is made too: the step's message and each
  // capture failure's keep flowrun's words, a long secret is still masked in them.
  const capture = r.redactValue({
    steps: [{
      ...step("capture", 'capture "id": "tok-1234abcd" is not a status.'),
      capture_failures: [{ name: "id", message: '"tok-1234abcd" is not a status', line: 1 }],
    }],
  }).steps[0];
  assert.equal(capture.message, 'capture "id": "***" is not a status.');
  assert.equal(capture.capture_failures[0].message, '"***" is not a status');
  // A long secret is masked in a check's message as anywhere.
  const long = r.redactValue({ steps: [step("assertion", "got tok-1234abcd.")] });
  assert.equal(long.steps[0].message, "got ***.");
  // A check's record handed alone (a log line's) is not a step: its message is a value.
  assert.equal(r.redactValue({ message: "status holds" }).message, "*** ***");
});
