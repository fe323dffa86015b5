/**
 * `convert curl`: an answer that is only a refusal's message. A security
 * engine's TLS page sends a request with a certificate the server must turn
 * down and prints what came back, `{"message":"access forbidden"}`, with no
 * status line; so does its request after the certificate is revoked. The
 * step checked a status below 400, and the documented refusal (a 403) failed
 * the run. An answer whose one member is a text ending in a standard reason
 * phrase of 400 or more ("access forbidden", "Not Found", "Unauthorized.")
 * is that refusal: the step checks its status. A message among other
 * members, one naming no such phrase ("Decision added"), one that only
 * contains the words ("forbidden words were removed"), and an answer under
 * a pasted status line keep their checks.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

/** A page's example: the command, then what it printed (maybe under a status line). */
const example = (answer: string, head = "") =>
  [
    "If we try with the other certificate, the server refuses it",
    "",
    "```shell",
    "$ curl --cacert ca.pem --cert other.pem --key other-key.pem https://localhost:8080/v1/stream",
    ...(head ? [head, ""] : []),
    answer,
    "```",
    "",
  ].join("\n");

/** The status the one step checks. */
const checked = (yaml: string) => /\n {6}status: (.+)\n/.exec(yaml)?.[1];

Deno.test("an answer that is only a refusal's message checks that refusal's status", () => {
  const cases: [string, string][] = [
    ['{"message":"access forbidden"}', "403"],
    ['{"error": "Not Found"}', "404"],
    ['{"detail": "Unauthorized."}', "401"],
    ['{"message": "Resource not found"}', "404"],
    ['{"error":"Internal Server Error"}', "500"],
  ];
  for (const [answer, status] of cases) {
    const { yaml, summary } = convertCurl(example(answer));
    assert.equal(summary.steps, 1, yaml);
    assert.equal(checked(yaml), status, `${answer}\n${yaml}`);
    assert.ok(summary.notes.some((n) => n.includes(status)), summary.notes.join("\n"));
  }
});

Deno.test("a message among other members, or naming no refusal, keeps the check below 400", () => {
  for (
    const answer of [
      '{"message": "Decision successfully added"}',
      '{"message": "access forbidden", "items": []}',
      '{"message": "forbidden words were removed"}',
      '{"message": "OK"}',
      '["Not Found"]',
    ]
  ) {
    const { yaml } = convertCurl(example(answer));
    assert.equal(checked(yaml), "{ lt: 400 }", `${answer}\n${yaml}`);
  }
  // A pasted status line is the status: the message is what that answer said.
  const headed = convertCurl(example('{"message": "Not Found"}', "HTTP/1.1 200 OK"));
  assert.equal(checked(headed.yaml), "200", headed.yaml);
});
