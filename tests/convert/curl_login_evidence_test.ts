/**
 * `convertCurl` names a step as `convert har` does (login_evidence.ts): a
 * POST whose path says login (`/api/sessions`) keeps that name unless a
 * recorded answer is evidence against it. A command has no answer unless the
 * docs paste the head `curl -i` printed; with it, a command sending no
 * credential the user typed (Jupyter's kernel session) is no login, and one
 * sending a password still is. Without it, the path's name stands, so a
 * sign-up and a login stay what they were (curl_one_password_test.ts).
 * Commands written here, shaped as Jupyter's REST docs show them.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const KERNEL = `'{"path":"Untitled.ipynb","type":"notebook","kernel":{"name":"python3"}}'`;

/** A POST of `body` to `path`, with the answer's head `curl -i` printed when `status`. */
function command(path: string, body: string, status?: string): string {
  const sent = `curl -i -X POST http://localhost:8888${path} ` +
    `-H 'Content-Type: application/json' -d ${body}\n`;
  return status ? `${sent}HTTP/1.1 ${status}\nContent-Type: application/json\n\n` : sent;
}

/** The names of the flow's steps. */
function stepNames(yaml: string): string[] {
  return [...yaml.matchAll(/^ {2}- name: (\S+)$/gm)].map((m) => m[1]);
}

Deno.test("a command's pasted answer is evidence: a kernel session is no login", () => {
  const { yaml } = convertCurl(command("/api/sessions", KERNEL, "201 Created"));
  assert.deepEqual(stepNames(yaml), ["create_session"], yaml);
});

Deno.test("a command sending a typed password stays a login, answered or not", () => {
  const login = `'{"username":"ann","password":"s3cret-typed-41"}'`;
  for (const status of ["200 OK", undefined]) {
    const { yaml, summary } = convertCurl(command("/api/auth/login", login, status));
    assert.deepEqual(stepNames(yaml), ["login"], yaml);
    assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
  }
});

Deno.test("with no answer pasted, a POST under a login's path keeps the path's name", () => {
  const { yaml } = convertCurl(command("/api/sessions", KERNEL));
  assert.deepEqual(stepNames(yaml), ["login"], yaml);
});
